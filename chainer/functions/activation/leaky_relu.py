import numpy

from chainer.backends import cuda
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


def _scale_where(mask, x, factor):
    # ``x * factor`` where ``mask`` holds, ``x`` elsewhere: a multiplication
    # by a factor of either ``factor`` or one, much faster than
    # ``numpy.where`` or boolean indexing on unordered data. ``factor`` is a
    # scalar of x's dtype or an array broadcastable to ``x``.
    scale = numpy.multiply(mask, factor, dtype=x.dtype)
    scale += ~mask
    scale *= x
    return utils.force_array(scale, x.dtype)


def _kernel():
    return cuda.elementwise(
        'T cond, T x, T slope', 'T y',
        'y = cond <= 0 ? (T)(slope * x) : x', 'lrelu')


class LeakyReLU(function_node.FunctionNode):

    """Leaky rectified linear unit: ``x`` if ``x > 0``, else
    ``slope * x``."""

    is_elementwise = True

    def __init__(self, slope=0.2):
        self.slope = slope

    check_type_forward = type_check._argument_check(('x',), True)

    def _retain(self):
        # The sign of the output tells the branch unless the slope is
        # negative.
        if self.slope >= 0:
            self.retain_outputs((0,))
        else:
            self.retain_inputs((0,))

    def forward_cpu(self, inputs):
        x, = inputs
        self._retain()
        slope = x.dtype.type(self.slope)
        # The output is max(x, slope * x) for 0 < slope <= 1 and
        # min(x, slope * x) for slope > 1. Other slopes (zero included, for
        # which slope * -inf is nan) take the general way.
        if 0 < self.slope <= 1:
            y = numpy.empty_like(x)
            numpy.multiply(x, slope, out=y)
            return numpy.maximum(y, x, out=y),
        if self.slope > 1:
            y = numpy.empty_like(x)
            numpy.multiply(x, slope, out=y)
            return numpy.minimum(y, x, out=y),
        return _scale_where(x <= 0, x, slope),

    def forward_gpu(self, inputs):
        x, = inputs
        self._retain()
        return _kernel()(x, x, self.slope),

    def backward(self, indexes, grad_outputs):
        if self.slope >= 0:
            cond = self.output_data[0]
        else:
            cond = self.get_retained_inputs()[0].array
        return _LeakyReLUGrad(cond, self.slope).apply(grad_outputs)


class _LeakyReLUGrad(function_node.FunctionNode):

    is_elementwise = True

    def __init__(self, cond, slope):
        self.cond = cond
        self.slope = slope

    def forward_cpu(self, inputs):
        gy, = inputs
        return _scale_where(self.cond <= 0, gy, gy.dtype.type(self.slope)),

    def forward_gpu(self, inputs):
        return _kernel()(self.cond, inputs[0], self.slope),

    def backward(self, indexes, grad_outputs):
        return _LeakyReLUGrad(self.cond, self.slope).apply(grad_outputs)


def leaky_relu(x, slope=0.2):
    """Leaky rectified linear unit.

    .. math::
        f(x) = \\left \\{ \\begin{array}{ll}
        x  & {\\rm if}~ x > 0 \\\\
        ax & {\\rm if}~ x \\le 0,
        \\end{array} \\right.

    where :math:`a` is the slope.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype and any shape.
        slope (float): The slope :math:`a` of the negative part.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([[-1., 0.], [2., -3.]], np.float32)
        >>> F.leaky_relu(x, slope=0.2).array
        array([[-0.2,  0. ],
               [ 2. , -0.6]], dtype=float32)

    """
    y, = LeakyReLU(slope).apply((x,))
    return y
