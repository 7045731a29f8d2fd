"""An extension that shifts an optimizer attribute exponentially."""

from chainer.training.extensions import _shift


class ExponentialShift(_shift._AttributeShift):
    """Trainer extension that multiplies an optimizer attribute by a rate.

    At its ``t``-th call the attribute becomes ``init * rate ** t``,
    stopped at ``target`` if given; it is mostly used to decay a learning
    rate geometrically. The initial value is set before training.

    Args:
        attr (str): The attribute name, e.g. ``'lr'``.
        rate (float): The factor per call; must not be negative.
        init (float): The initial value; read from the optimizer if
            ``None``.
        target (float): The value where the shift stops.
        optimizer (~chainer.Optimizer): The optimizer; the updater's
            ``'main'`` one by default.
    """

    def __init__(self, attr, rate, init=None, target=None, optimizer=None):
        if rate < 0:
            raise ValueError('ExponentialShift does not support negative rate')
        super().__init__(attr, init, optimizer)
        self._rate = rate
        self._target = target

    def _compute_value(self, t):
        return _shift._clamp(
            self._init * (self._rate ** t), self._target, self._rate > 1)
