"""Element-wise arithmetic behind the operators of :class:`Variable`.

Each operator of a variable maps to one function node here: ``x + y`` to
:class:`Add`, ``x + 1`` to :class:`AddConstant`, ``x ** y`` to
:class:`PowVarVar`, and so on. Operands of different shapes broadcast as in
NumPy, and the gradient of a broadcast operand is summed back to its shape.
Constant operands (Python and NumPy scalars, NumPy/CuPy arrays) are cast to
the dtype of the variable operand, with the results of NumPy 1 that
Chainer 7.8 gave: a Python integer out of an integer dtype's range wraps
around, and the constants derived from a NumPy scalar (``1 / value`` for
``x / value``, ``value - 1`` in the gradient of ``x ** value``) are computed
in at least float64 or int64 before the cast.
"""

import math
import operator

import numpy

import chainer
from chainer import _constant_operands
from chainer import _kernels
from chainer import backend
from chainer.backends import cuda
from chainer import function_node
from chainer.functions.math import floor as floor_module
from chainer.functions.math import matmul as matmul_module
from chainer.functions.math import sum as sum_module
from chainer import utils
from chainer.utils import type_check
from chainer import variable


_ARRAY_TYPES = (numpy.ndarray, cuda.ndarray)

# NumPy 2 computes a float array with a Python number in the array's dtype,
# which is what casting the number to that dtype first gives.
_WEAK_PYTHON_SCALARS = numpy.lib.NumpyVersion(numpy.__version__) >= '2.0.0'


def _convert_value_to_string(value):
    """Returns how a constant operand appears in a node's label.

    Args:
        value: A scalar, an array or a :class:`~chainer.Variable`.

    Returns:
        str: A scalar as printed (in parentheses when negative), or
        ``'constant array'``.

    Raises:
        ValueError: If ``value`` is neither.
    """
    if isinstance(value, variable.Variable):
        value = value.array
    if numpy.isscalar(value):
        if value < 0:
            return '({})'.format(value)
        return str(value)
    if isinstance(value, _ARRAY_TYPES):
        return 'constant array'
    raise ValueError(
        'Value must be a Variable, scalar, {} or {}. Actual: {}'.format(
            numpy.ndarray, cuda.ndarray, type(value)))


def _is_scalar(value):
    # ``numpy.isscalar``, with a fast path for Python numbers.
    return type(value) in _PYTHON_NUMBERS or numpy.isscalar(value)


_PYTHON_NUMBERS = (float, int)


def _preprocess_rhs(x, value):
    # A non-scalar operand: a variable as is, an array cast to x's dtype.
    if isinstance(value, variable.Variable):
        return value
    if not (numpy.isscalar(value) or isinstance(value, _ARRAY_TYPES)):
        raise TypeError(
            'Value must be a scalar, `numpy.ndarray`, `cupy.ndarray` '
            'or a `Variable`.\nActual: {}'.format(type(value)))
    # A scalar reaches here only as the operand of ``@``, where a NumPy
    # scalar fails in matmul and a Python number has no ``astype``.
    return value.astype(x.dtype, copy=False)


def _preprocess_const(x, value):
    # The constant operand of ``x op value``: ``value`` cast to x's dtype,
    # as NumPy 1 cast it. A Python number out of an integer dtype's range
    # wraps around (NumPy 2 raises OverflowError).
    if type(value) is float or type(value) is int:
        kind = x.dtype.kind
        if kind == 'f' and _WEAK_PYTHON_SCALARS:
            return value
        if kind in 'iu':
            try:
                return x.dtype.type(value)
            except OverflowError:
                return numpy.int64(int(value)).astype(x.dtype)
    if isinstance(value, (complex, str, bytes)) and not isinstance(
            value, numpy.number):
        raise TypeError(
            'A constant operand must be a real number or an array.\n'
            'Actual: {}'.format(type(value)))
    return x.dtype.type(value)


# Python numbers cast to a float dtype once, as 0-d arrays, by (number,
# dtype). NumPy computes ``x * 1.5`` with the number cast to x's dtype:
# multiplying by that cast as an array of x's dtype gives the same array,
# in half the time of the conversion NumPy makes on each call.
_CONSTANTS = _constant_operands.KEPT
_MAX_CONSTANTS = 256


def _with_constant(op, x, value):
    """``op(c, x)`` as an array, where ``c`` is the constant operand of
    ``x op value`` for an operation that is exactly rounded (``+``, ``-``,
    ``*``, ``/``): that of :func:`_preprocess_const`, as a read-only 0-d
    array of x's dtype made once for a Python number and a floating NumPy
    array x. Numbers that do not fit the dtype (their cast is not finite)
    keep the usual path, and so does zero, whose two signs are equal keys
    of a dict but give different sums and products."""
    if type(x) is numpy.ndarray \
            and (type(value) is float or type(value) is int):
        # Only such numbers, for floating dtypes, are kept.
        constant = _CONSTANTS.get((value, x.dtype))
        if constant is None and value and x.dtype.kind == 'f' \
                and _WEAK_PYTHON_SCALARS:
            constant = _constant_array(value, x.dtype)
            if constant is not None:
                if len(_CONSTANTS) >= _MAX_CONSTANTS:
                    _CONSTANTS.clear()
                _CONSTANTS[value, x.dtype] = constant
        if constant is not None:
            y = op(constant, x)
            # A NumPy scalar where x is 0-d.
            return y if type(y) is numpy.ndarray else utils.force_array(y)
    return utils.force_array(op(_preprocess_const(x, value), x))


def _constant_forward(op):
    """The ``forward`` of a node computing ``x op value`` (or ``value op
    x``) of its one input with its constant ``self.value``, as
    :func:`_with_constant` does; the compiled core computes it itself where
    the constant is kept (see :mod:`chainer._constant_operands`)."""
    def forward(self, inputs):
        x, = inputs
        return _with_constant(op, x, self.value),
    _constant_operands.FORWARDS[forward] = op
    return forward


def _constant_grad_into(op):
    """The in-place gradient protocol (``_add_grad_into``) of a node whose
    gradient is ``gy op value`` of its constant ``self.value``, by the
    expression of :func:`_constant_forward`; the compiled core computes the
    new gradient (``total`` is ``None``) itself where the constant is
    kept."""
    def _add_grad_into(self, index, grad_outputs, total):
        gy = _plain_grad(self, grad_outputs)
        if gy is None or not _is_scalar(self.value):
            return False
        return _grad_into(total, _with_constant(op, gy, self.value))
    _constant_operands.GRADS_INTO[_add_grad_into] = op
    return _add_grad_into


def _constant_array(value, dtype):
    # `value` cast to `dtype` as a read-only 0-d array, or None where the
    # cast is not finite (it overflows) or fails (an int beyond float64).
    try:
        with numpy.errstate(over='ignore'):
            constant = numpy.array(value, dtype)
    except OverflowError:
        return None
    if not numpy.isfinite(constant):
        return None
    constant.flags.writeable = False
    return constant


def _arithmetic(name, op, lhs, rhs):
    # op(lhs, rhs) of two arrays (+, - or *): the kernel `name` where it
    # applies (large float arrays of one shape and layout, see
    # _kernels.arithmetic), else NumPy's.
    y = _kernels.arithmetic(name, lhs, rhs)
    return utils.force_array(op(lhs, rhs)) if y is None else y


def _replay_with_constant(node, ufunc, inputs):
    """A static schedule's kernel of ``node`` (``_replay_forward``): the
    array ``ufunc(value, x)`` of a node whose forward computes
    ``force_array(ufunc(value, x))`` or ``force_array(ufunc(x, value))``
    for a commutative ``ufunc``, with ``value`` cast to the dtype of the
    recorded input once instead of on each call. It serves floating NumPy
    arrays with dimensions of that dtype and hands anything else to
    ``forward``. ``None`` where the recorded input is no such array."""
    x, = inputs
    if type(x) is not numpy.ndarray or x.ndim == 0 or x.dtype.kind != 'f':
        return None
    dtype = x.dtype
    value = _constant_array(_preprocess_const(x, node.value), dtype)
    if value is None:
        return None
    forward = node.forward

    def kernel(x):
        if type(x) is numpy.ndarray and x.dtype is dtype and x.ndim:
            return ufunc(value, x)
        return forward((x,))[0]
    return kernel


def _scalar_op(op, a, b):
    # ``op(a, b)`` of two scalars, promoted as NumPy 1 did: next to a NumPy
    # scalar, a Python number counts as a NumPy scalar of its default dtype
    # (int64, float64), so ``1. / numpy.float16(3)`` is a float64 and
    # ``numpy.float32(.5) - 1`` too. Python numbers alone stay Python.
    if isinstance(a, numpy.generic) or isinstance(b, numpy.generic):
        dtype = numpy.result_type(numpy.asarray(a), numpy.asarray(b))
        return op(dtype.type(a), dtype.type(b))
    return op(a, b)


def _sum_to(x, shape):
    return sum_module.sum_to(x, shape)


def _plain_grad(node, grad_outputs):
    """The array of the output gradient of an element-wise node, or None
    where the protocol leaves the gradient to ``backward``: no gradient,
    or arrays of a non-standard memory layout."""
    gy = grad_outputs[0]
    if gy is None or gy._layout is not None \
            or node._input_layouts is not None:
        return None
    return gy._data


def _negated_grad_into(node, grad_outputs, total, shape=None):
    """The in-place gradient protocol of a node whose gradient is ``-gy``
    (of ``shape``, when given, or nothing is done here)."""
    gy = _plain_grad(node, grad_outputs)
    if gy is None or (shape is not None and gy.shape != shape):
        return False
    return _grad_into(total, utils.force_array(-gy))


def _grad_into(total, gx):
    """The in-place gradient protocol of an element-wise node
    (:class:`~chainer.FunctionNode`, ``_add_grad_into``).

    ``gx`` is the new gradient array the node's ``backward`` would give,
    computed by the same expression: it is the input's gradient when
    ``total`` is ``None``, and is added into ``total`` (what summing the
    two would give) when it fits; else ``backward`` runs.
    """
    if total is None:
        return gx
    if type(gx) is not type(total) or gx.dtype != total.dtype \
            or gx.shape != total.shape:
        return False
    total += gx
    return True


class Neg(function_node.FunctionNode):

    """Element-wise negation, ``-x``."""

    is_elementwise = True

    @property
    def label(self):
        return '__neg__'

    check_type_forward = type_check._argument_check(('x',))

    def forward(self, inputs):
        return utils.force_array(-inputs[0]),

    def backward(self, indexes, grad_outputs):
        return -grad_outputs[0],

    def _add_grad_into(self, index, grad_outputs, total):
        return _negated_grad_into(self, grad_outputs, total)


def neg(self):  # -x
    """Element-wise negation.

    Returns:
        ~chainer.Variable: Output variable.
    """
    return Neg().apply((self,))[0]


class Absolute(function_node.FunctionNode):

    """Element-wise absolute value, ``abs(x)``."""

    is_elementwise = True

    @property
    def label(self):
        return '|_|'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        return utils.force_array(abs(inputs[0])),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return AbsoluteGrad(x.array).apply(grad_outputs)


class AbsoluteGrad(function_node.FunctionNode):

    """Gradient of :class:`Absolute`: ``sign(x) * gy`` for a fixed ``x``."""

    is_elementwise = True

    def __init__(self, x):
        super().__init__()
        self.x = x

    check_type_forward = type_check._argument_check(('gy',), True)

    def forward(self, inputs):
        xp = backend.get_array_module(self.x)
        sign = xp.sign(self.x).astype(inputs[0].dtype, copy=False)
        return utils.force_array(sign * inputs[0]),

    def backward(self, indexes, grad_outputs):
        return AbsoluteGrad(self.x).apply(grad_outputs)


def absolute(self):
    """Element-wise absolute value.

    Returns:
        ~chainer.Variable: Output variable.
    """
    return Absolute().apply((self,))[0]


def _check_binary(in_types, float_only):
    type_check._argname(in_types, ('lhs', 'rhs'))
    lhs, rhs = in_types
    if float_only:
        type_check.expect(lhs.dtype.kind == 'f', lhs.dtype == rhs.dtype)
    else:
        type_check.expect(lhs.dtype == rhs.dtype)
    type_check.expect_broadcast_shapes(lhs.shape, rhs.shape)


class Add(function_node.FunctionNode):

    """Element-wise sum of two variables, ``lhs + rhs``."""

    is_elementwise = True

    @property
    def label(self):
        return '_ + _'

    def check_type_forward(self, in_types):
        _check_binary(in_types, False)

    def forward(self, inputs):
        lhs, rhs = inputs
        if not lhs.flags.c_contiguous:
            rhs = _kernels.layout_like(rhs, lhs)
        return _arithmetic('add', operator.add, lhs, rhs),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return tuple(_sum_to(gy, self.inputs[i].shape) for i in indexes)


class AddConstant(function_node.FunctionNode):

    """Sum of a variable and a constant, ``x + value``."""

    is_elementwise = True

    def __init__(self, value):
        self.value = value

    @property
    def label(self):
        return '_ + %s' % _convert_value_to_string(self.value)

    check_type_forward = type_check._argument_check(('x',))

    forward = _constant_forward(operator.add)

    def _replay_forward(self, inputs):
        return _replay_with_constant(self, numpy.add, inputs)

    def backward(self, indexes, grad_outputs):
        return grad_outputs


class MultiAdd(function_node.FunctionNode):

    """Element-wise sum of any number of variables."""

    is_elementwise = True

    def check_type_forward(self, in_types):
        for i, in_type in enumerate(in_types):
            type_check._argname((in_type,), ('x{}'.format(i),))
            type_check.expect(in_types[0].dtype == in_type.dtype)

    def forward(self, inputs):
        if len(inputs) == 1:
            return inputs
        y = inputs[0] + inputs[1]
        for x in inputs[2:]:
            if x.shape == y.shape:
                y += x
            else:
                y = y + x
        return utils.force_array(y),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return tuple(_sum_to(gy, self.inputs[i].shape) for i in indexes)


def add(*xs):  # lhs + rhs, or the sum of more variables
    """Element-wise addition.

    With two arguments, the second may be a scalar or an array constant.
    With any other number of arguments, all of them are summed.

    Returns:
        ~chainer.Variable: Output variable.
    """
    if len(xs) == 2:
        return _add_pair(*xs)
    return MultiAdd().apply(xs)[0]


def _add_pair(self, rhs):  # lhs + rhs
    """Element-wise addition.

    Returns:
        ~chainer.Variable: Output variable.
    """
    if _is_scalar(rhs):
        return AddConstant(rhs).apply((self,))[0]
    rhs = _preprocess_rhs(self, rhs)
    return Add().apply((self, rhs))[0]


class Sub(function_node.FunctionNode):

    """Element-wise difference of two variables, ``lhs - rhs``."""

    is_elementwise = True

    @property
    def label(self):
        return '_ - _'

    def check_type_forward(self, in_types):
        _check_binary(in_types, False)

    def forward(self, inputs):
        return _arithmetic('subtract', operator.sub, *inputs),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        lhs, rhs = self.inputs
        return (
            _sum_to(gy, lhs.shape) if 0 in indexes else None,
            -_sum_to(gy, rhs.shape) if 1 in indexes else None,
        )

    def _add_grad_into(self, index, grad_outputs, total):
        # The gradient of lhs is gy itself, not a new array: backward.
        if index != 1:
            return False
        return _negated_grad_into(self, grad_outputs, total,
                                  self.inputs[1].shape)


def sub(self, rhs):  # lhs - rhs
    """Element-wise subtraction.

    Returns:
        ~chainer.Variable: Output variable.
    """
    if _is_scalar(rhs):
        return AddConstant(-rhs).apply((self,))[0]
    rhs = _preprocess_rhs(self, rhs)
    return Sub().apply((self, rhs))[0]


class SubFromConstant(function_node.FunctionNode):

    """Difference of a constant and a variable, ``value - x``."""

    is_elementwise = True

    def __init__(self, value):
        self.value = value

    @property
    def label(self):
        return '%s - _' % _convert_value_to_string(self.value)

    check_type_forward = type_check._argument_check(('x',))

    forward = _constant_forward(operator.sub)

    def backward(self, indexes, grad_outputs):
        return -grad_outputs[0],

    def _add_grad_into(self, index, grad_outputs, total):
        return _negated_grad_into(self, grad_outputs, total)


def rsub(self, rhs):  # rhs - lhs
    """Element-wise subtraction with reflected operands.

    Returns:
        ~chainer.Variable: Output variable.
    """
    if _is_scalar(rhs):
        return SubFromConstant(rhs).apply((self,))[0]
    rhs = _preprocess_rhs(self, rhs)
    return Sub().apply((rhs, self))[0]


class Mul(function_node.FunctionNode):

    """Element-wise product of two variables, ``lhs * rhs``."""

    is_elementwise = True

    @property
    def label(self):
        return '_ * _'

    def check_type_forward(self, in_types):
        _check_binary(in_types, True)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        return _arithmetic('multiply', operator.mul, *inputs),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        xs = self.get_retained_inputs()
        return tuple(
            _sum_to(gy * xs[1 - i], xs[i].shape) for i in indexes)

    def _add_grad_into(self, index, grad_outputs, total):
        gy = _plain_grad(self, grad_outputs)
        other = self.inputs[1 - index]
        if gy is None or gy.shape != self.inputs[index].shape \
                or gy.shape != other.shape:
            return False
        return _grad_into(total, utils.force_array(gy * other.data))


class MulConstant(function_node.FunctionNode):

    """Product of a variable and a constant, ``x * value``."""

    is_elementwise = True

    def __init__(self, value):
        self.value = value

    @property
    def label(self):
        return '_ * %s' % _convert_value_to_string(self.value)

    check_type_forward = type_check._argument_check(('x',))

    forward = _constant_forward(operator.mul)

    def _replay_forward(self, inputs):
        return _replay_with_constant(self, numpy.multiply, inputs)

    def backward(self, indexes, grad_outputs):
        return mul(grad_outputs[0], self.value),

    _add_grad_into = _constant_grad_into(operator.mul)


def mul(self, rhs):  # lhs * rhs
    """Element-wise multiplication.

    Returns:
        ~chainer.Variable: Output variable.
    """
    if _is_scalar(rhs):
        return MulConstant(rhs).apply((self,))[0]
    rhs = _preprocess_rhs(self, rhs)
    return Mul().apply((self, rhs))[0]


class Div(function_node.FunctionNode):

    """Element-wise quotient of two variables, ``lhs / rhs``."""

    is_elementwise = True

    @property
    def label(self):
        return '_ / _'

    def check_type_forward(self, in_types):
        _check_binary(in_types, True)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        return utils.force_array(inputs[0] / inputs[1]),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        grad = DivGrad(x0.shape == x1.shape)
        return grad.apply((x0, x1, grad_outputs[0]))


class DivGrad(function_node.FunctionNode):

    """Gradients of :class:`Div` with respect to both of its inputs.

    Inputs are ``(x0, x1, gy)``; outputs are ``gy / x1`` and
    ``-gy * x0 / x1 ** 2``, each summed to the shape of its operand.
    """

    def __init__(self, is_elementwise):
        self.is_elementwise = is_elementwise

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x0, x1, gy = inputs
        gx0 = utils.force_array(gy / x1)
        gx1 = utils.force_array(-gx0 * x0 / x1)
        return utils.sum_to(gx0, x0.shape), utils.sum_to(gx1, x1.shape)

    def backward(self, indexes, grad_outputs):
        x0, x1, gy = self.get_retained_inputs()
        ggx0, ggx1 = grad_outputs
        x1_square = x1 * x1
        ret = []
        if 0 in indexes:
            ret.append(None if ggx1 is None else
                       _sum_to(-ggx1 * gy / x1_square, x0.shape))
        if 1 in indexes:
            terms = []
            if ggx0 is not None:
                terms.append(-ggx0 * gy / x1_square)
            if ggx1 is not None:
                terms.append(ggx1 * 2 * gy * x0 / (x1_square * x1))
            ret.append(_sum_to(_add_terms(terms), x1.shape)
                       if terms else None)
        if 2 in indexes:
            terms = []
            if ggx0 is not None:
                terms.append(ggx0 / x1)
            if ggx1 is not None:
                terms.append(-ggx1 * x0 / x1_square)
            ret.append(_add_terms(terms) if terms else None)
        return ret


def _add_terms(terms):
    # Sums a non-empty list of variables.
    total = terms[0]
    for term in terms[1:]:
        total = total + term
    return total


def div(self, rhs):  # lhs / rhs
    """Element-wise division.

    Returns:
        ~chainer.Variable: Output variable.
    """
    if _is_scalar(rhs):
        value = _scalar_op(operator.truediv, 1., rhs)
        return MulConstant(value).apply((self,))[0]
    rhs = _preprocess_rhs(self, rhs)
    return Div().apply((self, rhs))[0]


class DivFromConstant(function_node.FunctionNode):

    """Quotient of a constant and a variable, ``value / x``."""

    is_elementwise = True

    def __init__(self, value):
        self.value = value

    @property
    def label(self):
        return '%s / _' % _convert_value_to_string(self.value)

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return _with_constant(operator.truediv, x, self.value),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return DivFromConstantGrad(self.value).apply((x, grad_outputs[0]))


class DivFromConstantGrad(function_node.FunctionNode):

    """Gradient of :class:`DivFromConstant`: ``-value * gy / x ** 2``."""

    def __init__(self, value):
        super().__init__()
        self.value = value

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        value = x.dtype.type(self.value)  # so that -0 is -0.0
        return utils.force_array(-value * gy / (x ** 2)),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        value = x.dtype.type(self.value)
        ret = []
        if 0 in indexes:
            ret.append(ggx * 2 * value * gy / (x ** 3))
        if 1 in indexes:
            ret.append(ggx * -value / (x ** 2))
        return ret


def rdiv(self, rhs):  # rhs / lhs
    """Element-wise division with reflected operands.

    Returns:
        ~chainer.Variable: Output variable.
    """
    if _is_scalar(rhs):
        return DivFromConstant(rhs).apply((self,))[0]
    rhs = _preprocess_rhs(self, rhs)
    return Div().apply((rhs, self))[0]


def floordiv(self, rhs):  # lhs // rhs
    """Element-wise floor division.

    The result carries no gradient.

    Returns:
        ~chainer.Variable: Output variable.
    """
    return floor_module.floor(div(self, rhs))


def rfloordiv(self, rhs):  # rhs // lhs
    """Element-wise floor division with reflected operands.

    The result carries no gradient.

    Returns:
        ~chainer.Variable: Output variable.
    """
    return floor_module.floor(rdiv(self, rhs))


class PowVarVar(function_node.FunctionNode):

    """Element-wise power of two variables, ``lhs ** rhs``."""

    is_elementwise = True

    @property
    def label(self):
        return '_ ** _'

    def check_type_forward(self, in_types):
        _check_binary(in_types, True)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        return utils.force_array(inputs[0] ** inputs[1]),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        grad = PowVarVarGrad(x0.shape == x1.shape, y.array)
        return grad.apply((x0, x1, grad_outputs[0]))


class PowVarVarGrad(function_node.FunctionNode):

    """Gradients of :class:`PowVarVar` with respect to both of its inputs.

    Inputs are ``(x0, x1, gy)`` and ``y = x0 ** x1`` is given; outputs are
    ``x1 * x0 ** (x1 - 1) * gy`` and ``log(x0) * y * gy``, each summed to
    the shape of its operand.
    """

    def __init__(self, is_elementwise, y):
        self.is_elementwise = is_elementwise
        self.y = y

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('lhs', 'rhs', 'gy'))
        type_check.expect(
            in_types[0].dtype.kind == 'f',
            in_types[0].dtype == in_types[1].dtype,
            in_types[0].dtype == in_types[2].dtype,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x0, x1, gy = inputs
        xp = backend.get_array_module(x0)
        one = x1.dtype.type(1)
        gx0 = utils.force_array(x1 * x0 ** (x1 - one) * gy)
        gx1 = utils.force_array(xp.log(x0) * self.y * gy)
        return utils.sum_to(gx0, x0.shape), utils.sum_to(gx1, x1.shape)

    def backward(self, indexes, grad_outputs):
        x0, x1, gy = self.get_retained_inputs()
        ggx0, ggx1 = grad_outputs
        log_x0 = chainer.functions.log(x0)
        pow_1 = x0 ** (x1 - 1)
        # d(gx0)/d(x1) == d(gx1)/d(x0), up to the factor gy
        cross = pow_1 * (log_x0 * x1 + 1)
        ret = []
        if 0 in indexes:
            terms = []
            if ggx0 is not None:
                terms.append(ggx0 * x1 * (x1 - 1) * x0 ** (x1 - 2))
            if ggx1 is not None:
                terms.append(ggx1 * cross)
            ret.append(_sum_to(_add_terms(terms) * gy, x0.shape)
                       if terms else None)
        if 1 in indexes:
            terms = []
            if ggx0 is not None:
                terms.append(ggx0 * cross)
            if ggx1 is not None:
                terms.append(ggx1 * log_x0 * log_x0 * x0 ** x1)
            ret.append(_sum_to(_add_terms(terms) * gy, x1.shape)
                       if terms else None)
        if 2 in indexes:
            terms = []
            if ggx0 is not None:
                terms.append(ggx0 * x1 * pow_1)
            if ggx1 is not None:
                terms.append(ggx1 * log_x0 * x0 ** x1)
            ret.append(_add_terms(terms) if terms else None)
        return ret


class PowVarConst(function_node.FunctionNode):

    """Power of a variable to a constant exponent, ``x ** value``."""

    is_elementwise = True

    def __init__(self, value):
        self.value = value

    @property
    def label(self):
        return '_ ** %s' % _convert_value_to_string(self.value)

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        y = x ** _preprocess_const(x, self.value)
        return utils.force_array(y, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return PowVarConstGrad(self.value).apply((x, grad_outputs[0]))


class PowVarConstGrad(function_node.FunctionNode):

    """Gradient of :class:`PowVarConst`: ``value * x ** (value - 1) * gy``.
    """

    is_elementwise = True

    def __init__(self, value):
        self.value = value

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'gy'))
        type_check.expect(
            in_types[0].dtype.kind == 'f',
            in_types[0].dtype == in_types[1].dtype,
            in_types[0].shape == in_types[1].shape,
        )

    def _exponents(self, x, *offsets):
        # value - k for each k, a NumPy scalar of x's dtype, so that the
        # nodes of a double backprop read as in Chainer (``_ * 2.0``); a
        # NumPy scalar value counts from 1 and 2 in float64 at least, as in
        # NumPy 1.
        return [x.dtype.type(_preprocess_const(
            x, _scalar_op(operator.sub, self.value, k))) for k in offsets]

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        value, value_1 = self._exponents(x, 0, 1)
        return utils.force_array(value * x ** value_1 * gy, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        value, value_1, value_2 = self._exponents(x.array, 0, 1, 2)
        ret = []
        if 0 in indexes:
            ret.append(ggx * value * gy * value_1 * x ** value_2)
        if 1 in indexes:
            ret.append(ggx * value * x ** value_1)
        return ret


def pow(self, rhs):  # lhs ** rhs
    """Element-wise power function.

    Returns:
        ~chainer.Variable: Output variable.
    """
    if _is_scalar(rhs):
        return PowVarConst(rhs).apply((self,))[0]
    rhs = _preprocess_rhs(self, rhs)
    return PowVarVar().apply((self, rhs))[0]


class PowConstVar(function_node.FunctionNode):

    """Power of a constant base to a variable exponent, ``value ** x``."""

    is_elementwise = True

    def __init__(self, value):
        self.value = value

    @property
    def label(self):
        return '%s ** _' % _convert_value_to_string(self.value)

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(_preprocess_const(x, self.value) ** x),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return PowConstVarGrad(self.value).apply((y, grad_outputs[0]))


class PowConstVarGrad(function_node.FunctionNode):

    """Gradient of :class:`PowConstVar`: ``log(value) * y * gy``."""

    is_elementwise = True

    def __init__(self, value):
        self.value = value
        # A base of zero or below fails here, with math's ValueError.
        self.log_value = math.log(value)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('y', 'gy'))
        type_check.expect(
            in_types[0].dtype.kind == 'f',
            in_types[0].dtype == in_types[1].dtype,
            in_types[0].shape == in_types[1].shape,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        log_value = y.dtype.type(self.log_value)
        return utils.force_array(log_value * y * gy),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        scaled = y.dtype.type(self.log_value) * grad_outputs[0]
        ret = []
        if 0 in indexes:
            ret.append(scaled * gy)
        if 1 in indexes:
            ret.append(scaled * y)
        return ret


def rpow(self, rhs):  # rhs ** lhs
    """Element-wise power function with reflected operands.

    Returns:
        ~chainer.Variable: Output variable.
    """
    if _is_scalar(rhs):
        return PowConstVar(rhs).apply((self,))[0]
    rhs = _preprocess_rhs(self, rhs)
    return PowVarVar().apply((rhs, self))[0]


def matmul(self, rhs):  # lhs @ rhs
    """Matrix multiplication.

    Returns:
        ~chainer.Variable: Output variable.
    """
    rhs = _preprocess_rhs(self, rhs)
    return matmul_module.matmul(self, rhs)


def rmatmul(self, rhs):  # rhs @ lhs
    """Matrix multiplication with reflected operands.

    Returns:
        ~chainer.Variable: Output variable.
    """
    rhs = _preprocess_rhs(self, rhs)
    return matmul_module.matmul(rhs, self)


def install_variable_arithmetics():
    """Sets the arithmetic operators of :class:`~chainer.Variable`."""
    cls = variable.Variable
    cls.__neg__ = neg
    cls.__abs__ = absolute
    cls.__add__ = _add_pair
    cls.__radd__ = _add_pair
    cls.__sub__ = sub
    cls.__rsub__ = rsub
    cls.__mul__ = mul
    cls.__rmul__ = mul
    cls.__truediv__ = div
    cls.__rtruediv__ = rdiv
    cls.__floordiv__ = floordiv
    cls.__rfloordiv__ = rfloordiv
    cls.__pow__ = pow
    cls.__rpow__ = rpow
    cls.__matmul__ = matmul
    cls.__rmatmul__ = rmatmul


install_variable_arithmetics()
