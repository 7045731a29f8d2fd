from chainer import backend
from chainer.functions.array import broadcast
from chainer.functions.array import reshape
from chainer.functions.array import transpose
from chainer.functions.math import _reduction
from chainer.functions.math import cumprod
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


def _others_product(x, axis):
    # Product of all the other elements along ``axis``, with no division.
    return (cumprod._exclusive_cumprod(x, axis)
            * cumprod._exclusive_cumprod(x, axis, reverse=True))


class Prod(function_node.FunctionNode):

    """Multiplies the elements together along some axes."""

    def __init__(self, axis=None, keepdims=False):
        self.axis = _reduction.normalize_axis(axis)
        self.keepdims = keepdims

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        _reduction.check_axis(x_type, self.axis)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(
            xp.prod(x, axis=self.axis, keepdims=self.keepdims)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        ndim = x.ndim
        if ndim == 0:
            return gy,
        if not self.keepdims:
            gy = reshape.reshape(
                gy, _reduction.keepdims_shape(x.shape, self.axis))
        if self.axis is None:
            axes = tuple(range(ndim))
        else:
            axes = tuple(sorted(a % ndim for a in self.axis))

        if len(axes) == 1:
            others = _others_product(x, axes[0])
        else:
            # Gather the reduced axes into one last axis.
            kept = tuple(i for i in range(ndim) if i not in axes)
            perm = kept + axes
            xt = transpose.transpose(x, perm)
            n_kept = len(kept)
            flat = reshape.reshape(xt, xt.shape[:n_kept] + (
                int(utils.size_of_shape(xt.shape[n_kept:])),))
            others = reshape.reshape(
                _others_product(flat, n_kept), xt.shape)
            inverse = [0] * ndim
            for i, p in enumerate(perm):
                inverse[p] = i
            others = transpose.transpose(others, tuple(inverse))
        return broadcast.broadcast_to(gy, x.shape) * others,


def prod(x, axis=None, keepdims=False):
    """Multiplies the elements together along some axes.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): A float array.
        axis (None, int, or tuple of int): The axes to multiply over.
            ``None`` (default) multiplies all the elements.
        keepdims (bool): If ``True``, the reduced axes stay in the output
            as axes of length one.

    Returns:
        ~chainer.Variable: Output variable. Zeros in ``x`` are allowed: the
        gradient does not divide by ``x``.

    .. admonition:: Example

        >>> x = np.array([[1., 2., 3.], [4., 5., 6.]], np.float32)
        >>> F.prod(x, axis=1).array
        array([  6., 120.], dtype=float32)

    """
    y, = Prod(axis, keepdims).apply((x,))
    return y
