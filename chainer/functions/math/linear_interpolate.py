"""Element-wise linear interpolation between two variables."""

from chainer.backends import cuda
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class LinearInterpolate(function_node.FunctionNode):

    """Element-wise ``p * x + (1 - p) * y``."""

    is_elementwise = True

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('p', 'x', 'y'))
        p_type, x_type, y_type = in_types
        type_check.expect(
            p_type.dtype.kind == 'f',
            x_type.dtype == p_type.dtype,
            y_type.dtype == p_type.dtype,
            p_type.shape == x_type.shape,
            p_type.shape == y_type.shape,
        )

    def forward_cpu(self, inputs):
        self.retain_inputs((0, 1, 2))
        p, x, y = inputs
        z = p * x
        z += (1 - p) * y
        return utils.force_array(z),

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1, 2))
        p, x, y = inputs
        return cuda.elementwise(
            'T p, T x, T y', 'T z', 'z = p * x + ((T)1 - p) * y',
            'chainer_linear_interpolate',
        )(p, x, y),

    def backward(self, indexes, grad_outputs):
        p, x, y = self.get_retained_inputs()
        return LinearInterpolateGrad().apply((p, x, y, grad_outputs[0]))


class LinearInterpolateGrad(function_node.FunctionNode):

    """Gradients of :class:`LinearInterpolate` from inputs
    ``(p, x, y, gz)``: ``(x - y) * gz``, ``p * gz`` and ``(1 - p) * gz``.
    """

    is_elementwise = True

    def forward_cpu(self, inputs):
        self.retain_inputs((0, 1, 2, 3))
        p, x, y, gz = inputs
        gx = utils.force_array(p * gz)
        gp = utils.force_array(x - y)
        gp *= gz
        return gp, gx, utils.force_array(gz - gx)

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1, 2, 3))
        p, x, y, gz = inputs
        return cuda.elementwise(
            'T p, T x, T y, T gz', 'T gp, T gx, T gy',
            '''
            gp = (x - y) * gz;
            gx = p * gz;
            gy = ((T)1 - p) * gz;
            ''',
            'chainer_linear_interpolate_grad',
        )(p, x, y, gz)

    def backward(self, indexes, grad_outputs):
        p, x, y, gz = self.get_retained_inputs()
        ggp, ggx, ggy = grad_outputs
        ret = []
        if 0 in indexes:
            if ggx is None:
                ret.append(None if ggy is None else -gz * ggy)
            else:
                ret.append(gz * (ggx if ggy is None else ggx - ggy))
        if 1 in indexes:
            ret.append(None if ggp is None else gz * ggp)
        if 2 in indexes:
            ret.append(None if ggp is None else -gz * ggp)
        if 3 in indexes:
            terms = []
            if ggp is not None:
                terms.append((x - y) * ggp)
            if ggx is not None:
                terms.append(p * ggx)
            if ggy is not None:
                terms.append((1 - p) * ggy)
            total = None
            for term in terms:
                total = term if total is None else total + term
            ret.append(total)
        return ret


def linear_interpolate(p, x, y):
    """Element-wise linear interpolation, :math:`f(p, x, y) = p x + (1 - p)
    y`.

    Args:
        p (:class:`~chainer.Variable` or :ref:`ndarray`): Weights of ``x``,
            of a float dtype.
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            the shape and dtype of ``p``.
        y (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            the shape and dtype of ``p``.

    Returns:
        ~chainer.Variable: Output variable.

    .. admonition:: Example

        >>> p = np.array([0., 0.25, 1.], np.float32)
        >>> x = np.full(3, 4., np.float32)
        >>> y = np.zeros(3, np.float32)
        >>> F.linear_interpolate(p, x, y).array
        array([0., 1., 4.], dtype=float32)

    """
    return LinearInterpolate().apply((p, x, y))[0]
