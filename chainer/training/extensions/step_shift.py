"""An extension that shifts an optimizer attribute in steps."""

import numpy

from chainer.training.extensions import _shift


class StepShift(_shift._AttributeShift):
    """Trainer extension that multiplies an optimizer attribute every
    ``step`` calls.

    At its ``t``-th call the attribute becomes
    ``init * gamma ** floor(t / step)``, stopped at ``target`` if given.
    The initial value is set before training.

    Args:
        attr (str): The attribute name.
        gamma (float): The factor per step.
        step (int): The number of calls per step.
        init (float): The initial value; read from the optimizer if
            ``None``.
        target (float): The value where the shift stops.
        optimizer (~chainer.Optimizer): The optimizer; the updater's
            ``'main'`` one by default.
    """

    def __init__(self, attr, gamma, step, init=None, target=None,
                 optimizer=None):
        super().__init__(attr, init, optimizer)
        self._gamma = gamma
        self._step = step
        self._target = target

    def _compute_value(self, t):
        value = self._init * self._gamma ** numpy.floor(t / self._step)
        return _shift._clamp(value, self._target, self._gamma > 1)
