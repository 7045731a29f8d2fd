"""Element-wise square root and its reciprocal."""

import numpy

from chainer import backend
from chainer.backends import cuda
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class Sqrt(function_node.FunctionNode):

    """Element-wise square root; its derivative is ``1 / (2 y)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'sqrt'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.sqrt(x)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] / (y * 2.0),


class RsqrtGPU(function_node.FunctionNode):

    """Element-wise ``1 / sqrt(x)`` on CuPy arrays, in one kernel.

    Its derivative is ``-y ** 3 / 2``.
    """

    is_elementwise = True

    @property
    def label(self):
        return 'rsqrt'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_gpu(self, inputs):
        self.retain_outputs((0,))
        x, = inputs
        return cuda.cupyx.rsqrt(x, dtype=x.dtype),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * (y ** 3) * -0.5,


def sqrt(x):
    """Element-wise square root, :math:`y_i = \\sqrt{x_i}`.

    Negative inputs give ``nan``, as in NumPy and CuPy.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Sqrt().apply((x,))[0]


def rsqrt(x):
    """Element-wise reciprocal of the square root,
    :math:`y_i = 1 / \\sqrt{x_i}`.

    On the CPU it is computed as ``1.0 / sqrt(x)``; on the GPU by one
    kernel (:class:`RsqrtGPU`).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.

    .. seealso:: :func:`~chainer.functions.sqrt`
    """
    if backend.get_array_module(x) is numpy:
        return 1.0 / sqrt(x)
    return RsqrtGPU().apply((x,))[0]
