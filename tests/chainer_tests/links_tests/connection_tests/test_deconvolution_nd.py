import numpy
import pytest

from chainer import functions as F
from chainer.links.connection import deconvolution_nd


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@pytest.mark.parametrize('ndim', [1, 2, 3])
def test_forward_matches_function(ndim):
    link = deconvolution_nd.DeconvolutionND(
        ndim, 2, 3, 2, stride=2, initial_bias=_x(3, seed=1))
    assert link.W.shape == (2, 3) + (2,) * ndim
    x = _x(*((1, 2) + (3,) * ndim))
    y = link(x)
    assert y.shape == (1, 3) + (6,) * ndim
    expected = F.deconvolution_nd(x, link.W, link.b, stride=2)
    numpy.testing.assert_array_equal(y.array, expected.array)


def test_one_dimensional_against_numpy():
    link = deconvolution_nd.Deconvolution1D(2, 1, 3, stride=2, nobias=True)
    x = _x(1, 2, 3)
    expected = numpy.zeros((1, 1, 7))
    for i in range(3):
        expected[:, :, 2 * i:2 * i + 3] += numpy.einsum(
            'nc,cok->nok', x[:, :, i], link.W.array)
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-5,
                                  atol=1e-6)


def test_lazy_initialization_outsize_groups():
    link = deconvolution_nd.Deconvolution3D(
        None, 4, 2, stride=2, outsize=(5, 4, 4), groups=2)
    y = link(_x(1, 2, 2, 2, 2))
    assert link.W.shape == (2, 2, 2, 2, 2)
    assert y.shape == (1, 4, 5, 4, 4)


def test_two_argument_form():
    link = deconvolution_nd.DeconvolutionND(2, 3, 2)
    assert link.out_channels == 3 and link.ksize == (2, 2)
    assert link.W.array is None
    assert str(link) == 'DeconvolutionND()'


def test_groups_must_divide_channels():
    with pytest.raises(ValueError):
        deconvolution_nd.DeconvolutionND(1, 2, 3, 1, groups=2)
