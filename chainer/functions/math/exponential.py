"""Element-wise exponential and logarithms: ``exp``, ``log``, ``log2``,
``log10``."""

import math

from chainer import backend
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


_INV_LN2 = 1.0 / math.log(2.0)
_INV_LN10 = 1.0 / math.log(10.0)


class Exp(function_node.FunctionNode):

    """Element-wise exponential, ``exp(x)``; its derivative is ``y``."""

    is_elementwise = True

    @property
    def label(self):
        return 'exp'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.exp(x)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return y * grad_outputs[0],


def exp(x):
    """Element-wise exponential function, :math:`y_i = e^{x_i}`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.

    .. admonition:: Example

        >>> F.exp(np.array([0., 1., 2.])).array
        array([1.        , 2.71828183, 7.3890561 ])

    """
    return Exp().apply((x,))[0]


class Log(function_node.FunctionNode):

    """Element-wise natural logarithm; its derivative is ``1 / x``."""

    is_elementwise = True

    @property
    def label(self):
        return 'log'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.log(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / x,


def log(x):
    """Element-wise natural logarithm, :math:`y_i = \\ln x_i`.

    Non-positive inputs give ``nan`` or ``-inf`` as in NumPy.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Log().apply((x,))[0]


class Log2(function_node.FunctionNode):

    """Element-wise base-2 logarithm; its derivative is
    ``1 / (x ln 2)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'log2'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.log2(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / x * _INV_LN2,


def log2(x):
    """Element-wise logarithm to the base 2, :math:`y_i = \\log_2 x_i`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Log2().apply((x,))[0]


class Log10(function_node.FunctionNode):

    """Element-wise base-10 logarithm; its derivative is
    ``1 / (x ln 10)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'log10'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.log10(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / x * _INV_LN10,


def log10(x):
    """Element-wise logarithm to the base 10, :math:`y_i = \\log_{10} x_i`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Log10().apply((x,))[0]
