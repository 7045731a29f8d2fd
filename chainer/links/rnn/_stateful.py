"""The state handling that the stateful recurrent links share.

:class:`~chainer.links.LSTM`, :class:`~chainer.links.StatefulZoneoutLSTM`,
:class:`~chainer.links.StatefulPeepholeLSTM`,
:class:`~chainer.links.StatefulGRU` and :class:`~chainer.links.StatefulMGU`
keep their recurrent state as Variable attributes (``c`` and ``h``, or
``h`` alone) that move with the link between devices, are replaced by
``set_state`` and are forgotten by ``reset_state``.
"""

import chainer
from chainer import variable


def zero_state(link_, batch, size, dtype):
    """A zero-filled ``(batch, size)`` state variable on the link's device."""
    with chainer.using_device(link_.device):
        return variable.Variable(link_.xp.zeros((batch, size), dtype=dtype))


class StateMixin:
    """Recurrent state of a link, held in the attributes named by
    ``_state_names``.

    Put it before :class:`~chainer.Link` (or its subclass) among the bases.
    """

    _state_names = ()

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        for name in self._state_names:
            state = getattr(self, name)
            if state is not None:
                visitor.visit_variable(state)

    def _set_states(self, *states):
        # Sends the given Variables to the link's device and stores them, in
        # the order of _state_names.
        for state in states:
            assert isinstance(state, variable.Variable)
        for state in states:
            state.to_device(self.device)
        for name, state in zip(self._state_names, states):
            setattr(self, name, state)

    def reset_state(self):
        """Forgets the state: sets each state variable to ``None``."""
        for name in self._state_names:
            setattr(self, name, None)
