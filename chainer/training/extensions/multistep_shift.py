"""An extension that shifts an optimizer attribute at given steps."""

from chainer.training import extension


class MultistepShift(extension.Extension):
    """Trainer extension that multiplies an optimizer attribute at given
    call counts.

    With ``step_value == [s1, s2, ...]`` the attribute is ``init`` before
    the ``s1``-th call, ``init * gamma`` from it until the ``s2``-th call,
    ``init * gamma ** 2`` after, and so on. ``init`` is set before
    training.

    Args:
        attr (str): The attribute name.
        gamma (float): The factor at each step.
        step_value (tuple of int): The call counts where the steps happen,
            in increasing order.
        init (float): The initial value; read from the optimizer if
            ``None``.
        optimizer (~chainer.Optimizer): The optimizer; the updater's
            ``'main'`` one by default.
    """

    def __init__(self, attr, gamma, step_value, init, optimizer=None):
        self._attr = attr
        self._gamma = gamma
        self._step_value = step_value
        self._init = init
        self._optimizer = optimizer
        self._stepvalue_size = len(step_value)
        self._current_step = 0
        self._t = 0

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        if self._init is None:
            self._init = getattr(optimizer, self._attr)
        else:
            setattr(optimizer, self._attr, self._init)

    def __call__(self, trainer):
        self._t += 1
        if (self._current_step < self._stepvalue_size and
                self._t >= self._step_value[self._current_step]):
            self._current_step += 1
        setattr(self._get_optimizer(trainer), self._attr,
                self._init * pow(self._gamma, self._current_step))

    def serialize(self, serializer):
        """Saves or loads the call count and the current step."""
        self._t = serializer('_t', self._t)
        self._current_step = serializer('_current_step', self._current_step)

    def _get_optimizer(self, trainer):
        return self._optimizer or trainer.updater.get_optimizer('main')
