"""The column-oriented dataset and the views every such dataset offers."""

import numpy

import chainer
from chainer import backend
from chainer.dataset import dataset_mixin


class TabularDataset(dataset_mixin.DatasetMixin):
    """Base class of datasets whose examples all have the same columns.

    A tabular dataset is a table: each row is an example, each column has a
    name (:attr:`keys`). An example is given as a tuple
    ``(a[i], b[i], c[i])`` or a dict ``{'a': a[i], 'b': b[i], 'c': c[i]}``,
    as :attr:`mode` says (:class:`tuple` or :class:`dict`); a dataset of a
    single column may also give the bare value ``a[i]`` (mode ``None``).

    A subclass implements :meth:`__len__`, :attr:`keys`, :attr:`mode` and
    :meth:`get_examples`, which reads a block of rows and columns at once.
    The views (:attr:`slice`, :meth:`concat`, :meth:`join`,
    :meth:`transform`, ...) are tabular datasets themselves and read their
    data lazily, through the :meth:`get_examples` of the datasets below.

    Example:
        >>> import numpy as np
        >>> from chainer import dataset
        >>> class Table(dataset.TabularDataset):
        ...     data = np.arange(12).reshape(3, 4)
        ...     def __len__(self):
        ...         return 4
        ...     @property
        ...     def keys(self):
        ...         return ('a', 'b', 'c')
        ...     @property
        ...     def mode(self):
        ...         return tuple
        ...     def get_examples(self, indices, key_indices):
        ...         rows = self.data if key_indices is None else \\
        ...             self.data[list(key_indices)]
        ...         if indices is not None:
        ...             rows = rows[:, indices]
        ...         return tuple(rows)
        >>> table = Table()
        >>> [int(v) for v in table[1]]
        [1, 5, 9]
        >>> view = table.slice[[3, 0], ('c', 'a')]
        >>> view.keys
        ('c', 'a')
        >>> sorted((k, int(v)) for k, v in view.asdict()[0].items())
        [('a', 3), ('c', 11)]
    """

    def __len__(self):
        """Returns the number of rows."""
        raise NotImplementedError

    @property
    def keys(self):
        """tuple of str: The names of the columns."""
        raise NotImplementedError

    @property
    def mode(self):
        """The form of an example: :class:`tuple`, :class:`dict` or ``None``.

        ``None`` means that an example is the bare value of the only column.
        """
        raise NotImplementedError

    def get_examples(self, indices, key_indices):
        """Reads a block of the table.

        Args:
            indices (list of ints or slice): The rows to read; ``None``
                means all rows.
            key_indices (tuple of ints): The positions in :attr:`keys` of
                the columns to read; ``None`` means all columns.

        Returns:
            tuple: One list or array per requested column, holding the
            values of the requested rows.
        """
        raise NotImplementedError

    @property
    def slice(self):
        """A view of some rows and columns: ``dataset.slice[rows, keys]``.

        ``rows`` is a slice, a list or array of integer indices (negative
        ones count from the end), or a list or array of booleans with one
        entry per row. ``keys`` is optional: a tuple of column names or
        positions keeps the dataset's mode (a dataset of mode ``None``
        becomes a tuple dataset); a single name or position makes a
        dataset of mode ``None``.

        Raises:
            IndexError: An index or a key position is out of range.
            KeyError: A key name is not a column of the dataset.
            ValueError: A boolean mask does not have one entry per row.
        """
        from chainer.dataset.tabular import _slice
        return _slice._SliceHelper(self)

    def fetch(self):
        """Reads the whole dataset, column by column.

        Returns:
            For mode :class:`tuple`, a tuple of one list or array per
            column; for mode :class:`dict`, a dict from key to column; for
            mode ``None``, the only column.
        """
        columns = self.get_examples(None, None)
        return _as_mode(self.mode, self.keys, columns)

    def convert(self, data):
        """Turns data read by :meth:`fetch` into arrays.

        By default each column becomes an array of the device of its first
        element (columns that are arrays already are kept as they are).
        :meth:`with_converter` replaces this step; the views made by
        :meth:`concat` and :meth:`join` use the converter of the first
        dataset.

        Args:
            data (tuple, dict or column): What :meth:`fetch` returned.

        Returns:
            The same structure with arrays in place of the columns.
        """
        if isinstance(data, tuple):
            return tuple(_as_array(column) for column in data)
        if isinstance(data, dict):
            return {key: _as_array(column) for key, column in data.items()}
        return _as_array(data)

    def astuple(self):
        """Returns a view of the dataset whose mode is :class:`tuple`."""
        from chainer.dataset.tabular import _asmode
        return _asmode._Astuple(self)

    def asdict(self):
        """Returns a view of the dataset whose mode is :class:`dict`."""
        from chainer.dataset.tabular import _asmode
        return _asmode._Asdict(self)

    def concat(self, *datasets):
        """Stacks datasets below this one (row-wise).

        Args:
            datasets (TabularDataset): The datasets to append; they must
                have the same :attr:`keys`, in the same order.

        Returns:
            TabularDataset: A view with the rows of all the datasets.

        Raises:
            ValueError: The keys differ.
        """
        from chainer.dataset.tabular import _concat
        return _concat._Concat(self, *datasets)

    def join(self, *datasets):
        """Puts datasets beside this one (column-wise).

        Args:
            datasets (TabularDataset): The datasets to join; they must have
                as many rows as this one and no key in common.

        Returns:
            TabularDataset: A view with the columns of all the datasets.

        Raises:
            ValueError: The lengths differ or a key appears twice.
        """
        from chainer.dataset.tabular import _join
        return _join._Join(self, *datasets)

    def transform(self, keys, transform):
        """Applies a function to each example.

        The function receives an example as arguments: positional ones for
        the modes :class:`tuple` and ``None``, keyword ones for the mode
        :class:`dict`. What it returns (a tuple, a dict or a single value)
        fixes the mode of the view, and must not change from one example
        to the next.

        Args:
            keys (str or tuple of str): The names of the new columns.
            transform (callable): The function.

        Returns:
            TabularDataset: The transformed view.
        """
        from chainer.dataset.tabular import _transform
        return _transform._Transform(self, keys, transform)

    def transform_batch(self, keys, transform_batch):
        """Applies a function to blocks of examples.

        As :meth:`transform`, but the function receives whole columns (one
        list or array per column) and returns columns of the same length.

        Args:
            keys (str or tuple of str): The names of the new columns.
            transform_batch (callable): The function.

        Returns:
            TabularDataset: The transformed view.
        """
        from chainer.dataset.tabular import _transform
        return _transform._TransformBatch(self, keys, transform_batch)

    def with_converter(self, converter):
        """Returns a view whose :meth:`convert` calls ``converter``.

        ``converter`` receives the columns fetched: as positional arguments
        for the modes :class:`tuple` and ``None``, as keyword arguments
        for the mode :class:`dict`.

        Args:
            converter (callable): The new converter.

        Returns:
            TabularDataset: The view.
        """
        from chainer.dataset.tabular import _with_converter
        return _with_converter._WithConverter(self, converter)

    def get_example(self, i):
        """Returns the ``i``-th example, in the form :attr:`mode` says."""
        columns = self.get_examples([i], None)
        return _as_mode(self.mode, self.keys,
                        tuple(column[0] for column in columns))

    def __iter__(self):
        """Iterates over the examples."""
        return (self.get_example(i) for i in range(len(self)))


def _as_mode(mode, keys, values):
    # One value per column, in the form an example or a fetch takes.
    if mode is tuple:
        return values
    if mode is dict:
        return dict(zip(keys, values))
    return values[0]


def _as_array(column):
    if isinstance(column, chainer.get_array_types()):
        return column
    if len(column) == 0:
        return numpy.asarray(column)
    device = backend.get_device_from_array(column[0])
    with backend.using_device(device):
        return device.xp.asarray(column)
