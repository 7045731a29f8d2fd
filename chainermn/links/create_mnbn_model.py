import copy

import chainer

from chainermn.links.batch_normalization import MultiNodeBatchNormalization


def create_mnbn_model(link, comm, communication_backend='auto'):
    """Returns a copy of ``link`` with multi-node batch normalizations.

    Every :class:`chainer.links.BatchNormalization` inside ``link``
    (through :class:`~chainer.Chain`, :class:`~chainer.ChainList` and
    :class:`~chainer.Sequential`) is replaced by a
    :class:`~chainermn.links.MultiNodeBatchNormalization` with the same
    parameters and statistics; everything else is deep-copied.

    Args:
        link (~chainer.Link): The model.
        comm: ChainerMN communicator.
        communication_backend (str): ``'mpi'``, ``'nccl'`` or ``'auto'``.

    Returns:
        ~chainer.Link: The new model.
    """
    if isinstance(link, chainer.links.BatchNormalization):
        mnbn = MultiNodeBatchNormalization(
            size=link.avg_mean.shape, comm=comm, decay=link.decay,
            eps=link.eps, dtype=link.avg_mean.dtype,
            use_gamma=hasattr(link, 'gamma'), use_beta=hasattr(link, 'beta'),
            communication_backend=communication_backend)
        mnbn.copyparams(link)
        for name in link._persistent:
            mnbn.__dict__[name] = copy.deepcopy(link.__dict__[name])
        return mnbn
    if isinstance(link, chainer.Chain):
        new_children = [
            (name, create_mnbn_model(link.__dict__[name], comm,
                                     communication_backend))
            for name in link._children]
        new_link = copy.deepcopy(link)
        for name, child in new_children:
            new_link.__dict__[name] = child
        return new_link
    if isinstance(link, chainer.Sequential):
        new_link = copy.deepcopy(link)
        for i, child in enumerate(link):
            new_link[i] = create_mnbn_model(child, comm,
                                            communication_backend)
        return new_link
    if isinstance(link, chainer.ChainList):
        new_children = [create_mnbn_model(child, comm, communication_backend)
                        for child in link]
        new_link = copy.deepcopy(link)
        for i, child in enumerate(new_children):
            new_link._children[i] = child
        return new_link
    return copy.deepcopy(link)
