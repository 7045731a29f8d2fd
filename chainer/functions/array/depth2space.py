import chainer
from chainer import function_node
from chainer.utils import type_check


class Depth2Space(function_node.FunctionNode):

    """Moves blocks of channels into spatial blocks."""

    def __init__(self, r):
        self.r = r

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)
        block = type_check.make_variable(self.r ** 2, 'r ** 2')
        type_check.expect(x_type.shape[1] % block == 0)

    def forward(self, inputs):
        x, = inputs
        r = self.r
        n, c, h, w = x.shape
        c //= r * r
        # Channel (i * r + j) * c + k goes to channel k, offset (i, j) in
        # each r x r spatial block.
        y = x.reshape(n, r, r, c, h, w).transpose(0, 3, 4, 1, 5, 2)
        return y.reshape(n, c, h * r, w * r),

    def backward(self, indexes, grad_outputs):
        return chainer.functions.space2depth(grad_outputs[0], self.r),


def depth2space(X, r):
    """Moves blocks of channels into spatial blocks.

    The channels of the input are read as ``r * r`` groups: group
    ``i * r + j`` fills the pixels at offset ``(i, j)`` of the ``r x r``
    blocks of the output. It is the inverse of
    :func:`~chainer.functions.space2depth`, used for sub-pixel
    convolution (`Shi et al. <https://arxiv.org/abs/1609.05158>`_).

    Args:
        X (:class:`~chainer.Variable` or :ref:`ndarray`): Float feature maps,
            ``(n, c * r * r, h, w)``.
        r (int): The size of the spatial blocks.

    Returns:
        ~chainer.Variable: The rearranged maps, ``(n, c, h * r, w * r)``.

    .. admonition:: Example

        >>> X = np.arange(8, dtype=np.float32).reshape(1, 4, 1, 2)
        >>> F.depth2space(X, 2).array
        array([[[[0., 2., 1., 3.],
                 [4., 6., 5., 7.]]]], dtype=float32)

    """
    return Depth2Space(r).apply((X,))[0]
