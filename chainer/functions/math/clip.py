"""Element-wise clipping to an interval."""

from chainer import backend
from chainer.backends import cuda
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class Clip(function_node.FunctionNode):

    """Clips (limits) the elements of the input to ``[x_min, x_max]``."""

    is_elementwise = True

    def __init__(self, x_min, x_max):
        if x_min is None and x_max is None:
            raise ValueError('must set either max or min')
        if x_min is not None and x_max is not None and x_min >= x_max:
            raise ValueError('x_min must be less than x_max.')
        self.x_min = x_min
        self.x_max = x_max

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(
            xp.clip(x, self.x_min, self.x_max), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return ClipGrad(x.array, self.x_min, self.x_max).apply(grad_outputs)


class ClipGrad(function_node.FunctionNode):

    """Gradient of :class:`Clip`: ``gy`` where ``x_min <= x <= x_max``,
    zero elsewhere."""

    is_elementwise = True

    def __init__(self, x, x_min, x_max):
        if x_min is None and x_max is None:
            raise ValueError('must set either max or min')
        if x_min is None:
            self.cond = x <= x_max
        elif x_max is None:
            self.cond = x_min <= x
        else:
            self.cond = (x_min <= x) & (x <= x_max)

    check_type_forward = type_check._argument_check(('gy',), True)

    def forward_cpu(self, inputs):
        gy, = inputs
        return utils.force_array(gy * self.cond, gy.dtype),

    def forward_gpu(self, inputs):
        return cuda.elementwise(
            'T gy, bool cond', 'T gx', 'gx = cond ? gy : (T)0',
            'chainer_clip_grad',
        )(inputs[0], self.cond),

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * self.cond,


def clip(x, x_min, x_max):
    """Clips (limits) the elements of the input to an interval.

    Given the interval ``[x_min, x_max]``, elements outside it are set to
    its edges. One of the bounds may be ``None``, for no bound on that
    side. The gradient is one inside the interval, edges included, and
    zero outside.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.
        x_min (float): Lower bound, or ``None``.
        x_max (float): Upper bound, or ``None``.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.

    Raises:
        ValueError: If both bounds are ``None``, or ``x_min >= x_max``.

    .. admonition:: Example

        >>> x = np.array([-2., 0.5, 3.], np.float32)
        >>> F.clip(x, -1., 1.).array
        array([-1. ,  0.5,  1. ], dtype=float32)

    """
    return Clip(x_min, x_max).apply((x,))[0]
