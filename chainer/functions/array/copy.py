import chainer
from chainer import backend
from chainer.backends import cuda
from chainer import function_node
from chainer.utils import type_check


class Copy(function_node.FunctionNode):

    """Copies the input array onto a given device."""

    def __init__(self, in_device, out_device):
        self._in_device = in_device
        self.out_device = out_device

    check_type_forward = type_check._argument_check(('x',))

    def forward(self, inputs):
        return self.out_device.send(inputs[0]),

    def backward(self, indexes, grad_outputs):
        return Copy(self.out_device, self._in_device).apply(grad_outputs)


def copy(x, dst):
    """Copies the input variable onto a given device.

    When ``x`` already resides on the device, no copy is made and the output
    holds the input array itself. Otherwise the array is copied, from host
    to host, host to device, device to device or device to host. The
    gradient is copied back to the device of ``x``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): What is copied.
        dst: The target device specifier, as accepted by
            :func:`chainer.get_device` (``'@numpy'``, ``'@cupy:0'``, ...),
            or a device ID (``-1`` for the host).

    Returns:
        ~chainer.Variable: Output variable.

    .. admonition:: Example

        >>> x = chainer.Variable(np.zeros((2, 3), np.float32))
        >>> F.copy(x, '@numpy').device
        <CpuDevice (numpy)>

    """
    if dst is cuda.DummyDevice:
        dst = '@numpy'
    array = x.array if isinstance(x, chainer.Variable) else x
    in_device = backend.get_device_from_array(array)
    out_device = chainer.get_device(dst)
    y, = Copy(in_device, out_device).apply((x,))
    return y
