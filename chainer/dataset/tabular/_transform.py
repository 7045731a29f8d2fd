"""Views that apply a function to the examples (``transform``,
``transform_batch``)."""

from chainer.dataset.tabular import _view


class _TransformBase(_view._View):
    """What both transforms share: new keys, and a mode learnt from output.

    The mode of the view is the kind of value the function returns (a
    tuple, a dict or anything else, for mode ``None``); it is learnt from
    the first read, reading the first row if the mode is asked first.
    """

    _name = 'transform'

    def __init__(self, dataset, keys, function):
        super().__init__(dataset)
        if not isinstance(keys, tuple):
            keys = (keys,)
        self._keys = keys
        self._function = function
        self._mode = None
        self._mode_known = False

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        if not self._mode_known:
            self.get_examples([0], None)
        return self._mode

    def _apply(self, values, key_indices):
        # Calls the function on one example (or one block of columns), as
        # the mode of the dataset below says, and returns the values (or
        # columns) of its output at the positions ``key_indices`` of keys.
        dataset = self._dataset
        if dataset.mode is dict:
            output = self._function(**dict(zip(dataset.keys, values)))
        else:
            output = self._function(*values)
        if isinstance(output, dict):
            self._learn_mode(dict)
            return tuple(output[self._keys[key_index]]
                         for key_index in key_indices)
        if isinstance(output, tuple):
            self._learn_mode(tuple)
        else:
            self._learn_mode(None)
            output = (output,)
        return tuple(output[key_index] for key_index in key_indices)

    def _learn_mode(self, mode):
        if not self._mode_known:
            self._mode = mode
            self._mode_known = True
        elif self._mode is not mode:
            raise ValueError(
                '{} must not change its return type'.format(self._name))


class _Transform(_TransformBase):
    """Applies a function to each example."""

    def get_examples(self, indices, key_indices):
        if key_indices is None:
            key_indices = range(len(self._keys))
        columns = tuple([] for _ in key_indices)
        for row in zip(*self._dataset.get_examples(indices, None)):
            for column, value in zip(columns, self._apply(row, key_indices)):
                column.append(value)
        return columns


class _TransformBatch(_TransformBase):
    """Applies a function to the columns of each read."""

    _name = 'transform_batch'

    def get_examples(self, indices, key_indices):
        if indices is None:
            size = len(self)
        elif isinstance(indices, slice):
            size = len(range(*indices.indices(len(self))))
        else:
            size = len(indices)
        if key_indices is None:
            key_indices = range(len(self._keys))
        columns = self._apply(
            self._dataset.get_examples(indices, None), key_indices)
        if any(len(column) != size for column in columns):
            raise ValueError(
                'transform_batch must not change the length of data')
        return columns

