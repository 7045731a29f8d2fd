"""The epoch bookkeeping shared by the iterators.

An iterator's position is an :class:`IteratorState`;
:func:`iterator_statemachine` computes the indices of the next batch and
the state after it without touching the dataset, so that iterators can run
it ahead of the consumer (prefetching) or from a saved state.
"""

import collections

import numpy

from chainer.dataset import iterator
from chainer.iterators import order_samplers
from chainer import serializer as serializer_module


IteratorState = collections.namedtuple('IteratorState', (
    'current_position', 'epoch', 'is_new_epoch', 'order'))


def iterator_statemachine(state, batch_size, repeat, order_sampler,
                          dataset_len):
    """Advances an iterator state by one batch.

    Args:
        state (IteratorState): The current state. ``order`` is the
            permutation of the dataset indices for the current epoch, or
            ``None`` for the natural order.
        batch_size (int): The number of examples in a batch.
        repeat (bool): Whether the iteration goes on past the first epoch.
            A repeating iterator fills a batch that crosses the end of an
            epoch with the first examples of the next one; a non-repeating
            one returns a shorter last batch and then stops.
        order_sampler: A callable ``(order, position) -> new_order`` called
            at each epoch end when ``order`` is not ``None``.
        dataset_len (int): The number of examples in the dataset.

    Returns:
        tuple: The new :class:`IteratorState` and the array of indices of
        the batch; the indices are ``None`` (and the state unchanged) once a
        non-repeating iterator has finished.

    Raises:
        ValueError: If a repeating iterator has an empty epoch, or if the
            order sampler changes the length of the order.
    """
    position, epoch, _, order = state
    if not repeat and epoch > 0:
        return state, None
    epoch_size = dataset_len if order is None else len(order)
    if repeat and epoch_size == 0:
        raise ValueError('Epoch size must be positive for an iterator '
                         'that repeats.')

    pieces = []
    end = position + batch_size
    is_new_epoch = False
    while end >= epoch_size:
        pieces.append(_indices(order, position, epoch_size))
        if order is not None:
            new_order = order_sampler(order, position)
            if len(new_order) != len(order):
                raise ValueError('The size of order does not match '
                                 'the size of the previous order.')
            order = new_order
        epoch += 1
        is_new_epoch = True
        position = 0
        if not repeat:
            end = 0
            break
        end -= epoch_size
    pieces.append(_indices(order, position, end))
    indices = pieces[0] if len(pieces) == 1 else numpy.concatenate(pieces)
    return IteratorState(end, epoch, is_new_epoch, order), indices


def _indices(order, start, stop):
    if order is None:
        return numpy.arange(start, stop, dtype=numpy.intp)
    return order[start:stop]


def resolve_order_sampler(shuffle, order_sampler):
    """Returns the order sampler an iterator uses.

    Args:
        shuffle (bool or None): ``True`` for a random order each epoch,
            ``False`` for the natural order, ``None`` to let
            ``order_sampler`` decide (random when it is ``None`` too).
        order_sampler: A custom order sampler, or ``None``.

    Returns:
        The order sampler, or ``None`` for the natural order.

    Raises:
        ValueError: If both ``shuffle`` and ``order_sampler`` are given.
    """
    if shuffle is not None:
        if order_sampler is not None:
            raise ValueError('`shuffle` is not `None` and a custom '
                             '`order_sampler` is set. Please set '
                             '`shuffle` to `None` to use the custom '
                             'order sampler.')
        return order_samplers.ShuffleOrderSampler() if shuffle else None
    if order_sampler is None:
        return order_samplers.ShuffleOrderSampler()
    return order_sampler


class EpochIterator(iterator.Iterator):
    """Epoch bookkeeping common to the iterators of this package.

    A subclass sets ``dataset``, ``batch_size`` and ``order_sampler`` and
    keeps its position in ``_state`` (an :class:`IteratorState`) and the
    epoch detail before the last batch in ``_previous_epoch_detail``
    (``-1`` before the first batch).
    """

    @property
    def current_position(self):
        """int: The position of the next example in the epoch's order."""
        return self._state.current_position

    @property
    def epoch(self):
        """int: The number of completed epochs."""
        return self._state.epoch

    @property
    def is_new_epoch(self):
        """bool: Whether the last batch completed an epoch."""
        return self._state.is_new_epoch

    @property
    def epoch_detail(self):
        """float: The number of epochs done, with its fractional part."""
        return self.epoch + self.current_position / self._epoch_size

    @property
    def previous_epoch_detail(self):
        """float: The epoch detail before the last batch.

        ``None`` before the first batch.
        """
        if self._previous_epoch_detail < 0:
            return None
        return self._previous_epoch_detail

    @property
    def _epoch_size(self):
        order = self._state.order
        return len(self.dataset) if order is None else len(order)

    def _initial_state(self):
        order = None
        if self.order_sampler is not None:
            order = self.order_sampler(numpy.arange(len(self.dataset)), 0)
        return IteratorState(0, 0, False, order)

    def _load_previous_epoch_detail(self, serializer):
        self._previous_epoch_detail = load_previous_epoch_detail(
            serializer, self, self._epoch_size)


def serialize_order_sampler(serializer, order_sampler):
    """Saves or loads the state of an iterator's order sampler.

    Only an order sampler with a ``serialize`` method (such as
    :class:`~chainer.iterators.ShuffleOrderSampler`) has one; it goes under
    ``order_sampler/``, a key that Chainer 7.8 does not read.

    Args:
        serializer (~chainer.AbstractSerializer): The iterator's
            serializer.
        order_sampler: The order sampler, or ``None``.

    A plain callable standing for a serializer (pickling uses one), or a
    serializer that has no child serializers, saves nothing of it.
    """
    if (order_sampler is None or not hasattr(order_sampler, 'serialize')
            or not isinstance(serializer,
                              serializer_module.AbstractSerializer)):
        return
    try:
        child = serializer['order_sampler']
    except (KeyError, NotImplementedError):
        return
    order_sampler.serialize(child)


def load_previous_epoch_detail(serializer, it, epoch_size):
    """Saves or loads ``previous_epoch_detail`` of an iterator.

    Snapshots of Chainer before v4 lack the key; the value is then guessed
    from the position and the batch size, as Chainer does.

    Args:
        serializer (~chainer.AbstractSerializer): The serializer.
        it: The iterator, with ``epoch``, ``epoch_detail``,
            ``current_position``, ``batch_size`` and
            ``_previous_epoch_detail`` (``-1`` for none).
        epoch_size (int): The number of examples in an epoch.

    Returns:
        float: The value of ``_previous_epoch_detail`` to keep.
    """
    try:
        return serializer('previous_epoch_detail', it._previous_epoch_detail)
    except KeyError:
        if it.epoch_detail <= 0:
            return -1.
        guess = it.epoch + (it.current_position - it.batch_size) / epoch_size
        return max(guess, 0.)
