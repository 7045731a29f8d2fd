"""An iterator whose batches are read on one rank and broadcast."""

import numpy

import chainer
import chainer.utils


def _is_valid_type(element):
    if isinstance(element, tuple) and len(element) == 2 \
            and hasattr(element[0], 'dtype') \
            and hasattr(element[1], 'dtype'):
        return True
    return hasattr(element, 'dtype')


def _build_ctrl_msg(stop, is_valid_data_type, is_paired_dataset,
                    is_new_epoch, current_position):
    return numpy.array([stop, is_valid_data_type, is_paired_dataset,
                        is_new_epoch, current_position], numpy.float32)


def _parse_ctrl_msg(msg):
    return (bool(msg[0]), bool(msg[1]), bool(msg[2]), bool(msg[3]),
            int(msg[4]))


_TYPE_ERROR = ('Multi node iterator supports ndarray or tuple of scalars '
               'as the data type of the batch element only.')


class _MultiNodeIteratorMaster(chainer.dataset.iterator.Iterator):

    def __init__(self, actual_iterator, communicator, rank_master):
        object.__setattr__(self, 'communicator', communicator)
        object.__setattr__(self, 'actual_iterator', actual_iterator)
        object.__setattr__(self, 'rank_master', rank_master)
        size = numpy.array([len(actual_iterator.dataset)], numpy.float32)
        communicator.bcast(size, root=rank_master)
        order = actual_iterator._state.order
        if order is None:
            order = -numpy.ones((1,), numpy.float32)
        communicator.bcast(numpy.asarray(order, numpy.float32),
                           root=rank_master)

    def __next__(self):
        try:
            batch = self.actual_iterator.__next__()
            first = batch[0]
            is_valid_data_type = _is_valid_type(first)
            is_paired_dataset = isinstance(batch, list) and \
                isinstance(first, tuple) and len(first) == 2
            stop = False
        except StopIteration:
            stop = True
            is_valid_data_type = is_paired_dataset = False
        ctrl_msg = _build_ctrl_msg(stop, is_valid_data_type,
                                   is_paired_dataset,
                                   self.actual_iterator.is_new_epoch,
                                   self.actual_iterator.current_position)
        self.communicator.bcast(ctrl_msg, root=self.rank_master)
        if stop:
            raise StopIteration
        if not is_valid_data_type:
            raise TypeError(_TYPE_ERROR)
        if is_paired_dataset:
            xs, ys = zip(*batch)
            self.communicator.bcast(numpy.asarray(xs, numpy.float32),
                                    root=self.rank_master)
            self.communicator.bcast(numpy.asarray(ys, numpy.float32),
                                    root=self.rank_master)
            return batch
        if isinstance(batch, list):
            batch = numpy.array(batch)
        batch = self.communicator.bcast(batch, root=self.rank_master)
        return batch.tolist()

    next = __next__

    def __getattr__(self, attr_name):
        return getattr(self.actual_iterator, attr_name)

    @property
    def current_position(self):
        return self.actual_iterator.current_position

    @property
    def epoch_detail(self):
        return self.actual_iterator.epoch_detail

    @property
    def is_new_epoch(self):
        return self.actual_iterator.is_new_epoch

    def serialize(self, serializer):
        # The other ranks serialize at the same time and read the state
        # through the serializer sent here.
        self.actual_iterator.serialize(serializer)
        self.communicator.bcast_obj(serializer, root=self.rank_master)


class _MultiNodeIteratorSlave(chainer.dataset.iterator.Iterator):

    def __init__(self, communicator, rank_master):
        self.communicator = communicator
        self.rank_master = rank_master
        self.epoch = 0
        self.current_position = 0
        self.is_new_epoch = False
        self.dataset_size = int(
            communicator.bcast(None, root=rank_master)[0])
        order = communicator.bcast(None, root=rank_master).astype(
            numpy.int64)
        self._order = None if order[0] == -1 else order

    def __next__(self):
        ctrl_msg = self.communicator.bcast(None, root=self.rank_master)
        (stop, is_valid_data_type, is_paired_dataset, self.is_new_epoch,
         self.current_position) = _parse_ctrl_msg(ctrl_msg)
        if self.is_new_epoch:
            self.epoch += 1
        if stop:
            raise StopIteration
        if not is_valid_data_type:
            raise TypeError(_TYPE_ERROR)
        if is_paired_dataset:
            xs = self.communicator.bcast(None, root=self.rank_master)
            ys = self.communicator.bcast(None, root=self.rank_master)
            return list(zip(xs, ys.astype(numpy.int32)))
        batch = self.communicator.bcast(None, root=self.rank_master)
        return batch.tolist()

    next = __next__

    @property
    def epoch_detail(self):
        return self.epoch + self.current_position / self.dataset_size

    def serialize(self, serializer):
        source = self.communicator.bcast_obj(None, root=self.rank_master)
        self.current_position = serializer(
            'current_position',
            source('current_position', self.current_position))
        self.epoch = serializer('epoch', source('epoch', self.epoch))
        self.is_new_epoch = serializer(
            'is_new_epoch', source('is_new_epoch', self.is_new_epoch))
        try:
            self._order = serializer('order', source('order', self._order))
        except KeyError:
            pass


def create_multi_node_iterator(actual_iterator, communicator, rank_master=0):
    """Makes one rank read the batches and broadcast them to the others.

    ``rank_master`` draws each batch from ``actual_iterator`` and
    broadcasts it; the other ranks receive it (their own datasets are not
    read). Batch elements must be arrays, or pairs of arrays (sent as
    float32, the labels received as int32). Every rank must create the
    iterator, and serialize it, at the same time.

    Args:
        actual_iterator: The iterator on ``rank_master``
            (:class:`~chainer.iterators.SerialIterator` or
            :class:`~chainer.iterators.MultiprocessIterator`).
        communicator: ChainerMN communicator.
        rank_master (int): The rank that reads the data.

    Returns:
        An iterator yielding the same batches on every rank.
    """
    chainer.utils.experimental(
        'chainermn.iterators.create_multi_node_iterator')
    if communicator.rank == rank_master:
        return _MultiNodeIteratorMaster(actual_iterator, communicator,
                                        rank_master)
    return _MultiNodeIteratorSlave(communicator, rank_master)
