import chainer
from chainer import function_node
from chainer.utils import type_check


class Space2Depth(function_node.FunctionNode):

    """Moves spatial blocks into blocks of channels."""

    def __init__(self, r):
        self.r = r

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)
        r = type_check.make_variable(self.r, 'r')
        type_check.expect(x_type.shape[2] % r == 0, x_type.shape[3] % r == 0)

    def forward(self, inputs):
        x, = inputs
        r = self.r
        n, c, h, w = x.shape
        h //= r
        w //= r
        # The pixel at offset (i, j) of each r x r block goes to channel
        # group i * r + j.
        y = x.reshape(n, c, h, r, w, r).transpose(0, 3, 5, 1, 2, 4)
        return y.reshape(n, r * r * c, h, w),

    def backward(self, indexes, grad_outputs):
        return chainer.functions.depth2space(grad_outputs[0], self.r),


def space2depth(X, r):
    """Moves spatial blocks into blocks of channels.

    The pixels at offset ``(i, j)`` of the ``r x r`` blocks of the input
    become the channel group ``i * r + j`` of the output. It is the inverse
    of :func:`~chainer.functions.depth2space`.

    Args:
        X (:class:`~chainer.Variable` or :ref:`ndarray`): Float feature maps,
            ``(n, c, h * r, w * r)``.
        r (int): The size of the spatial blocks.

    Returns:
        ~chainer.Variable: The rearranged maps, ``(n, c * r * r, h, w)``.

    .. admonition:: Example

        >>> X = np.arange(8, dtype=np.float32).reshape(1, 1, 2, 4)
        >>> F.space2depth(X, 2).array
        array([[[[0., 2.]],
        <BLANKLINE>
                [[1., 3.]],
        <BLANKLINE>
                [[4., 6.]],
        <BLANKLINE>
                [[5., 7.]]]], dtype=float32)

    """
    return Space2Depth(r).apply((X,))[0]
