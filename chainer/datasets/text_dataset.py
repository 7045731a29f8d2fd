"""A dataset of the lines of text files."""

import threading

from chainer.dataset import dataset_mixin


class TextDataset(dataset_mixin.DatasetMixin):
    """Dataset of the lines of one or more text files.

    With one file each example is a line (a string, newline included); with
    several files of the same number of lines each example is the tuple of
    their lines at the same position (e.g. a source and a target sentence).
    Only the positions of the lines are kept in memory; a line is read from
    its file when accessed.

    Args:
        paths (str or list of str): One file name, or several.
        encoding (str or list of str): The encoding of the files (one for
            all, or one per file), as for :func:`open`.
        errors (str or list of str): The decoding error policy, as for
            :func:`open`.
        newline (str or list of str): The newline mode, as for :func:`open`.
        filter_func (callable): If given, a function receiving the lines of
            a position (one argument per file); the positions for which it
            returns a false value are left out.

    Raises:
        ValueError: If no path is given, an option list's length differs
            from the number of files, or the files' numbers of lines differ.
    """

    def __init__(self, paths, encoding=None, errors=None, newline=None,
                 filter_func=None):
        if isinstance(paths, str):
            paths = [paths]
        elif not paths:
            raise ValueError('at least one text file must be specified')
        n = len(paths)
        encoding, errors, newline = (
            [option] * n if option is None or isinstance(option, str)
            else option
            for option in (encoding, errors, newline))
        if not n == len(encoding) == len(errors) == len(newline):
            raise ValueError(
                'length of each option must match with the number of '
                'text files to read')
        self._paths = paths
        self._encoding = encoding
        self._errors = errors
        self._newline = newline
        self._open()

        # bounds[k][j] is where line j of file k starts; lines lists the
        # line numbers kept by the filter.
        bounds = tuple([0] for _ in self._fps)
        lines = []
        line_number = 0
        while True:
            texts = [fp.readline() for fp in self._fps]
            if not all(texts):
                if any(texts):
                    raise ValueError(
                        'number of lines in files does not match')
                break
            for bound, fp in zip(bounds, self._fps):
                bound.append(fp.tell())
            if filter_func is None or filter_func(*texts):
                lines.append(line_number)
            line_number += 1
        self._bounds = bounds
        self._lines = range(line_number) if filter_func is None else lines
        self._lock = threading.Lock()

    def _open(self):
        self._fps = [
            open(path, mode='rt', encoding=encoding, errors=errors,
                 newline=newline)
            for path, encoding, errors, newline in zip(
                self._paths, self._encoding, self._errors, self._newline)]

    def __getstate__(self):
        state = self.__dict__.copy()
        del state['_fps']
        del state['_lock']
        return state

    def __setstate__(self, state):
        self.__dict__ = state
        self._open()
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._lines)

    def close(self):
        """Closes the files.

        Every file is closed even if closing one fails; the first error is
        then raised.
        """
        error = None
        for fp in self._fps:
            try:
                fp.close()
            except Exception as e:
                error = error or e
        if error is not None:
            raise error

    def get_example(self, idx):
        if idx < 0 or idx >= len(self._lines):
            raise IndexError
        line_number = self._lines[idx]
        with self._lock:
            texts = []
            for bound, fp in zip(self._bounds, self._fps):
                fp.seek(bound[line_number])
                texts.append(fp.readline())
        if len(texts) == 1:
            return texts[0]
        return tuple(texts)
