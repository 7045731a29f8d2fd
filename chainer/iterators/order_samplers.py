"""Order samplers: choose the order of the examples in each epoch."""

import numpy

from chainer.iterators import _random_state


class OrderSampler:
    """Base class of order samplers.

    An iterator calls its order sampler at the start of the iteration and
    at each epoch end to get the order in which the next epoch visits the
    examples.
    """

    def __call__(self, current_order, current_position):
        """Returns the order of the next epoch.

        Args:
            current_order (numpy.ndarray): The order of the epoch that just
                ended (``numpy.arange(len(dataset))`` at the start).
            current_position (int): The position in that order where the
                epoch ended.

        Returns:
            numpy.ndarray: The indices of the examples in the order of the
            next epoch, as many as in ``current_order``.
        """
        raise NotImplementedError


class ShuffleOrderSampler(OrderSampler):
    """Order sampler visiting the examples in a new random order each epoch.

    The state of its generator is saved with the iterator (under
    ``order_sampler/random_state``), so that a training resumed from a
    snapshot draws the same orders as one that was never interrupted.

    Args:
        random_state (numpy.random.RandomState): The random number
            generator; NumPy's global one by default, so that
            ``numpy.random.seed`` makes the orders reproducible.
    """

    def __init__(self, random_state=None):
        if random_state is None:
            random_state = numpy.random.random.__self__
        self._random = random_state

    def __call__(self, current_order, current_position):
        return self._random.permutation(len(current_order))

    def serialize(self, serializer):
        """Saves or loads the state of the random number generator.

        Args:
            serializer (~chainer.AbstractSerializer): The serializer.
        """
        if _random_state.is_supported(self._random):
            _random_state.serialize(serializer, 'random_state', self._random)
