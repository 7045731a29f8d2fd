import numpy
import pytest

from chainer import gradient_check
from chainer.links.connection import bilinear


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def test_forward_against_numpy():
    link = bilinear.Bilinear(2, 3, 4)
    link.b.array[...] = _x(4, seed=5)
    e1 = _x(5, 2)
    e2 = _x(5, 3, seed=1)
    expected = numpy.einsum('ni,nj,ijk->nk', e1, e2, link.W.array) + \
        e1.dot(link.V1.array) + e2.dot(link.V2.array) + link.b.array
    numpy.testing.assert_allclose(link(e1, e2).array, expected, rtol=1e-5,
                                  atol=1e-6)


def test_parameters():
    link = bilinear.Bilinear(2, 3, 4)
    assert link.W.shape == (2, 3, 4)
    assert link.V1.shape == (2, 4) and link.V2.shape == (3, 4)
    assert (link.b.array == 0).all()
    assert link.in_sizes == (2, 3)
    link = bilinear.Bilinear(2, 3, 4, nobias=True)
    assert not hasattr(link, 'V1')
    e1, e2 = _x(1, 2), _x(1, 3, seed=1)
    numpy.testing.assert_allclose(
        link(e1, e2).array,
        numpy.einsum('ni,nj,ijk->nk', e1, e2, link.W.array), rtol=1e-5)


def test_initial_bias_tuple():
    V1, V2 = _x(2, 4), _x(3, 4, seed=1)
    link = bilinear.Bilinear(2, 3, 4, initialW=0.5,
                             initial_bias=(V1, V2, 1.5))
    assert (link.W.array == 0.5).all()
    numpy.testing.assert_array_equal(link.V1.array, V1)
    numpy.testing.assert_array_equal(link.V2.array, V2)
    assert (link.b.array == 1.5).all()
    with pytest.raises(AssertionError):
        bilinear.Bilinear(2, 3, 4, initial_bias=(V2, V1, 0))
    with pytest.raises(ValueError, match='tuple or None'):
        bilinear.Bilinear(2, 3, 4, initial_bias=0)
    with pytest.raises(AssertionError):
        bilinear.Bilinear(2, 3, 4, initialW=_x(2, 4, 3))


def test_backward():
    # The bilinear function takes float32 only.
    link = bilinear.Bilinear(2, 3, 2)
    gradient_check.check_backward(
        link, (_x(3, 2), _x(3, 3, seed=1)), _x(3, 2, seed=2),
        params=tuple(link.params()), eps=1e-2, atol=1e-3, rtol=1e-2)
