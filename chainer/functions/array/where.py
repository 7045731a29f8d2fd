import numpy

import chainer
from chainer import backend
from chainer.functions.math import sum as sum_module
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class Where(function_node.FunctionNode):

    """Chooses elements from two arrays by a boolean condition."""

    def __init__(self, condition):
        self.condition = utils.force_array(condition)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'y'))
        x_type, y_type = in_types
        condition = self.condition
        if not type_check.in_light_mode():
            condition = type_check._make_variable_from_array(
                condition, 'condition')
        elif not type_check._is_array(condition):
            raise type_check.InvalidType('', '')
        type_check.expect(
            condition.dtype == numpy.bool_,
            x_type.dtype == y_type.dtype,
        )
        type_check.expect_broadcast_shapes(
            condition.shape, x_type.shape, y_type.shape)

    def forward(self, inputs):
        x, y = inputs
        xp = backend.get_array_module(x, y)
        return xp.where(self.condition, x, y),

    def backward(self, indexes, grad_outputs):
        gz, = grad_outputs
        xp = backend.get_array_module(self.condition)
        zero = xp.zeros((), gz.dtype)
        ret = []
        for i in indexes:
            operands = (gz, zero) if i == 0 else (zero, gz)
            g, = Where(self.condition).apply(operands)
            ret.append(sum_module.sum_to(g, self.inputs[i].shape))
        return ret


def where(condition, x, y):
    """Chooses elements from two variables by a boolean condition.

    Args:
        condition (:ref:`ndarray` or :class:`~chainer.Variable` of bool):
            Where it is ``True`` the output takes the element of ``x``,
            elsewhere that of ``y``. It is not differentiated.
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Variable chosen
            where ``condition`` holds.
        y (:class:`~chainer.Variable` or :ref:`ndarray`): Variable chosen
            elsewhere; it must have the dtype of ``x``.

    ``condition``, ``x`` and ``y`` are broadcast together.

    Returns:
        ~chainer.Variable: The variable of chosen elements.

    .. admonition:: Example

        >>> cond = np.array([[True, False], [False, True]])
        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> y = np.zeros((2, 2), np.float32)
        >>> F.where(cond, x, y).array
        array([[1., 0.],
               [0., 4.]], dtype=float32)

    """
    if isinstance(condition, chainer.Variable):
        condition = condition.array
    z, = Where(condition).apply((x, y))
    return z
