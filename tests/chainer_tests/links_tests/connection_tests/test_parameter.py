import numpy
import pytest

from chainer.links.connection import parameter


def test_holds_the_array_and_passes_gradient():
    array = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    link = parameter.Parameter(array)
    assert link.W.array is array
    assert link.W.shape == (2, 3) and link.W.dtype == numpy.float32
    y = link()
    assert y is not link.W
    numpy.testing.assert_array_equal(y.array, array)
    link.cleargrads()
    y.grad = numpy.full((2, 3), 2, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(link.W.grad, numpy.full((2, 3), 2))
    assert str(link) == 'Parameter()'


def test_float64():
    link = parameter.Parameter(numpy.zeros(3))
    assert link.W.dtype == numpy.float64
    assert [name for name, _ in link.namedparams()] == ['/W']


@pytest.mark.gpu
def test_gpu_array_moves_the_link():
    import cupy
    link = parameter.Parameter(cupy.ones(3, numpy.float32))
    assert isinstance(link.W.array, cupy.ndarray)
    assert link.xp is cupy
