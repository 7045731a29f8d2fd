"""Arithmetic of a Variable with constants gives Chainer 7.8.1's results.

Chainer 7.8.1 ran on NumPy 1, whose promotion rules differ from NumPy 2's:
a NumPy scalar next to a Python number was computed in at least float64 or
int64 (``1. / numpy.float16(2.5)`` is a float64 0.4, not a float16
0.39990234), and a Python integer out of an integer dtype's range wrapped
around instead of raising OverflowError. The original's users relied on
both, e.g. ``Variable(f32) / numpy.float16(2.5)``.

Each case below is one Variable dtype, one constant operand and one
operator. ``fixtures/original_numpy1_semantics.json`` holds what Chainer
7.8.1 (NumPy 1.26) gave for each: the output's dtype, shape, values and
label, the input's gradient, or the type of the error raised;
``fixtures/make_numpy1_fixture.py`` regenerates it.
"""

import json
import operator
import os
import warnings

import numpy
import pytest

import chainer


VAR_DTYPES = ('float16', 'float32', 'float64', 'int8', 'uint8', 'int32')

# The operand of each case; the Variable is [[1.5, 2, 3.25]] (floats) or
# [[1, 2, 3]] (integers), of shape (1, 3).
OPERANDS = {
    'int(3)': lambda: 3,
    'int(-2)': lambda: -2,
    'int(0)': lambda: 0,
    'int(300)': lambda: 300,
    'int(2**40)': lambda: 2 ** 40,
    'float(2.5)': lambda: 2.5,
    'float(0.1)': lambda: 0.1,
    'float(-0.3)': lambda: -0.3,
    'float(300.7)': lambda: 300.7,
    'bool(True)': lambda: True,
    'float16(2.5)': lambda: numpy.float16(2.5),
    'float16(0.1)': lambda: numpy.float16(0.1),
    'float32(0.1)': lambda: numpy.float32(0.1),
    'float64(0.1)': lambda: numpy.float64(0.1),
    'int8(3)': lambda: numpy.int8(3),
    'int64(3)': lambda: numpy.int64(3),
    'uint8(3)': lambda: numpy.uint8(3),
    'bool_(True)': lambda: numpy.bool_(True),
    '0d_float16(2.5)': lambda: numpy.array(2.5, numpy.float16),
    '0d_float64(0.1)': lambda: numpy.array(0.1, numpy.float64),
    '0d_int32(3)': lambda: numpy.array(3, numpy.int32),
    'array_float16': lambda: numpy.array([2.5, 0.1, 1.25], numpy.float16),
    'array_float64': lambda: numpy.array([2.5, 0.1, 1.25], numpy.float64),
    'array_int32': lambda: numpy.array([2, 1, 3], numpy.int32),
    'matrix_float32': lambda: numpy.array([[2.5], [0.1], [1.25]],
                                          numpy.float32),
}

OPERATORS = {
    'add': operator.add,
    'radd': lambda x, c: c + x,
    'sub': operator.sub,
    'rsub': lambda x, c: c - x,
    'mul': operator.mul,
    'rmul': lambda x, c: c * x,
    'truediv': operator.truediv,
    'rtruediv': lambda x, c: c / x,
    'floordiv': operator.floordiv,
    'rfloordiv': lambda x, c: c // x,
    'pow': operator.pow,
    'rpow': lambda x, c: c ** x,
    'matmul': operator.matmul,
    'rmatmul': lambda x, c: c @ x,
}

# Powers go through the platform's pow and log, which NumPy 1.26 and 2
# round differently in the last place.
_TRANSCENDENTAL = ('pow', 'rpow')

CASES = ['{} {} {}'.format(dtype, operand, op)
         for dtype in VAR_DTYPES for operand in OPERANDS for op in OPERATORS]

FIXTURE = os.path.join(
    os.path.dirname(__file__), 'fixtures', 'original_numpy1_semantics.json')


def _encode(array):
    # dtype, shape and exact values of an array, as JSON-friendly data.
    # (Python floats hold float16/32/64 values exactly, and JSON writes
    # them back and forth exactly.)
    array = numpy.asarray(array)
    return {'dtype': array.dtype.name, 'shape': list(array.shape),
            'values': array.ravel().tolist()}


def evaluate(case):
    """Runs one case and describes its outcome.

    Args:
        case (str): ``'<dtype> <operand> <operator>'``, one of ``CASES``.

    Returns:
        dict: ``{'error': name}`` if the operation raised, else the
        encoded output (see ``_encode``) with its ``label`` and, for float
        inputs, the encoded gradient ``grad`` of the input (``None`` if the
        output has no creator) or the error ``grad_error`` of backward.
    """
    dtype, operand, op = case.split(' ')
    if dtype.startswith('float'):
        data = numpy.array([[1.5, 2.0, 3.25]], dtype)
    else:
        data = numpy.array([[1, 2, 3]], dtype)
    x = chainer.Variable(data)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            y = OPERATORS[op](x, OPERANDS[operand]())
        except Exception as e:
            return {'error': type(e).__name__}
        record = _encode(y.array)
        record['label'] = None if y.creator is None else y.creator.label
        if dtype.startswith('float') and y.creator is not None:
            y.grad = numpy.ones_like(y.array)
            try:
                y.backward()
                record['grad'] = _encode(x.grad)
            except Exception as e:
                record['grad_error'] = type(e).__name__
        return record


@pytest.fixture(scope='module')
def original():
    with open(FIXTURE) as f:
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


@pytest.mark.parametrize('case', CASES)
def test_matches_original(original, case):
    expected = original[case]
    actual = evaluate(case)
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
    assert sorted(original) == sorted(CASES)


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
