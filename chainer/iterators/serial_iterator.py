"""An iterator that reads the examples in the calling thread."""

from chainer.iterators import _statemachine


class SerialIterator(_statemachine.EpochIterator):
    """Dataset iterator that reads the examples one after another.

    Each call of ``next`` returns a list of ``batch_size`` examples. With
    ``repeat=True`` the iteration never ends, and a batch crossing the end
    of an epoch is completed with the first examples of the next epoch;
    with ``repeat=False`` the last batch of the single epoch may be
    shorter, and ``StopIteration`` follows.

    Args:
        dataset: The dataset: any object with ``__len__`` and
            ``__getitem__``.
        batch_size (int): The number of examples in a batch.
        repeat (bool): Whether to go on past the first epoch.
        shuffle (bool): ``True`` to visit the examples in a new random order
            each epoch, ``False`` for the dataset's order. ``None`` (the
            default) means random unless ``order_sampler`` is given.
        order_sampler (callable): A callable
            ``(current_order, current_position) -> new_order`` choosing the
            order of each epoch (see
            :class:`~chainer.iterators.OrderSampler`). It cannot be combined
            with ``shuffle``.
    """

    def __init__(self, dataset, batch_size,
                 repeat=True, shuffle=None, order_sampler=None):
        self.dataset = dataset
        self.batch_size = batch_size
        self._repeat = repeat
        self._shuffle = shuffle
        self.order_sampler = _statemachine.resolve_order_sampler(
            shuffle, order_sampler)
        self.reset()

    def __next__(self):
        state, indices = _statemachine.iterator_statemachine(
            self._state, self.batch_size, self._repeat, self.order_sampler,
            len(self.dataset))
        self._previous_epoch_detail = self.epoch_detail
        self._state = state
        if indices is None:
            raise StopIteration
        dataset = self.dataset
        return [dataset[index] for index in indices]

    next = __next__

    @property
    def repeat(self):
        """bool: Whether the iterator goes on past the first epoch."""
        return self._repeat

    def reset(self):
        """Goes back to the start of the first epoch.

        A new order is drawn from the order sampler.
        """
        self._state = self._initial_state()
        self._previous_epoch_detail = -1.

    def serialize(self, serializer):
        """Saves or loads the position of the iterator.

        The keys are ``current_position``, ``epoch``, ``is_new_epoch``,
        ``order`` (only when the order is not the natural one) and
        ``previous_epoch_detail``, as in Chainer's snapshots, and the state of
        the order sampler's random generator (``order_sampler/...``).

        Args:
            serializer (~chainer.AbstractSerializer): The serializer.
        """
        current_position = serializer(
            'current_position', self.current_position)
        epoch = serializer('epoch', self.epoch)
        is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        order = self._state.order
        if order is not None:
            # A deserializer loads the order into the array in place.
            try:
                serializer('order', order)
            except KeyError:
                serializer('_order', order)
        self._state = _statemachine.IteratorState(
            current_position, epoch, is_new_epoch, order)
        self._load_previous_epoch_detail(serializer)
        _statemachine.serialize_order_sampler(serializer, self.order_sampler)
