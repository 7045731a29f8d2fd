import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64, numpy.int32])
@pytest.mark.parametrize('shape', [(3, 4), (), (0, 2)], ids=str)
def test_forward(dtype, shape):
    x = numpy.random.RandomState(0).uniform(-2, 2, shape).astype(dtype)
    y = F.sign(x)
    assert isinstance(y, chainer.Variable)
    assert isinstance(y.array, numpy.ndarray)
    assert y.dtype == dtype
    assert y.shape == shape
    numpy.testing.assert_array_equal(y.array, numpy.sign(x))


def test_values():
    x = numpy.array([-3., -0., 0., 2.5], numpy.float32)
    numpy.testing.assert_array_equal(F.sign(x).array, [-1, 0, 0, 1])


def test_cuts_the_graph():
    x = chainer.Variable(numpy.array([-1., 2.], numpy.float32))
    y = F.sign(x)
    assert y.creator is None
    assert not y.requires_grad


@testing.attr.gpu
def test_gpu():
    import cupy
    y = F.sign(chainer.Variable(cupy.array([-2., 0., 5.], cupy.float32)))
    assert isinstance(y.array, cupy.ndarray)
    testing.assert_allclose(y.array, [-1, 0, 1])
