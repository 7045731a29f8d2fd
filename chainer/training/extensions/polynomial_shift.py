"""An extension that shifts an optimizer attribute polynomially."""

from chainer.training.extensions import _shift


class PolynomialShift(_shift._AttributeShift):
    """Trainer extension that decays an optimizer attribute polynomially.

    At its ``t``-th call the attribute becomes
    ``init * max(1 - t / max_count, 0) ** rate``, stopped at ``target`` if
    given. The initial value is set before training.

    Args:
        attr (str): The attribute name.
        rate (float): The exponent.
        max_count (int): The number of calls after which the value is 0.
        init (float): The initial value; read from the optimizer if
            ``None``.
        target (float): The value where the shift stops.
        optimizer (~chainer.Optimizer): The optimizer; the updater's
            ``'main'`` one by default.
    """

    invoke_before_training = True

    def __init__(self, attr, rate, max_count, init=None, target=None,
                 optimizer=None):
        super().__init__(attr, init, optimizer)
        self._rate = rate
        self._max_count = max_count
        self._target = target

    def _compute_value(self, t):
        decay = max(1 - t / self._max_count, 0)
        value = self._init * decay ** self._rate
        if self._target is None:
            return value
        if self._rate > 0:
            return max(value, self._target)
        return min(value, self._target)
