import chainer
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class Broadcast(function_node.FunctionNode):

    """Broadcasts the given arrays against each other."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check.expect_broadcast_shapes(*[t.shape for t in in_types])

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return tuple(xp.broadcast_arrays(*inputs))

    def backward(self, indexes, grad_outputs):
        return tuple(
            None if grad_outputs[i] is None else
            chainer.functions.sum_to(grad_outputs[i], self.inputs[i].shape)
            for i in indexes)


def broadcast(*args):
    """Broadcasts the given variables against each other.

    Args:
        *args (:class:`~chainer.Variable` or :ref:`ndarray`): Input
            variables, whose shapes must broadcast together.

    Returns:
        ~chainer.Variable or tuple of ~chainer.Variable: The input as a
        variable when one argument is given, otherwise a tuple of the
        broadcast variables.

    .. admonition:: Example

        >>> x = np.zeros((3, 2), np.float32)
        >>> z = np.zeros((2,), np.float32)
        >>> y, w = F.broadcast(x, z)
        >>> w.shape
        (3, 2)

    """
    if len(args) == 1:
        return chainer.as_variable(args[0])
    return Broadcast().apply(args)


class BroadcastTo(function_node.FunctionNode):

    """Broadcasts an array to a given shape."""

    def __init__(self, shape):
        self._shape = tuple(shape)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        ndim = type_check.make_variable(len(self._shape), 'len(shape)')
        type_check.expect(in_types[0].ndim <= ndim)
        shape = type_check.eval(in_types[0].shape)
        for i in range(-1, -len(shape) - 1, -1):
            if shape[i] == self._shape[i] or shape[i] == 1:
                continue
            expect = 'in_type[0].shape[%d] == %d' % (i, self._shape[i])
            if self._shape[i] != 1:
                expect += ' or in_type[0].shape[%d] == 1' % i
            actual = 'in_type[0].shape: %s' % str(shape)
            raise type_check.InvalidType(expect, actual)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.broadcast_to(x, self._shape),

    def backward(self, indexes, grad_outputs):
        return chainer.functions.sum_to(grad_outputs[0], self.inputs[0].shape),


def broadcast_to(x, shape):
    """Repeats the input along new or length-one axes to reach a shape.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        shape (tuple of int): The shape the result has.

    Returns:
        ~chainer.Variable: The result, shaped ``shape``. When ``x``
        already has that shape, it is returned as a variable without a new
        node.

    .. admonition:: Example

        >>> x = np.arange(0, 3)
        >>> F.broadcast_to(x, (3, 3)).array
        array([[0, 1, 2],
               [0, 1, 2],
               [0, 1, 2]])

    """
    if x.shape == shape:
        return chainer.as_variable(x)
    y, = BroadcastTo(shape).apply((x,))
    return y
