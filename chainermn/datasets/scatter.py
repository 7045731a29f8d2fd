"""Splitting a dataset between the ranks."""

import warnings

import numpy

import chainer.datasets


class DataSizeError(RuntimeError):
    """The dataset is too large for the requested operation."""


def scatter_dataset(dataset, comm, root=0, shuffle=False, seed=None,
                    max_buf_len=256 * 1024 * 1024, *,
                    force_equal_length=True):
    """Gives each rank its part of the dataset of ``root``.

    ``root``'s dataset (and, with ``shuffle``, a permutation of it) is
    broadcast; each rank keeps a :class:`~chainer.datasets.SubDataset` of
    its share. The datasets given on the other ranks are ignored.

    Args:
        dataset: The dataset on ``root`` (a list, an array, a
            :class:`~chainer.datasets.TupleDataset`, ...).
        comm: ChainerMN communicator.
        root (int): The rank whose dataset is scattered.
        shuffle (bool): Shuffle the examples before splitting.
        seed (int): Seed of the permutation; ``None`` for a random one.
        max_buf_len (int): Largest broadcast chunk in bytes.
        force_equal_length (bool): If ``True``, every rank gets the same
            number of examples (some may be shared by two ranks, as the
            multi-node evaluator and updaters expect); if ``False``, the
            parts do not overlap and their lengths differ by at most one.

    Returns:
        ~chainer.datasets.SubDataset: This rank's part.
    """
    assert 0 <= root < comm.size
    order = None
    if shuffle and dataset is not None:
        order = numpy.random.RandomState(seed).permutation(len(dataset))
    data = (dataset, order) if comm.rank == root else None
    dataset, order = comm.bcast_obj(data, max_buf_len=max_buf_len, root=root)
    begin, end = scatter_index(len(dataset), comm, root,
                               force_equal_length=force_equal_length)
    return chainer.datasets.SubDataset(dataset, begin, end, order)


def scatter_index(n_total_samples, comm, root=0, *, force_equal_length=True):
    """Gives each rank its range of indexes, without moving the data.

    Args:
        n_total_samples (int): Number of examples to split.
        comm: ChainerMN communicator.
        root (int): The rank that computes the split.
        force_equal_length (bool): See :func:`scatter_dataset`.

    Returns:
        tuple: ``(begin, end)`` of this rank, ``end`` excluded.
    """
    if comm.rank != root:
        return comm.recv_obj(source=root)
    for rank, begin, end in _scatter_index(n_total_samples, comm.size,
                                           force_equal_length):
        if rank == root:
            mine = (begin, end)
        else:
            comm.send_obj((begin, end), dest=rank)
    return mine


def _scatter_index(n_total_samples, size, force_equal_length):
    """Yields ``(rank, begin, end)`` for every rank."""
    assert size > 0
    assert n_total_samples >= 0
    if force_equal_length:
        length = -(-n_total_samples // size)
        for rank in range(size):
            begin = n_total_samples * rank // size
            yield rank, begin, begin + length
        return
    quotient, remainder = divmod(n_total_samples, size)
    begin = 0
    for rank in range(size):
        end = begin + quotient + (1 if rank < remainder else 0)
        yield rank, begin, end
        begin = end


def get_n_iterations_for_one_epoch(dataset, local_batch_size, comm):
    """Number of iterations of one epoch (deprecated: use epoch triggers).

    Args:
        dataset: This rank's dataset.
        local_batch_size (int): How many examples each rank takes per
            batch.
        comm: ChainerMN communicator.
    """
    warnings.warn('get_n_iterations_for_one_epoch is deprecated. Please use '
                  'standard epoch triggers.', DeprecationWarning)
    n_iterations = None
    if comm.rank == 0:
        n_iterations = -(-len(dataset) // local_batch_size)
    return comm.bcast_obj(n_iterations)


def get_epoch_trigger(n_epochs, dataset, local_batch_size, comm):
    """An iteration trigger lasting ``n_epochs`` (deprecated).

    Returns:
        tuple: ``(n_iterations, 'iteration')``.
    """
    warnings.warn('get_epoch_trigger is deprecated. Please use standard '
                  'epoch triggers.', DeprecationWarning)
    n_iterations = n_epochs * get_n_iterations_for_one_epoch(
        dataset, local_batch_size, comm)
    return n_iterations, 'iteration'
