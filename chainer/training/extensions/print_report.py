"""An extension that prints the entries of a LogReport as a table."""

import sys

from chainer.training import extension
from chainer.training.extensions import log_report as log_report_module


class PrintReport(extension.Extension):
    """Trainer extension that prints selected entries of the log.

    Each column is at least 10 characters wide (the width of its header
    otherwise); numbers are printed with the ``g`` format, left aligned,
    and missing values as blanks. The header is printed at the first call.

    Args:
        entries (list of str): The keys to print, as columns.
        log_report (str or LogReport): The name of a
            :class:`~chainer.training.extensions.LogReport` registered to
            the trainer, or a LogReport instance that this extension feeds
            itself.
        out: The stream printed to; standard output by default.
    """

    def __init__(self, entries, log_report='LogReport', out=sys.stdout):
        self._entries = entries
        self._log_report = log_report
        self._out = out
        self._log_len = 0

        widths = [max(10, len(entry)) for entry in entries]
        self._header = '  '.join(
            '{:%d}' % width for width in widths).format(*entries) + '\n'
        self._templates = [
            (entry, '{:<%dg}  ' % width, ' ' * (width + 2))
            for entry, width in zip(entries, widths)]

    def __call__(self, trainer):
        out = self._out
        if self._header:
            out.write(self._header)
            self._header = None

        log_report = self._log_report
        if isinstance(log_report, str):
            log_report = trainer.get_extension(log_report)
        elif isinstance(log_report, log_report_module.LogReport):
            log_report(trainer)
        else:
            raise TypeError('log report has a wrong type %s' %
                            type(log_report))

        log = log_report.log
        while len(log) > self._log_len:
            out.write('\033[J')
            self._print(log[self._log_len])
            self._log_len += 1

    def serialize(self, serializer):
        """Saves or loads an owned LogReport."""
        if isinstance(self._log_report, log_report_module.LogReport):
            self._log_report.serialize(serializer['_log_report'])

    def _print(self, observation):
        out = self._out
        for entry, template, empty in self._templates:
            if entry in observation:
                out.write(template.format(observation[entry]))
            else:
                out.write(empty)
        out.write('\n')
        if hasattr(out, 'flush'):
            out.flush()
