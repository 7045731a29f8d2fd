"""The view that replaces the converter of a tabular dataset."""

from chainer.dataset.tabular import _view


class _WithConverter(_view._View):
    """The same table, converted by a user function."""

    def __init__(self, dataset, converter):
        super().__init__(dataset)
        self._converter = converter

    def convert(self, data):
        if isinstance(data, tuple):
            return self._converter(*data)
        if isinstance(data, dict):
            return self._converter(**data)
        return self._converter(data)
