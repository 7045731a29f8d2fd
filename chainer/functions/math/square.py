"""Element-wise square."""

from chainer import backend
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class Square(function_node.FunctionNode):

    """Element-wise square, ``x ** 2``; its derivative is ``2 x``."""

    is_elementwise = True

    @property
    def label(self):
        return 'square'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.square(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * 2.0 * x,


def square(x):
    """Element-wise square function, :math:`y_i = x_i ^ 2`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype and any shape.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([[-1., 0., 1.5], [2., 3., 4.]], np.float32)
        >>> F.square(x).array
        array([[ 1.  ,  0.  ,  2.25],
               [ 4.  ,  9.  , 16.  ]], dtype=float32)

    """
    return Square().apply((x,))[0]
