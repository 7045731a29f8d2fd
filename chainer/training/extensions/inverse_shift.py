"""An extension that shifts an optimizer attribute by an inverse law."""

from chainer.training.extensions import _shift


class InverseShift(_shift._AttributeShift):
    """Trainer extension that decays an optimizer attribute inversely.

    At its ``t``-th call the attribute becomes
    ``init * (1 + gamma * t) ** (-power)`` (Caffe's ``inv`` policy),
    stopped at ``target`` if given. The initial value is set before
    training.

    Args:
        attr (str): The attribute name.
        gamma (float): The time scale; must not be negative.
        power (float): The exponent.
        init (float): The initial value; read from the optimizer if
            ``None``.
        target (float): The value where the shift stops.
        optimizer (~chainer.Optimizer): The optimizer; the updater's
            ``'main'`` one by default.
    """

    def __init__(self, attr, gamma, power,
                 init=None, target=None, optimizer=None):
        if gamma < 0:
            raise ValueError('InverseShift does not support negative gamma')
        super().__init__(attr, init, optimizer)
        self._gamma = gamma
        self._power = power
        self._target = target

    def _compute_value(self, t):
        value = self._init * (1 + self._gamma * t) ** (-self._power)
        return _shift._clamp(value, self._target, self._power < 0)
