import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64, numpy.int32])
@pytest.mark.parametrize('shape', [(3, 4), (), (0, 2)], ids=str)
def test_forward(dtype, shape):
    x = numpy.random.RandomState(0).uniform(-5, 5, shape).astype(dtype)
    y = F.floor(x)
    assert isinstance(y, chainer.Variable)
    assert isinstance(y.array, numpy.ndarray)
    assert y.dtype == dtype
    assert y.shape == shape
    numpy.testing.assert_array_equal(y.array, numpy.floor(x))


def test_values():
    x = numpy.array([-1.5, -1., 0.5, 2.], numpy.float32)
    numpy.testing.assert_array_equal(F.floor(x).array, [-2, -1, 0, 2])


def test_cuts_the_graph():
    x = chainer.Variable(numpy.array([-1.5, 2.5], numpy.float32))
    y = F.floor(x)
    assert y.creator is None
    assert not y.requires_grad


@testing.attr.gpu
def test_gpu():
    import cupy
    y = F.floor(chainer.Variable(cupy.array([-1.5, 0.5], cupy.float32)))
    assert isinstance(y.array, cupy.ndarray)
    testing.assert_allclose(y.array, [-2, 0])


def test_large_integers_go_through_float64():
    # As NumPy 1 did: the floor of an int64 is computed in float64.
    x = numpy.array([2 ** 53 + 1, -(2 ** 53) - 1, 7], numpy.int64)
    numpy.testing.assert_array_equal(
        F.floor(x).array, x.astype(numpy.float64).astype(numpy.int64))
