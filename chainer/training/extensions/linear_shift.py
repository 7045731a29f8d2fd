"""An extension that shifts an optimizer attribute linearly."""

from chainer.training.extensions import _shift


class LinearShift(_shift._AttributeShift):
    """Trainer extension interpolating an optimizer attribute over time.

    With ``value_range == (v1, v2)`` and ``time_range == (t1, t2)``, the
    attribute is ``v1`` up to the ``t1``-th call, moves linearly to ``v2``
    at the ``t2``-th call and stays there. The value for ``t = 0`` is set
    before training.

    Args:
        attr (str): The attribute name, e.g. ``'momentum'``.
        value_range (tuple of float): The first and the last values.
        time_range (tuple of int): The first and the last call counts of
            the change.
        optimizer (~chainer.Optimizer): The optimizer; the updater's
            ``'main'`` one by default.
    """

    def __init__(self, attr, value_range, time_range, optimizer=None):
        super().__init__(attr, None, optimizer)
        self._value_range = value_range
        self._time_range = time_range

    def initialize(self, trainer):
        if self._last_value is None:
            value = self._compute_value(self._t)
        else:
            value = self._last_value
        self._update_value(self._get_optimizer(trainer), value)

    def _compute_value(self, t):
        t1, t2 = self._time_range
        v1, v2 = self._value_range
        if t <= t1:
            return v1
        if t >= t2:
            return v2
        rate = (t - t1) / (t2 - t1)
        return v1 + rate * (v2 - v1)
