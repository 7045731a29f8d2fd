"""Views that change how examples are represented (``astuple``, ``asdict``)."""

from chainer.dataset.tabular import _view


class _AsMode(_view._View):
    """The same table, with examples given in the mode of the class."""

    _mode = None

    @property
    def mode(self):
        return self._mode


class _Astuple(_AsMode):
    """The same table, with examples given as tuples."""

    _mode = tuple


class _Asdict(_AsMode):
    """The same table, with examples given as dicts."""

    _mode = dict
