"""Element-wise maximum of two variables."""

import operator

import numpy

from chainer import backend
from chainer.backends import cuda
from chainer import function_node
from chainer.functions.array import where as where_module
from chainer import utils
from chainer.utils import type_check


class _ChoiceGrad(function_node.FunctionNode):

    # Routes the output gradient to the first input where ``_x1_wins(x1,
    # x2)`` holds and to the second elsewhere, summed back to the input
    # shapes.

    _x1_wins = None

    def __init__(self, x1, x2):
        self.cond = utils.force_array(self._x1_wins(x1, x2))
        self.x1_shape = x1.shape
        self.x2_shape = x2.shape

    def forward_cpu(self, inputs):
        gy, = inputs
        zero = gy.dtype.type(0)
        gx1 = utils.force_array(numpy.where(self.cond, gy, zero))
        gx2 = utils.force_array(numpy.where(self.cond, zero, gy))
        return (utils.sum_to(gx1, self.x1_shape),
                utils.sum_to(gx2, self.x2_shape))

    def forward_gpu(self, inputs):
        gy, = inputs
        gx1, gx2 = cuda.elementwise(
            'bool cond, T gy', 'T gx1, T gx2',
            '''
            gx1 = cond ? gy : (T)0;
            gx2 = cond ? (T)0 : gy;
            ''',
            'chainer_choice_grad',
        )(self.cond, gy)
        return (utils.sum_to(gx1, self.x1_shape),
                utils.sum_to(gx2, self.x2_shape))

    def backward(self, indexes, grad_outputs):
        ggx1, ggx2 = grad_outputs
        if ggx1 is None or ggx2 is None:
            given = ggx2 if ggx1 is None else ggx1
            xp = backend.get_array_module(given.array)
            zero = xp.zeros((), given.dtype)
            if ggx1 is None:
                ggx1 = zero
            else:
                ggx2 = zero
        return where_module.where(self.cond, ggx1, ggx2),


class _Choice(function_node.FunctionNode):

    # The elementwise choice ``xp.<_ufunc_name>(x1, x2)`` between two float
    # arrays of one dtype that broadcast together; ``_grad`` is the
    # _ChoiceGrad subclass that routes its gradient.

    _ufunc_name = None
    _grad = None

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x1', 'x2'))
        x1_type, x2_type = in_types
        type_check.expect(
            x1_type.dtype.kind == 'f',
            x1_type.dtype == x2_type.dtype,
        )
        type_check.expect_broadcast_shapes(x1_type.shape, x2_type.shape)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x1, x2 = inputs
        xp = backend.get_array_module(x1, x2)
        return utils.force_array(getattr(xp, self._ufunc_name)(x1, x2)),

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        return self._grad(x1.array, x2.array).apply(grad_outputs)


class MaximumGrad(_ChoiceGrad):

    """Gradient of :class:`Maximum`: ``gy`` goes to ``x1`` where
    ``x1 >= x2`` and to ``x2`` elsewhere."""

    _x1_wins = staticmethod(operator.ge)


class Maximum(_Choice):

    """Elementwise larger of two arrays."""

    _ufunc_name = 'maximum'
    _grad = MaximumGrad


def maximum(x1, x2):
    """Takes the larger of two arrays, element by element.

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
        >>> F.maximum(x1, x2).array
        array([3., 2., 2., 3.], dtype=float32)

    """
    return Maximum().apply((x1, x2))[0]
