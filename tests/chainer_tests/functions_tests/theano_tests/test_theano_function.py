"""TheanoFunction on stand-ins of compiled Theano functions.

Theano does not install here; the function only reads the ``indices`` of
the compiled forward function (the rank and dtype of each input) and calls
the two compiled functions on NumPy arrays, which the stand-ins do.
"""

import types

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.theano import theano_function
from chainer.utils import type_check


def _input(ndim, dtype):
    # What a compiled Theano function says of one of its inputs.
    theano_type = types.SimpleNamespace(ndim=ndim,
                                        numpy_dtype=numpy.dtype(dtype))
    return (types.SimpleNamespace(
        variable=types.SimpleNamespace(type=theano_type)),)


class _Forward:
    """Stands for the compiled ``(x, n) -> (x * n, x + 1)``."""

    indices = [_input(2, numpy.float32), _input(2, numpy.int32)]

    def __call__(self, x, n):
        assert type(x) is numpy.ndarray
        return [(x * n).astype(x.dtype), x + 1]


class _Backward:
    """Stands for its compiled gradient, computed in float64 as Theano may
    do."""

    def __call__(self, x, n, gy0, gy1):
        gx = gy0 * n + gy1
        return [gx.astype(numpy.float64), numpy.zeros(n.shape, n.dtype)]


def _inputs():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    n = numpy.full((2, 3), 2, numpy.int32)
    return x, n


def test_forward():
    x, n = _inputs()
    y0, y1 = theano_function.theano_function(_Forward(), _Backward(), x, n)
    assert isinstance(y0.creator, theano_function.TheanoFunction)
    numpy.testing.assert_array_equal(y0.array, x * 2)
    numpy.testing.assert_array_equal(y1.array, x + 1)


def test_backward():
    x, n = _inputs()
    x = chainer.Variable(x)
    n = chainer.Variable(n)
    y0, y1 = theano_function.theano_function(_Forward(), _Backward(), x, n)
    loss = F.sum(y0) + 3 * F.sum(y1)
    loss.backward()
    # The gradient has the input's dtype; the integer input gets none.
    assert x.grad.dtype == numpy.float32
    numpy.testing.assert_array_equal(x.grad, numpy.full((2, 3), 5))
    assert n.grad is None


@pytest.mark.parametrize('inputs', [
    # Too few inputs, a wrong rank, a wrong dtype.
    (numpy.zeros((2, 3), numpy.float32),),
    (numpy.zeros((6,), numpy.float32), numpy.zeros((2, 3), numpy.int32)),
    (numpy.zeros((2, 3), numpy.float64), numpy.zeros((2, 3), numpy.int32)),
])
def test_invalid_inputs(inputs):
    with pytest.raises(type_check.InvalidType):
        theano_function.theano_function(_Forward(), _Backward(), *inputs)
