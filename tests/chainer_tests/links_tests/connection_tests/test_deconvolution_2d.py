import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer.links.connection import deconvolution_2d


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def test_forward_is_transposed_convolution():
    link = deconvolution_2d.Deconvolution2D(
        3, 2, 3, stride=2, pad=1, initial_bias=_x(2, seed=2))
    assert link.W.shape == (3, 2, 3, 3)
    x = _x(2, 3, 4, 4)
    y = link(x)
    # Scatter each input pixel times the filter onto the output.
    full = numpy.zeros((2, 2, 9, 9))
    for i in range(4):
        for j in range(4):
            full[:, :, 2 * i:2 * i + 3, 2 * j:2 * j + 3] += numpy.einsum(
                'nc,cokl->nokl', x[:, :, i, j], link.W.array)
    expected = full[:, :, 1:-1, 1:-1] + link.b.array[:, None, None]
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-5)


def test_lazy_initialization_groups_and_outsize():
    link = deconvolution_2d.Deconvolution2D(
        4, 3, stride=2, outsize=(8, 8), groups=2)
    assert link.outsize == (8, 8)
    y = link(_x(1, 2, 4, 4))
    assert link.W.shape == (2, 2, 3, 3)
    assert y.shape == (1, 4, 8, 8)
    expected = F.deconvolution_2d(_x(1, 2, 4, 4), link.W, link.b, 2,
                                  outsize=(8, 8), groups=2)
    numpy.testing.assert_array_equal(y.array, expected.array)


def test_defaults():
    link = deconvolution_2d.Deconvolution2D(2, 3, 2, nobias=True)
    assert link.b is None
    assert link.outsize == (None, None)
    assert link.stride == (1, 1) and link.pad == (0, 0)
    assert link.dilate == (1, 1)
    with pytest.raises(AssertionError):
        deconvolution_2d.Deconvolution2D(2, 3, 2, initial_bias=_x(2))
    with pytest.raises(ValueError):
        deconvolution_2d.Deconvolution2D(2, 3, 2, deterministic=True)


def test_str_like_original():
    assert str(deconvolution_2d.Deconvolution2D(3, 2, 4)) == \
        'Deconvolution2D()'


def test_backward():
    with chainer.using_config('dtype', numpy.float64):
        link = deconvolution_2d.Deconvolution2D(
            2, 2, 2, stride=2, initial_bias=_x(2, seed=3))
    x = _x(1, 2, 2, 2, dtype=numpy.float64)
    gy = _x(1, 2, 4, 4, dtype=numpy.float64, seed=1)
    gradient_check.check_backward(link, x, gy, params=(link.W, link.b))
