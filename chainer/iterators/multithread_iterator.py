"""An iterator that reads the examples with a pool of threads."""

from multiprocessing import pool as _pool

from chainer.iterators import _statemachine


class MultithreadIterator(_statemachine.EpochIterator):
    """Dataset iterator that reads the examples in threads.

    It behaves as :class:`~chainer.iterators.SerialIterator`, except that
    the examples are read by a pool of threads and the next batch is read
    ahead while the current one is being used. Threads help when reading an
    example releases the GIL (file and network I/O, image decoding).

    Args:
        dataset: The dataset.
        batch_size (int): The number of examples in a batch.
        repeat (bool): Whether to go on past the first epoch.
        shuffle (bool): As for :class:`~chainer.iterators.SerialIterator`.
        n_threads (int): The number of reading threads.
        order_sampler (callable): As for
            :class:`~chainer.iterators.SerialIterator`.
    """

    _pool = None

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None,
                 n_threads=1, order_sampler=None):
        self.dataset = dataset
        self.batch_size = batch_size
        self._repeat = repeat
        self._shuffle = shuffle
        self.order_sampler = _statemachine.resolve_order_sampler(
            shuffle, order_sampler)
        self.n_threads = n_threads
        self._pool = None
        self.reset()

    @property
    def repeat(self):
        """bool: Whether the iterator goes on past the first epoch."""
        return self._repeat

    def reset(self):
        """Goes back to the start of the first epoch, dropping any batch
        read ahead."""
        self._state = self._initial_state()
        self._previous_epoch_detail = -1.
        self._next = None

    def finalize(self):
        """Stops the reading threads."""
        pool = self._pool
        self._next = None
        self._pool = None
        if pool is not None:
            pool.terminate()

    def __next__(self):
        if self._next is None:
            self._invoke_prefetch()
        batch = self._get()
        self._invoke_prefetch()
        return batch

    next = __next__

    def serialize(self, serializer):
        """Saves or loads the position of the iterator.

        The keys are ``current_position``, ``epoch``, ``is_new_epoch``,
        ``_order`` and ``previous_epoch_detail``, as in Chainer's snapshots,
        and the state of the order sampler's random generator
        (``order_sampler/...``).
        A batch read ahead is dropped.

        Args:
            serializer (~chainer.AbstractSerializer): The serializer.
        """
        current_position = serializer(
            'current_position', self.current_position)
        epoch = serializer('epoch', self.epoch)
        is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        order = serializer('_order', self._state.order)
        self._state = _statemachine.IteratorState(
            current_position, epoch, is_new_epoch, order)
        self._previous_epoch_detail = serializer(
            'previous_epoch_detail', self._previous_epoch_detail)
        # Older snapshots hold None for "no batch yet".
        if self._previous_epoch_detail is None:
            self._previous_epoch_detail = -1.
        self._next = None
        _statemachine.serialize_order_sampler(serializer, self.order_sampler)

    @staticmethod
    def _read(args):
        dataset, index = args
        return dataset[index]

    def _invoke_prefetch(self):
        assert self._next is None
        self._next_state, indices = _statemachine.iterator_statemachine(
            self._state, self.batch_size, self._repeat, self.order_sampler,
            len(self.dataset))
        if indices is None:
            return
        if self._pool is None:
            self._pool = _pool.ThreadPool(self.n_threads)
        dataset = self.dataset
        self._next = self._pool.map_async(
            MultithreadIterator._read, [(dataset, i) for i in indices])

    def _get(self):
        self._previous_epoch_detail = self.epoch_detail
        self._state = self._next_state
        pending = self._next
        if pending is None:
            raise StopIteration
        self._next = None
        return pending.get()
