"""The dummy communicator: packs and unpacks gradients, sends nothing."""

from chainermn.communicators import _memory_utility
from chainermn.communicators import flat_communicator


class DummyCommunicator(flat_communicator.FlatCommunicator):
    """Measures the cost of packing without any communication.

    :meth:`multi_node_mean_grad` leaves the gradients as they were (after a
    round trip through the float32 buffer), so training with it is not
    data-parallel.
    """

    def multi_node_mean_grad(self, model, zero_fill=False):
        params = _memory_utility.extract_params_set_grad(
            model, zero_fill)
        self._mean_packed(params, communicate=False)
