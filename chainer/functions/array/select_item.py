import chainer
from chainer import backend
from chainer.functions.array import _index
from chainer import function_node
from chainer.utils import type_check


class SelectItem(function_node.FunctionNode):

    """Selects one element from each row of a matrix."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            t_type.dtype.kind == 'i',
            x_type.ndim == 2,
            t_type.ndim == 1,
        )
        type_check.expect(x_type.shape[0] == t_type.shape[0])

    def forward(self, inputs):
        self.retain_inputs((1,))
        x, t = inputs
        label = _index.first_out_of_range(t, x.shape[1])
        if label is not None:
            if chainer.is_debug():
                raise ValueError(
                    'Each label `t` need to satisfty `0 <= t < x.shape[1]`')
            raise IndexError(
                'label {} is out of bounds for axis 1 with size {}'.format(
                    label, x.shape[1]))
        xp = backend.get_array_module(x)
        return x[xp.arange(len(t)), t],

    def backward(self, indexes, grad_outputs):
        if 0 not in indexes:
            return None, None
        t, = self.get_retained_inputs()
        x = self.inputs[0]
        gx, = Assign(x.shape, x.dtype, t).apply(grad_outputs)
        return gx, None


class Assign(function_node.FunctionNode):

    """Gradient of :class:`SelectItem`: puts each row's value at its label.

    The other elements are zero.
    """

    def __init__(self, shape, dtype, t):
        self.shape = shape
        self.dtype = dtype
        self.t = t.array

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self.shape, self.dtype)
        gx[xp.arange(len(self.t)), self.t] = gy
        return gx,

    def backward(self, indexes, grad_outputs):
        return SelectItem().apply((grad_outputs[0], self.t))[:1]


def select_item(x, t):
    """Selects one element from each row of a matrix.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): A matrix of shape
            ``(B, N)``.
        t (:class:`~chainer.Variable` or :ref:`ndarray` of int): A vector
            of shape ``(B,)`` holding the column to take from each row,
            each in ``0 <= t[i] < N``.

    Returns:
        ~chainer.Variable: The vector ``y`` with ``y[i] = x[i, t[i]]``.

    Raises:
        IndexError: If a label is out of ``[0, N)`` (``ValueError`` in
            debug mode). A negative label is not read from the end.

    .. admonition:: Example

        >>> x = np.array([[0, 1, 2], [3, 4, 5]], np.float32)
        >>> t = np.array([0, 2], np.int32)
        >>> F.select_item(x, t).array
        array([0., 5.], dtype=float32)

    """
    return SelectItem().apply((x, t))[0]
