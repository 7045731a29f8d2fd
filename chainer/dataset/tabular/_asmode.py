"""Views that change how examples are represented (``astuple``, ``asdict``)."""

from chainer.dataset.tabular import _view


class _AsMode(_view._View):
    """The same table, with examples given as tuples or as dicts."""

    def __init__(self, dataset, mode):
        super().__init__(dataset)
        self._mode = mode

    @property
    def mode(self):
        return self._mode
