"""An extension that warms an optimizer attribute up linearly."""

from chainer.training import extension


class WarmupShift(extension.Extension):
    """Trainer extension that moves an optimizer attribute from a start
    value to its initial value over the first calls.

    At its ``t``-th call, for ``t <= warmup_iter``, the attribute becomes
    ``(t * init + (warmup_iter - t) * warmup_start) / warmup_iter``; it is
    left alone afterwards. ``warmup_start`` is set before training.

    Args:
        attr (str): The attribute name.
        warmup_start (float): The value at the start; read from the
            optimizer if ``None``.
        warmup_iter (int): The number of calls of the warm-up.
        init (float): The value reached at the end of the warm-up.
        optimizer (~chainer.Optimizer): The optimizer; the updater's
            ``'main'`` one by default.
    """

    def __init__(self, attr, warmup_start, warmup_iter, init,
                 optimizer=None):
        self._attr = attr
        self._warmup_start = warmup_start
        self._warmup_iter = warmup_iter
        self._init = init
        self._optimizer = optimizer
        self._t = 0

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        if self._warmup_start is None:
            self._warmup_start = getattr(optimizer, self._attr)
        else:
            setattr(optimizer, self._attr, self._warmup_start)

    def __call__(self, trainer):
        self._t += 1
        if self._t <= self._warmup_iter:
            value = (self._t * self._init +
                     (self._warmup_iter - self._t) * self._warmup_start) \
                / self._warmup_iter
            setattr(self._get_optimizer(trainer), self._attr, value)

    def serialize(self, serializer):
        """Saves or loads the call count."""
        self._t = serializer('_t', self._t)

    def _get_optimizer(self, trainer):
        return self._optimizer or trainer.updater.get_optimizer('main')
