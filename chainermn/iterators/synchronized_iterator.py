"""An iterator that yields the same shuffled order on every rank."""

import numpy

import chainer
import chainer.utils


class _SynchronizedIterator(chainer.dataset.iterator.Iterator):

    def __init__(self, actual_iterator, communicator):
        if not hasattr(actual_iterator, 'order_sampler'):
            raise ValueError('actual_iterator must have order_sampler')
        object.__setattr__(self, 'actual_iterator', actual_iterator)
        self.communicator = communicator
        seed = numpy.random.randint(0, 2 ** 32 - 1) \
            if communicator.rank == 0 else None
        seed = communicator.bcast_obj(seed, root=0)
        self.actual_iterator.order_sampler = \
            chainer.iterators.ShuffleOrderSampler(
                numpy.random.RandomState(seed))
        self.actual_iterator.reset()

    def __getattr__(self, attr_name):
        return getattr(self.actual_iterator, attr_name)

    def __setattr__(self, attr_name, value):
        setattr(self.actual_iterator, attr_name, value)

    def __next__(self):
        return self.actual_iterator.__next__()

    next = __next__

    def serialize(self, serializer):
        self.actual_iterator.serialize(serializer)


def create_synchronized_iterator(actual_iterator, communicator):
    """Makes every rank draw the same batches from its own dataset copy.

    The ranks share the seed of a :class:`~chainer.iterators.\
ShuffleOrderSampler`, so with the same dataset they see the same batches in
    the same order, without sending any data (e.g. the encoder and decoder
    of a model split over two ranks).

    Args:
        actual_iterator: A Chainer iterator with an ``order_sampler``
            (:class:`~chainer.iterators.SerialIterator`,
            :class:`~chainer.iterators.MultiprocessIterator`, ...).
        communicator: ChainerMN communicator.

    Returns:
        An iterator that behaves as ``actual_iterator``.
    """
    chainer.utils.experimental(
        'chainermn.iterators.create_synchronized_iterator')
    return _SynchronizedIterator(actual_iterator, communicator)
