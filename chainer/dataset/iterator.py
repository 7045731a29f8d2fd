"""The base class of dataset iterators."""


class Iterator:
    """Base class of dataset iterators.

    An iterator walks over a dataset and returns a list of examples (a
    minibatch) at each call of :meth:`__next__`. Iterators used by trainers
    also keep epoch bookkeeping: ``epoch``, ``epoch_detail``,
    ``previous_epoch_detail`` and ``is_new_epoch``.

    An iterator may hold resources (worker processes, threads); call
    :meth:`finalize` when done with it, or use it as a context manager::

        with SerialIterator(dataset, 32) as it:
            batch = next(it)
    """

    def __del__(self):
        self.finalize()

    def __iter__(self):
        """Returns the iterator itself."""
        return self

    def __next__(self):
        """Returns the next minibatch.

        Raises:
            StopIteration: When an iterator that does not repeat has
                finished its epoch.
        """
        raise NotImplementedError

    def next(self):
        """Python 2 alias of :meth:`__next__`."""
        return self.__next__()

    def finalize(self):
        """Releases the resources held by the iterator.

        By default it does nothing. Iterators that start
        processes or threads stop them here; calling it twice is harmless.
        """

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.finalize()

    def serialize(self, serializer):
        """Saves or loads the state of the iterator.

        By default it does nothing.

        Args:
            serializer (~chainer.AbstractSerializer): The serializer.
        """
