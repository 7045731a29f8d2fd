"""The common machinery of the extensions that shift an optimizer
attribute."""

import numpy

from chainer.training import extension


class _AttributeShift(extension.Extension):
    """Sets ``optimizer.<attr>`` to ``_compute_value(t)`` at its ``t``-th
    call.

    Before training it sets the attribute to its initial value (read from
    the optimizer if ``init`` is ``None``), or, after resuming, to the last
    value set before the snapshot.
    """

    def __init__(self, attr, init, optimizer):
        self._attr = attr
        self._init = init
        self._optimizer = optimizer
        self._t = 0
        self._last_value = None

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        if self._init is None:
            self._init = getattr(optimizer, self._attr)
        if self._last_value is None:
            self._update_value(optimizer, self._init)
        else:
            self._update_value(optimizer, self._last_value)

    def __call__(self, trainer):
        self._t += 1
        self._update_value(
            self._get_optimizer(trainer), self._compute_value(self._t))

    def _compute_value(self, t):
        raise NotImplementedError

    def serialize(self, serializer):
        """Saves or loads the call count and the last value set."""
        self._t = serializer('_t', self._t)
        self._last_value = serializer('_last_value', self._last_value)
        if isinstance(self._last_value, numpy.ndarray):
            self._last_value = self._last_value.item()

    def _get_optimizer(self, trainer):
        return self._optimizer or trainer.updater.get_optimizer('main')

    def _update_value(self, optimizer, value):
        setattr(optimizer, self._attr, value)
        self._last_value = value


def _clamp(value, target, increasing):
    """Returns ``value`` stopped at ``target`` (``None``: no bound) in the
    direction of the shift."""
    if target is None:
        return value
    if increasing:
        return target if value / target > 1 else value
    return target if value / target < 1 else value
