"""A mixin that turns ``get_example`` into full dataset indexing."""

import numpy


class DatasetMixin:
    """Default indexing for datasets that only know single examples.

    A subclass implements :meth:`__len__` and :meth:`get_example`; this mixin
    then answers ``dataset[i]``, ``dataset[start:stop:step]`` and indexing by
    a list or a 1-D array of indices (the last two give lists of examples).
    """

    def __getitem__(self, index):
        """Returns one example, or a list of examples.

        Args:
            index (int, slice, list or numpy.ndarray): An index, a slice or
                a sequence of indices.

        Returns:
            The example for an integer index; a list of examples otherwise.
        """
        if isinstance(index, slice):
            return [self.get_example(i)
                    for i in range(*index.indices(len(self)))]
        if isinstance(index, (list, numpy.ndarray)):
            return [self.get_example(i) for i in index]
        return self.get_example(index)

    def __len__(self):
        """Returns the number of examples."""
        raise NotImplementedError

    def get_example(self, i):
        """Returns the ``i``-th example.

        Args:
            i (int): Which example to return.

        Returns:
            The example.
        """
        raise NotImplementedError
