"""Element-wise minimum of two variables."""

from chainer import backend
from chainer import function_node
from chainer.functions.math import maximum as maximum_module
from chainer import utils


class Minimum(function_node.FunctionNode):

    """Elementwise smaller of two arrays."""

    def check_type_forward(self, in_types):
        maximum_module._check_pair(in_types)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x1, x2 = inputs
        xp = backend.get_array_module(x1, x2)
        return utils.force_array(xp.minimum(x1, x2)),

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        return MinimumGrad(x1.array, x2.array).apply(grad_outputs)


class MinimumGrad(maximum_module._ChoiceGrad):

    """Gradient of :class:`Minimum`: ``gy`` goes to ``x1`` where
    ``x1 <= x2`` and to ``x2`` elsewhere."""

    def __init__(self, x1, x2):
        self.cond = utils.force_array(x1 <= x2)
        self.x1_shape = x1.shape
        self.x2_shape = x2.shape


def minimum(x1, x2):
    """Takes the smaller of two arrays, element by element.

    The inputs broadcast against each other. Where they are equal, the
    gradient goes to ``x1``.

    Args:
        x1 (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable
            of a float dtype.
        x2 (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable
            of the dtype of ``x1``.

    Returns:
        ~chainer.Variable: Output variable.

    .. admonition:: Example

        >>> x1 = np.array([0., 1., 2., 3.], np.float32)
        >>> x2 = np.array([3., 2., 1., 0.], np.float32)
        >>> F.minimum(x1, x2).array
        array([0., 1., 1., 0.], dtype=float32)

    """
    return Minimum().apply((x1, x2))[0]
