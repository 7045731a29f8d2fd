"""An extension that draws the progress of training on a terminal."""

import datetime
import sys

from chainer.training import extension
from chainer.training.extensions import util


class ProgressBar(extension.Extension):
    """Trainer extension that draws a progress bar and the training speed.

    Every ``update_interval`` iterations it draws the progress of the whole
    training and of the current epoch, the iteration and epoch counts, the
    speed in iterations per second and the estimated time left.

    Args:
        training_length (tuple): ``(length, unit)`` of the whole training;
            by default the ``get_training_length()`` of the trainer's stop
            trigger.
        update_interval (int): Draw every this many iterations.
        bar_length (int): How many characters wide each bar is.
        out: The stream written to; standard output by default.
    """

    def __init__(self, training_length=None, update_interval=100,
                 bar_length=50, out=sys.stdout):
        self._update_interval = update_interval
        self._pbar = _TrainerProgressBar(
            training_length, bar_length=bar_length, out=out)

    def __call__(self, trainer):
        self._pbar.trainer = trainer
        if trainer.updater.iteration % self._update_interval == 0:
            self._pbar.update()

    def finalize(self):
        """Erases the bar."""
        self._pbar.close()


def _bar(rate, length):
    marks = '#' * int(rate * length)
    return '[{}{}] {:6.2%}\n'.format(marks, '.' * (length - len(marks)), rate)


class _TrainerProgressBar(util.ProgressBar):

    trainer = None

    def __init__(self, training_length, bar_length=None, out=None):
        super().__init__(bar_length=bar_length, out=out)
        self.training_length = training_length
        self.status_template = None

    def get_lines(self):
        updater = self.trainer.updater
        iteration = updater.iteration
        epoch = updater.epoch_detail

        if self.training_length is None:
            self.training_length = \
                self.trainer.stop_trigger.get_training_length()
        length, unit = self.training_length

        if unit == 'iteration':
            rate = iteration / length
        else:
            rate = epoch / length
        rate = min(rate, 1.0)

        lines = ['     total ' + _bar(rate, self._bar_length),
                 'this epoch ' + _bar(epoch - int(epoch), self._bar_length)]

        if self.status_template is None:
            self.status_template = (
                '{0.iteration:10} iter, {0.epoch} epoch / %s %ss\n' %
                self.training_length)
        lines.append(self.status_template.format(updater))

        speed_t, speed_e = self.update_speed(iteration, epoch)
        if unit == 'iteration':
            estimated_time = (length - iteration) / speed_t
        else:
            estimated_time = (length - epoch) / speed_e
        estimated_time = max(estimated_time, 0.0)
        lines.append('{:10.5g} iters/sec. Estimated time to finish: {}.\n'
                     .format(speed_t,
                             datetime.timedelta(seconds=estimated_time)))
        return lines
