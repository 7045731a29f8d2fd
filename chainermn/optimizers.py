"""Optimizers that average gradients over the ranks before each update."""

import copy

import chainer


def _named_param_flags(target):
    return [(name, param.array is not None)
            for name, param in sorted(target.namedparams())]


class _MultiNodeOptimizer:
    """Wraps an optimizer: mean of the gradients, then its update."""

    def __init__(self, actual_optimizer, communicator, zero_fill):
        object.__setattr__(self, 'communicator', communicator)
        object.__setattr__(self, 'actual_optimizer', actual_optimizer)
        object.__setattr__(self, 'target_params', [])
        object.__setattr__(self, 'zero_fill', zero_fill)
        object.__setattr__(self, '_restored', False)

    def update(self, lossfun=None, *args, **kwds):
        """Computes the loss (if given), averages the gradients, updates.

        When the set of initialized parameters changed since the last call
        (the first call, or a lazily initialized link), rank 0's parameters
        are broadcast instead and no update happens, as Chainer does. A
        run resumed from a snapshot that every rank loaded goes on updating
        from its first step, as the uninterrupted run would.
        """
        target = self.target
        if lossfun is not None:
            use_cleargrads = getattr(self, '_use_cleargrads', True)
            loss = lossfun(*args, **kwds)
            if use_cleargrads:
                target.cleargrads()
            else:
                target.zerograds()
            loss.backward(loss_scale=self.actual_optimizer._loss_scale)
            del loss
        first_call = not self.target_params
        if self.is_changed(target):
            self.communicator.bcast_data(target)
            if not (first_call and self._all_ranks_restored()):
                return
        self.communicator.multi_node_mean_grad(target, self.zero_fill)
        self.actual_optimizer.update(None, *args, **kwds)

    def serialize(self, serializer):
        """Serializes the wrapped optimizer; records a load."""
        self.actual_optimizer.serialize(serializer)
        if isinstance(serializer, chainer.serializer.Deserializer):
            object.__setattr__(self, '_restored', True)

    def _all_ranks_restored(self):
        # Every rank takes part, so they agree on whether to update.
        restored = self.communicator.allreduce_obj(int(self._restored))
        object.__setattr__(self, '_restored', False)
        return restored == self.communicator.size

    def is_changed(self, target):
        """Records the initialized parameters; tells if they changed."""
        previous = self.target_params
        current = _named_param_flags(target)
        object.__setattr__(self, 'target_params', current)
        return previous != current

    def setup(self, link):
        self.actual_optimizer.setup(link)
        return self

    def __getattr__(self, attr_name):
        return getattr(self.actual_optimizer, attr_name)

    def __setattr__(self, attr_name, value):
        setattr(self.actual_optimizer, attr_name, value)


class _DoubleBufferingOptimizer(_MultiNodeOptimizer):
    """Updates with the gradients averaged during the previous step.

    The gradients of step ``t`` are averaged on a copy of the model while
    step ``t + 1`` computes its own, so the update of step ``t + 1`` uses
    the mean gradients of step ``t``.
    """

    def __init__(self, actual_optimizer, communicator, zero_fill):
        super().__init__(actual_optimizer, communicator, zero_fill)
        object.__setattr__(self, 'needs_update', False)
        object.__setattr__(self, 'communicated_target', None)

    def update(self, lossfun=None, *args, **kwds):
        target = self.target
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            target.cleargrads()
            loss.backward(loss_scale=self.actual_optimizer._loss_scale)
            del loss
        if self.is_changed(target):
            self.communicator.bcast_data(target)
            object.__setattr__(self, 'communicated_target',
                               copy.deepcopy(target))
            object.__setattr__(self, 'needs_update', False)
            return
        pairs = zip(sorted(target.namedparams()),
                    sorted(self.communicated_target.namedparams()))
        for (_, mine), (_, other) in pairs:
            mine.grad, other.grad = other.grad, mine.grad
        self.communicator.multi_node_mean_grad(self.communicated_target,
                                               self.zero_fill)
        if self.needs_update:
            self.actual_optimizer.update(None, *args, **kwds)
        else:
            object.__setattr__(self, 'needs_update', True)


def create_multi_node_optimizer(actual_optimizer, communicator,
                                double_buffering=False, zero_fill=True):
    """Makes an optimizer average the gradients over all ranks.

    Each :meth:`update` replaces the gradients by their mean over the
    ranks of ``communicator`` (``multi_node_mean_grad``) before the update
    of ``actual_optimizer``. The first update broadcasts rank 0's
    parameters instead, so every rank starts from the same model.

    Args:
        actual_optimizer (~chainer.Optimizer): The optimizer to wrap.
        communicator: ChainerMN communicator.
        double_buffering (bool): Overlap the mean of step ``t`` with step
            ``t + 1`` (updates then use gradients one step old). Only with
            the ``pure_nccl`` communicator, as Chainer does.
        zero_fill (bool): Average a missing gradient of an initialized
            parameter as zeros, so that every rank sends the same arrays.

    Returns:
        The wrapped optimizer; other attributes are those of
        ``actual_optimizer``.
    """
    if double_buffering:
        from chainermn.communicators.pure_nccl_communicator import \
            PureNcclCommunicator
        if not isinstance(communicator, PureNcclCommunicator):
            raise ValueError(
                'This communicator does not support double buffering.')
        return _DoubleBufferingOptimizer(actual_optimizer, communicator,
                                         zero_fill)
    return _MultiNodeOptimizer(actual_optimizer, communicator, zero_fill)


