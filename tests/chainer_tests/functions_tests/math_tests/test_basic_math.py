import importlib.util
import json
import operator
import os

import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer.functions.math import basic_math
from chainer import gradient_check
from chainer import testing
from chainer.testing import attr
from chainer.utils import type_check


DTYPES = [numpy.float16, numpy.float32, numpy.float64]

# (lhs shape, rhs shape): equal, broadcast both ways, 0-dimensional.
SHAPE_PAIRS = [
    ((3, 2), (3, 2)),
    ((3, 2), (2,)),
    ((3, 1), (1, 2)),
    ((), ()),
    ((), (3, 2)),
]


def _fwd_tol(dtype):
    if dtype == numpy.float16:
        return {'atol': 1e-3, 'rtol': 1e-3}
    return {'atol': 1e-6, 'rtol': 1e-6}


def _bwd_tol(dtype):
    # Numerical gradients are computed in float64.
    if dtype == numpy.float16:
        return {'dtype': numpy.float64, 'atol': 2e-2, 'rtol': 2e-2}
    return {'dtype': numpy.float64, 'atol': 1e-3, 'rtol': 1e-3}


def _uniform(shape, dtype, low=-1, high=1):
    return numpy.asarray(numpy.random.uniform(low, high, shape), dtype)


def _away_from_zero(shape, dtype):
    # Values in [-2, -0.5] U [0.5, 2].
    x = _uniform(shape, dtype, 0.5, 2)
    sign = numpy.where(numpy.random.rand(*shape) < 0.5, -1, 1)
    return numpy.asarray(x * sign, dtype)


def _positive(shape, dtype):
    return _uniform(shape, dtype, 0.5, 2)


# name -> (operator, lhs sampler, rhs sampler)
BINARY_OPS = {
    'add': (operator.add, _uniform, _uniform),
    'sub': (operator.sub, _uniform, _uniform),
    'mul': (operator.mul, _uniform, _uniform),
    'div': (operator.truediv, _uniform, _away_from_zero),
    'pow': (operator.pow, _positive, _uniform),
}


def _check_grads(func, inputs, dtype, double=True):
    y = func(*[chainer.Variable(x) for x in inputs])
    gy = _uniform(y.shape, dtype)
    tol = _bwd_tol(dtype)
    gradient_check.check_backward(func, inputs, gy, **tol)
    if double:
        ggx = [_uniform(x.shape, dtype) for x in inputs]
        gradient_check.check_double_backward(func, inputs, gy, ggx, **tol)


# ---------------------------------------------------------------------------
# variable (op) variable


@pytest.mark.parametrize('op_name', sorted(BINARY_OPS))
@pytest.mark.parametrize('shapes', SHAPE_PAIRS)
@pytest.mark.parametrize('dtype', DTYPES)
class TestBinaryVarVar:

    def _inputs(self, op_name, shapes, dtype):
        op, sample_lhs, sample_rhs = BINARY_OPS[op_name]
        return op, sample_lhs(shapes[0], dtype), sample_rhs(shapes[1], dtype)

    def test_forward(self, op_name, shapes, dtype):
        op, a, b = self._inputs(op_name, shapes, dtype)
        y = op(chainer.Variable(a), chainer.Variable(b))
        expected = op(a, b)
        assert isinstance(y.array, numpy.ndarray)
        assert y.dtype == dtype
        assert y.shape == numpy.broadcast(a, b).shape
        testing.assert_allclose(y.array, expected, **_fwd_tol(dtype))

    def test_backward(self, op_name, shapes, dtype):
        op, a, b = self._inputs(op_name, shapes, dtype)
        _check_grads(op, (a, b), dtype)

    def test_reflected_array_lhs(self, op_name, shapes, dtype):
        # A NumPy array on the left defers to the variable's operator.
        op, a, b = self._inputs(op_name, shapes, dtype)
        y = op(a, chainer.Variable(b))
        assert isinstance(y, chainer.Variable)
        assert y.dtype == dtype
        testing.assert_allclose(y.array, op(a, b), **_fwd_tol(dtype))

        def func(x):
            return op(a, x)
        _check_grads(func, (b,), dtype)

    def test_array_rhs(self, op_name, shapes, dtype):
        op, a, b = self._inputs(op_name, shapes, dtype)
        y = op(chainer.Variable(a), b)
        assert isinstance(y, chainer.Variable)
        testing.assert_allclose(y.array, op(a, b), **_fwd_tol(dtype))

        def func(x):
            return op(x, b)
        _check_grads(func, (a,), dtype)


@pytest.mark.parametrize('op_name', sorted(BINARY_OPS))
def test_var_var_gradient_values(op_name):
    # Analytic gradients, with the broadcast operand summed back.
    op = BINARY_OPS[op_name][0]
    a = numpy.array([[0.5, 1.5, 2.0], [1.0, 2.5, 3.0]])
    b = numpy.array([1.5, 2.0, 0.5])
    va, vb = chainer.Variable(a), chainer.Variable(b)
    y = op(va, vb)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    grads = {
        'add': (numpy.ones_like(a), numpy.full(3, 2.0)),
        'sub': (numpy.ones_like(a), numpy.full(3, -2.0)),
        'mul': (numpy.broadcast_to(b, a.shape), a.sum(0)),
        'div': (numpy.broadcast_to(1 / b, a.shape),
                (-a / b ** 2).sum(0)),
        'pow': (b * a ** (b - 1), (numpy.log(a) * a ** b).sum(0)),
    }[op_name]
    testing.assert_allclose(va.grad, grads[0])
    testing.assert_allclose(vb.grad, grads[1])


# ---------------------------------------------------------------------------
# variable (op) constant and constant (op) variable

CONST_OPS = {
    'add': (lambda x, c: x + c, _uniform),
    'radd': (lambda x, c: c + x, _uniform),
    'sub': (lambda x, c: x - c, _uniform),
    'rsub': (lambda x, c: c - x, _uniform),
    'mul': (lambda x, c: x * c, _uniform),
    'rmul': (lambda x, c: c * x, _uniform),
    'div': (lambda x, c: x / c, _uniform),
    'rdiv': (lambda x, c: c / x, _away_from_zero),
    'pow': (lambda x, c: x ** c, _positive),
    'rpow': (lambda x, c: c ** x, _uniform),
}

CONSTANTS = {
    'int': 3,
    'float': 1.5,
    'negative_float': -0.75,
    'numpy_float64': numpy.float64(2.5),
    'numpy_int32': numpy.int32(2),
}


@pytest.mark.parametrize('op_name', sorted(CONST_OPS))
@pytest.mark.parametrize('const_name', sorted(CONSTANTS))
@pytest.mark.parametrize('shape', [(3, 2), ()])
@pytest.mark.parametrize('dtype', DTYPES)
class TestBinaryConstant:

    def _setup(self, op_name, const_name, shape, dtype):
        op, sample = CONST_OPS[op_name]
        const = CONSTANTS[const_name]
        if op_name == 'rpow':
            const = abs(const)
        return op, const, sample(shape, dtype)

    def test_forward(self, op_name, const_name, shape, dtype):
        op, const, x = self._setup(op_name, const_name, shape, dtype)
        y = op(chainer.Variable(x), const)
        assert isinstance(y.array, numpy.ndarray)
        assert y.dtype == dtype
        assert y.shape == shape
        expected = op(x.astype(numpy.float64), float(const))
        testing.assert_allclose(y.array, expected, **_fwd_tol(dtype))

    def test_backward(self, op_name, const_name, shape, dtype):
        op, const, x = self._setup(op_name, const_name, shape, dtype)

        def func(v):
            return op(v, const)
        _check_grads(func, (x,), dtype)


LABEL_CASES = [
    (lambda x, y: x + y, 'Add', '_ + _'),
    (lambda x, y: x + 2, 'AddConstant', '_ + 2'),
    (lambda x, y: 2 + x, 'AddConstant', '_ + 2'),
    (lambda x, y: x - y, 'Sub', '_ - _'),
    (lambda x, y: x - 1, 'AddConstant', '_ + (-1)'),
    (lambda x, y: x - 1.5, 'AddConstant', '_ + (-1.5)'),
    (lambda x, y: 1 - x, 'SubFromConstant', '1 - _'),
    (lambda x, y: x * y, 'Mul', '_ * _'),
    (lambda x, y: x * 2, 'MulConstant', '_ * 2'),
    (lambda x, y: 2.0 * x, 'MulConstant', '_ * 2.0'),
    (lambda x, y: numpy.float64(2) * x, 'MulConstant', '_ * 2.0'),
    (lambda x, y: x / y, 'Div', '_ / _'),
    (lambda x, y: x / 2, 'MulConstant', '_ * 0.5'),
    (lambda x, y: 2 / x, 'DivFromConstant', '2 / _'),
    (lambda x, y: x ** y, 'PowVarVar', '_ ** _'),
    (lambda x, y: x ** 2, 'PowVarConst', '_ ** 2'),
    (lambda x, y: x ** -1, 'PowVarConst', '_ ** (-1)'),
    (lambda x, y: 2 ** x, 'PowConstVar', '2 ** _'),
    (lambda x, y: -x, 'Neg', '__neg__'),
    (lambda x, y: abs(x), 'Absolute', '|_|'),
    (lambda x, y: F.add(x, y, x), 'MultiAdd', 'MultiAdd'),
    (lambda x, y: x @ y.T, 'MatMul', 'MatMul'),
    (lambda x, y: x + numpy.ones((2, 3)), 'Add', '_ + _'),
    (lambda x, y: numpy.ones((2, 3)) * x, 'Mul', '_ * _'),
]


@pytest.mark.parametrize(
    'expr, cls, label', LABEL_CASES,
    ids=['{}-{}'.format(i, case[1]) for i, case in enumerate(LABEL_CASES)])
def test_creator_class_and_label(expr, cls, label):
    x = chainer.Variable(numpy.full((2, 3), 2, numpy.float32))
    y = chainer.Variable(numpy.full((2, 3), 3, numpy.float32))
    z = expr(x, y)
    assert type(z.creator).__name__ == cls
    assert z.creator.label == label


def test_constant_array_label():
    f = basic_math.MulConstant(numpy.array([1.0, 2.0]))
    assert f.label == '_ * constant array'
    f = basic_math.AddConstant(numpy.array([1.0, 2.0]))
    assert f.label == '_ + constant array'


def test_mul_constant_array_value():
    # A constant array operand is cast to the dtype of the variable.
    x = numpy.array([1.0, 2.0, 3.0], numpy.float32)
    c = numpy.array([2.0, 3.0, 4.0])

    def func(v):
        return basic_math.MulConstant(c).apply((v,))[0]
    y = func(chainer.Variable(x))
    assert y.dtype == numpy.float32
    testing.assert_allclose(y.array, x * c)
    gradient_check.check_backward(func, (x,), numpy.ones(3, numpy.float32),
                                  dtype=numpy.float64)


# ---------------------------------------------------------------------------
# dtype rules


def test_float64_array_is_cast_to_variable_dtype():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    for y in (x + numpy.ones((2, 3)), numpy.ones((2, 3)) + x,
              x * numpy.ones(3), x - numpy.ones(3, numpy.int32),
              x / numpy.full(3, 2.0), numpy.full(3, 2.0) / x,
              x ** numpy.ones(3), x + numpy.array(1.0)):
        assert y.dtype == numpy.float32


@pytest.mark.parametrize('const', [1.5, numpy.float64(1.5), numpy.int64(2),
                                   True], ids=['float', 'f64', 'i64', 'bool'])
def test_scalar_keeps_variable_dtype(const):
    x = chainer.Variable(numpy.ones(3, numpy.float16))
    assert (x + const).dtype == numpy.float16
    assert (x * const).dtype == numpy.float16


_EXACT_CONSTANT_OPS = {
    'add': operator.add, 'radd': lambda x, c: c + x,
    'sub': operator.sub, 'rsub': lambda x, c: c - x,
    'mul': operator.mul, 'rmul': lambda x, c: c * x,
    'div': operator.truediv, 'rdiv': lambda x, c: c / x}


@pytest.mark.parametrize('op_name', sorted(_EXACT_CONSTANT_OPS))
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('value', [1.0001, 0.1, -3, 2 ** 40, 1e10, 1e300],
                         ids=['1.0001', '0.1', '-3', '2**40', '1e10',
                              '1e300'])
@pytest.mark.parametrize('shape', [(3, 4), ()])
def test_python_number_operand_as_numpy(op_name, dtype, value, shape):
    # The Python number is cast to the variable's dtype once and kept (as
    # a 0-d array): the outputs and gradients are NumPy's with the number,
    # bit for bit, including numbers that overflow the dtype.
    op = _EXACT_CONSTANT_OPS[op_name]
    rng = numpy.random.RandomState(0)
    x = numpy.asarray(rng.uniform(0.5, 2, shape), dtype)
    gy = numpy.asarray(rng.uniform(-1, 1, shape), dtype)
    for _ in range(2):  # the second time with the kept constant
        v = chainer.Variable(x)
        with numpy.errstate(all='ignore'):
            y = op(v, value)
            # Chainer divides by a number as it multiplies by 1 / number.
            expected = (x * (1 / value) if op_name == 'div'
                        else op(x, value))
            y.grad = gy
            y.backward()
        assert type(y.array) is numpy.ndarray
        assert y.dtype == expected.dtype == dtype
        numpy.testing.assert_array_equal(y.array, expected)
    if op_name in ('mul', 'rmul'):
        with numpy.errstate(all='ignore'):
            numpy.testing.assert_array_equal(v.grad, gy * value)


@pytest.mark.parametrize('op_name', ['add', 'mul', 'rsub'])
def test_signed_zero_operands(op_name):
    # 0.0 and -0.0 are equal keys of a dict, yet x + 0.0 and x + -0.0
    # differ for x = -0.0, as x * 0.0 and x * -0.0 do for x = 1.
    op = _EXACT_CONSTANT_OPS[op_name]
    x = numpy.array([-0.0, 0.0, 1.0, -1.0], numpy.float32)
    for value in (0.0, -0.0, 0.0, 0, -0.0):
        y = op(chainer.Variable(x), value).array
        expected = op(x, value)
        numpy.testing.assert_array_equal(y, expected)
        numpy.testing.assert_array_equal(
            numpy.signbit(y), numpy.signbit(expected))


@pytest.mark.parametrize('op_name', sorted(_EXACT_CONSTANT_OPS))
def test_int_operand_beyond_float64(op_name):
    # No float holds 10 ** 400: the operation raises NumPy's OverflowError
    # and keeps no constant.
    op = _EXACT_CONSTANT_OPS[op_name]
    x = numpy.ones(3, numpy.float32)
    with pytest.raises(OverflowError):
        op(x, 10 ** 400)
    with pytest.raises(OverflowError):
        op(chainer.Variable(x), 10 ** 400)
    assert (10 ** 400, x.dtype) not in basic_math._CONSTANTS


def test_kept_python_number_operands_are_bounded_and_read_only():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    for k in range(basic_math._MAX_CONSTANTS + 10):
        y = x * (1 + k / 1024)
    numpy.testing.assert_array_equal(
        y.array, numpy.float32(1 + (basic_math._MAX_CONSTANTS + 9) / 1024))
    assert 0 < len(basic_math._CONSTANTS) <= basic_math._MAX_CONSTANTS
    for constant in basic_math._CONSTANTS.values():
        assert constant.ndim == 0 and not constant.flags.writeable


def test_integer_variable_with_float_constant():
    # The constant is cast to the integer dtype of the variable.
    x = chainer.Variable(numpy.array([1, 2, 3], numpy.int32))
    y = x + 1.5
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, [2, 3, 4])
    y = x * 2.5
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, [2, 4, 6])


def test_integer_add_and_neg():
    a = numpy.array([1, 2, 3], numpy.int32)
    b = numpy.array([4, 5, 6], numpy.int32)
    y = chainer.Variable(a) + chainer.Variable(b)
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, a + b)
    y = chainer.Variable(a) - chainer.Variable(b)
    numpy.testing.assert_array_equal(y.array, a - b)
    y = -chainer.Variable(a)
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, -a)


# ---------------------------------------------------------------------------
# errors


@pytest.mark.parametrize('op_name', sorted(BINARY_OPS))
def test_mismatched_shapes(op_name):
    op = BINARY_OPS[op_name][0]
    a = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    b = chainer.Variable(numpy.ones((4,), numpy.float32))
    with pytest.raises(type_check.InvalidType):
        op(a, b)


@pytest.mark.parametrize('op_name', sorted(BINARY_OPS))
def test_mismatched_dtypes(op_name):
    op = BINARY_OPS[op_name][0]
    a = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    b = chainer.Variable(numpy.ones((2, 3), numpy.float64))
    with pytest.raises(type_check.InvalidType):
        op(a, b)


@pytest.mark.parametrize('expr', [
    lambda x: x * x,
    lambda x: x / x,
    lambda x: x ** x,
    lambda x: x ** 2,
    lambda x: 2 ** x,
    lambda x: 2 / x,
    lambda x: abs(x),
], ids=['mul', 'div', 'powvarvar', 'powvarconst', 'powconstvar',
        'divfromconst', 'abs'])
def test_integer_inputs_refused(expr):
    x = chainer.Variable(numpy.array([1, 2, 3], numpy.int32))
    with pytest.raises(type_check.InvalidType):
        expr(x)


@pytest.mark.parametrize('value', [[1, 2, 3], (1,), None, 'a', 1j, {}],
                         ids=['list', 'tuple', 'none', 'str', 'complex',
                              'dict'])
@pytest.mark.parametrize('op', [
    operator.add, operator.sub, operator.mul, operator.truediv,
    operator.pow, operator.matmul], ids=['add', 'sub', 'mul', 'div', 'pow',
                                         'matmul'])
def test_unsupported_constant_type(op, value):
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    # As in the original, ``x @ scalar`` fails on the scalar's missing
    # ``astype``.
    scalar = isinstance(value, (str, complex))
    expected = AttributeError if op is operator.matmul and scalar \
        else TypeError
    with pytest.raises(expected):
        op(x, value)


def test_multi_add_dtype_mismatch():
    a = numpy.ones(3, numpy.float32)
    b = numpy.ones(3, numpy.float64)
    with pytest.raises(type_check.InvalidType):
        F.add(a, a, b)


def test_division_by_zero_constant():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    with pytest.raises(ZeroDivisionError):
        x / 0


# ---------------------------------------------------------------------------
# unary


@pytest.mark.parametrize('shape', [(3, 2), ()])
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('name', ['neg', 'abs'])
class TestUnary:

    def _op(self, name):
        return operator.neg if name == 'neg' else abs

    def test_forward(self, name, shape, dtype):
        x = _away_from_zero(shape, dtype)
        y = self._op(name)(chainer.Variable(x))
        assert isinstance(y.array, numpy.ndarray)
        assert y.dtype == dtype
        numpy.testing.assert_array_equal(y.array, self._op(name)(x))

    def test_backward(self, name, shape, dtype):
        x = _away_from_zero(shape, dtype)
        _check_grads(self._op(name), (x,), dtype)

    def test_function(self, name, shape, dtype):
        x = _away_from_zero(shape, dtype)
        f = basic_math.neg if name == 'neg' else F.absolute
        y = f(x)
        numpy.testing.assert_array_equal(y.array, self._op(name)(x))


def test_absolute_gradient_is_sign():
    x = chainer.Variable(numpy.array([-2.0, 3.0, -0.5], numpy.float32))
    y = abs(x)
    y.grad = numpy.array([1.0, 2.0, 3.0], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [-1.0, 2.0, -3.0])


# ---------------------------------------------------------------------------
# n-ary add


@pytest.mark.parametrize('shapes', [
    [(3, 2)],
    [(3, 2), (3, 2), (3, 2)],
    [(3, 2), (2,), (3, 1), ()],
    [(), (), (), ()],
], ids=['one', 'three', 'broadcast', 'scalars'])
@pytest.mark.parametrize('dtype', DTYPES)
class TestMultiAdd:

    def test_forward(self, shapes, dtype):
        xs = [_uniform(s, dtype) for s in shapes]
        y = F.add(*xs)
        expected = xs[0].astype(numpy.float64)
        for x in xs[1:]:
            expected = expected + x
        assert isinstance(y.array, numpy.ndarray)
        assert y.dtype == dtype
        testing.assert_allclose(y.array, expected, **_fwd_tol(dtype))

    def test_backward(self, shapes, dtype):
        xs = tuple(_uniform(s, dtype) for s in shapes)
        _check_grads(F.add, xs, dtype)


def test_multi_add_does_not_write_inputs():
    a = numpy.ones(3, numpy.float32)
    b = numpy.ones(3, numpy.float32)
    c = numpy.ones(3, numpy.float32)
    F.add(a, b, c)
    numpy.testing.assert_array_equal(a, numpy.ones(3))
    numpy.testing.assert_array_equal(b, numpy.ones(3))


def test_add_with_two_arguments_is_binary():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    assert type(F.add(x, x).creator).__name__ == 'Add'
    assert type(F.add(x, 1.0).creator).__name__ == 'AddConstant'


# ---------------------------------------------------------------------------
# floor division


@pytest.mark.parametrize('dtype', DTYPES)
def test_floordiv(dtype):
    a = numpy.array([[3.5, -2.5, 7.0]], dtype)
    b = numpy.array([2.0, 2.0, -3.0], dtype)
    va = chainer.Variable(a)
    for y, expected in [(va // b, a // b), (va // 2, a // 2),
                        (4 // va, 4 // a),
                        (va // chainer.Variable(b), a // b),
                        (b // va, b // a)]:
        assert isinstance(y, chainer.Variable)
        assert y.dtype == dtype
        assert y.creator is None
        assert not y.requires_grad
        numpy.testing.assert_array_equal(y.array, expected)


# ---------------------------------------------------------------------------
# matmul operator


def test_matmul_operator():
    a = _uniform((2, 3), numpy.float32)
    b = _uniform((3, 4), numpy.float32)
    y = chainer.Variable(a) @ chainer.Variable(b)
    testing.assert_allclose(y.array, a @ b)
    y = chainer.Variable(a) @ b.astype(numpy.float64)
    assert y.dtype == numpy.float32
    testing.assert_allclose(y.array, a @ b)
    y = a @ chainer.Variable(b)
    assert isinstance(y, chainer.Variable)
    testing.assert_allclose(y.array, a @ b)

    def func(x, w):
        return x @ w
    _check_grads(func, (a, b), numpy.float32)

    def rfunc(w):
        return a @ w
    _check_grads(rfunc, (b,), numpy.float32)


def test_install_variable_arithmetics():
    names = ['__neg__', '__abs__', '__add__', '__radd__', '__sub__',
             '__rsub__', '__mul__', '__rmul__', '__truediv__',
             '__rtruediv__', '__floordiv__', '__rfloordiv__', '__pow__',
             '__rpow__', '__matmul__', '__rmatmul__']
    basic_math.install_variable_arithmetics()
    for name in names:
        assert callable(getattr(chainer.Variable, name))
    assert chainer.Variable.__add__ is basic_math._add_pair
    assert chainer.Variable.__rtruediv__ is basic_math.rdiv


def test_backward_without_double_backprop_graph():
    # The gradient of a plain backward carries no graph.
    x = chainer.Variable(_positive((3,), numpy.float32))
    y = F.sum(x ** x / x * 2 - x + 1)
    y.backward()
    assert x.grad_var.creator is None


def test_second_order_gradient():
    x = chainer.Variable(numpy.array([1.5, 2.0], numpy.float64))
    y = F.sum(x ** 3)
    gx, = chainer.grad([y], [x], enable_double_backprop=True)
    testing.assert_allclose(gx.array, 3 * x.array ** 2)
    ggx, = chainer.grad([F.sum(gx)], [x])
    testing.assert_allclose(ggx.array, 6 * x.array)


# ---------------------------------------------------------------------------
# GPU


@attr.gpu
@pytest.mark.parametrize('op_name', sorted(BINARY_OPS))
def test_var_var_gpu(op_name):
    op, sample_lhs, sample_rhs = BINARY_OPS[op_name]
    a = sample_lhs((3, 2), numpy.float32)
    b = sample_rhs((2,), numpy.float32)
    y = op(chainer.Variable(cuda.to_gpu(a)), chainer.Variable(cuda.to_gpu(b)))
    assert isinstance(y.array, cuda.ndarray)
    testing.assert_allclose(y.array, op(a, b), atol=1e-5, rtol=1e-5)
    _check_grads(op, (cuda.to_gpu(a), cuda.to_gpu(b)), numpy.float32)


@attr.gpu
@pytest.mark.parametrize('op_name', sorted(CONST_OPS))
def test_constant_gpu(op_name):
    op, sample = CONST_OPS[op_name]
    x = cuda.to_gpu(sample((3, 2), numpy.float32))

    def func(v):
        return op(v, 1.5)
    y = func(chainer.Variable(x))
    assert isinstance(y.array, cuda.ndarray)
    testing.assert_allclose(y.array, op(cuda.to_cpu(x), 1.5),
                            atol=1e-5, rtol=1e-5)
    _check_grads(func, (x,), numpy.float32)


@attr.gpu
def test_unary_gpu():
    x = cuda.to_gpu(_away_from_zero((3, 2), numpy.float32))
    for op in (operator.neg, abs):
        _check_grads(op, (x,), numpy.float32)


@pytest.mark.parametrize('value, string', [
    (2, '2'), (0, '0'), (-2, '(-2)'), (2.0, '2.0'), (-2.0, '(-2.0)'),
    (numpy.float32(2), '2.0'), (numpy.float64(-0.5), '(-0.5)'),
    (numpy.array([1, 2]), 'constant array'),
    (chainer.Variable(numpy.array([1., 2.])), 'constant array'),
], ids=['int', 'zero', 'negative_int', 'float', 'negative_float',
        'numpy_scalar', 'negative_numpy_scalar', 'array', 'variable'])
def test_convert_value_to_string(value, string):
    assert basic_math._convert_value_to_string(value) == string


def test_convert_value_to_string_refuses_other_values():
    with pytest.raises(ValueError):
        basic_math._convert_value_to_string([1, 2])


# Constants under NumPy 1 promotion ---------------------------------------
# Chainer 7.8.1 ran on NumPy 1, whose promotion rules differ from NumPy 2's:
# a NumPy scalar next to a Python number was computed in at least float64
# or int64 (``1. / numpy.float16(2.5)`` is a float64 0.4, not a float16
# 0.39990234), and a Python integer out of an integer dtype's range wrapped
# around instead of raising OverflowError. Users relied on both, e.g.
# ``Variable(f32) / numpy.float16(2.5)``.
#
# Each case of fixtures/make_numpy1_fixture.py is one Variable dtype, one
# constant operand and one operator; fixtures/original_numpy1_semantics.json
# holds what Chainer 7.8.1 (NumPy 1.26) gave for each: the output's dtype,
# shape, values and label, the input's gradient, or the type of the error
# raised.

NUMPY1_FIXTURES = os.path.join(os.path.dirname(__file__), 'fixtures')


def _load_numpy1_cases():
    path = os.path.join(NUMPY1_FIXTURES, 'make_numpy1_fixture.py')
    spec = importlib.util.spec_from_file_location(
        'basic_math_numpy1_cases', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


numpy1_cases = _load_numpy1_cases()

# Powers go through the platform's pow and log, which NumPy 1.26 and 2
# round differently in the last place.
_TRANSCENDENTAL = ('pow', 'rpow')


@pytest.fixture(scope='module')
def original():
    path = os.path.join(NUMPY1_FIXTURES, 'original_numpy1_semantics.json')
    with open(path) as f:
        return json.load(f)


def _decode(encoded):
    return numpy.array(encoded['values'], encoded['dtype']).reshape(
        encoded['shape'])


def _check_array(actual, expected, transcendental):
    assert actual['dtype'] == expected['dtype']
    assert actual['shape'] == expected['shape']
    actual, expected = _decode(actual), _decode(expected)
    if transcendental and expected.dtype.kind == 'f':
        finite = numpy.isfinite(expected)
        numpy.testing.assert_array_equal(numpy.isfinite(actual), finite)
        numpy.testing.assert_array_max_ulp(
            actual[finite], expected[finite], maxulp=2)
    else:
        numpy.testing.assert_array_equal(actual, expected)


@pytest.mark.parametrize('case', numpy1_cases.CASES)
def test_constant_operand_matches_chainer_7_8_on_numpy1(original, case):
    expected = original[case]
    actual = numpy1_cases.evaluate(case)
    assert sorted(actual) == sorted(expected)
    if 'error' in expected:
        assert actual['error'] == expected['error']
        return
    transcendental = case.split(' ')[2] in _TRANSCENDENTAL
    _check_array(actual, expected, transcendental)
    assert actual['label'] == expected['label']
    if 'grad_error' in expected:
        assert actual['grad_error'] == expected['grad_error']
    elif expected.get('grad') is not None:
        _check_array(actual['grad'], expected['grad'], transcendental)
    else:
        assert actual.get('grad') is None


def test_fixture_lists_every_case(original):
    assert sorted(original) == sorted(numpy1_cases.CASES)


def test_float32_divided_by_float16_scalar():
    # 1 / float16(2.5) is computed in float64, then cast to float32.
    x = chainer.Variable(numpy.array([1.5, 2.0], numpy.float32))
    y = x / numpy.float16(2.5)
    assert y.dtype == numpy.float32
    numpy.testing.assert_array_equal(
        y.array, x.array * numpy.float32(0.4))
    assert y.creator.label == '_ * 0.4'


def test_float32_plus_float64_scalar_stays_float32():
    x = chainer.Variable(numpy.array([1.5, 2.0], numpy.float32))
    y = x + numpy.float64(0.1)
    assert y.dtype == numpy.float32
    numpy.testing.assert_array_equal(
        y.array, x.array + numpy.float32(0.1))


def test_integer_constant_wraps_around():
    x = chainer.Variable(numpy.array([1, 2], numpy.int8))
    numpy.testing.assert_array_equal((x + 300).array,
                                     numpy.array([45, 46], numpy.int8))
    u = chainer.Variable(numpy.array([1, 2], numpy.uint8))
    numpy.testing.assert_array_equal((u - 1).array,
                                     numpy.array([0, 1], numpy.uint8))


def test_power_gradient_of_float16_scalar_exponent():
    # The exponent of the gradient, float16(0.1) - 1, is a float64.
    x = chainer.Variable(numpy.array([1.5, 2.0], numpy.float32))
    y = x ** numpy.float16(0.1)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    value = float(numpy.float16(0.1))
    expected = numpy.float32(value) * x.array ** numpy.float32(value - 1)
    numpy.testing.assert_allclose(x.grad, expected, rtol=1e-6)


@pytest.mark.parametrize('base', [-2, 0, -0.5])
def test_gradient_of_power_of_non_positive_base_raises(base):
    # The gradient needs log(base), which math.log refuses.
    x = chainer.Variable(numpy.array([1.0, 2.0], numpy.float32))
    y = base ** x
    y.grad = numpy.ones_like(y.array)
    with pytest.raises(ValueError):
        y.backward()


def test_label_of_reciprocal_of_numpy_scalar():
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    assert (x / numpy.float32(0.1)).creator.label == '_ * 9.99999985098839'
    assert (x / 0.5).creator.label == '_ * 2.0'


class _Recorder(chainer.FunctionHook):
    """Observes the graph, which makes every node run its backward."""

    name = 'recorder'

    def __init__(self):
        self.backward = []

    def backward_preprocess(self, function, in_data, out_grad_data):
        self.backward.append(function.label)


_IN_PLACE_CASES = {
    'mul_constant': lambda x, y: x * 1.5 + x * 3.0,
    'mul': lambda x, y: x * y + y * x + x * x,
    'neg': lambda x, y: -x - x,
    'sub': lambda x, y: (x - y) + (x - y) * 2.0,
    'sub_from_constant': lambda x, y: (2.0 - x) + (1.0 - x),
}


@pytest.mark.parametrize('case', sorted(_IN_PLACE_CASES))
def test_gradients_summed_in_place(case, monkeypatch):
    # Unobserved, the element-wise nodes give their gradients through the
    # in-place protocol (_add_grad_into), an input used several times
    # getting its sum in place; observed (a function hook), every node runs
    # backward and the sums are applications of F.add. The gradients are
    # the same expressions added in the same order: equal to the bit.
    f = _IN_PLACE_CASES[case]
    rng = numpy.random.RandomState(0)
    x0 = rng.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    y0 = rng.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    gz = rng.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    used = []
    for cls in (basic_math.MulConstant, basic_math.Mul, basic_math.Neg,
                basic_math.Sub, basic_math.SubFromConstant):
        def recording(self, index, grad_outputs, total, _f=cls._add_grad_into):
            used.append(type(self).__name__)
            return _f(self, index, grad_outputs, total)
        monkeypatch.setattr(cls, '_add_grad_into', recording)

    def grads(observed):
        x = chainer.Variable(x0.copy())
        y = chainer.Variable(y0.copy())
        z = f(x, y)
        z.grad = gz.copy()
        recorder = _Recorder()
        if observed:
            with recorder:
                z.backward()
        else:
            z.backward()
        return x.grad, y.grad, recorder.backward

    gx, gy, _ = grads(False)
    assert used
    del used[:]
    ox, oy, labels = grads(True)
    assert not used and labels
    numpy.testing.assert_array_equal(gx, ox)
    if oy is None:
        assert gy is None
    else:
        numpy.testing.assert_array_equal(gy, oy)
