import numpy
import pytest

from chainer import functions as F
from chainer.link_hooks import weight_standardization as ws
from chainer.links.connection import convolution_2d
from chainer.links.connection import linear


def _x(*shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype('f')


def _standardize(W, eps):
    flat = W.reshape(len(W), -1).astype(numpy.float64)
    flat = (flat - flat.mean(axis=1, keepdims=True)) / numpy.sqrt(
        flat.var(axis=1, keepdims=True) + eps)
    return flat.reshape(W.shape)


def test_convolution_sees_standardized_weight():
    link = convolution_2d.Convolution2D(2, 3, 3, initial_bias=0.5)
    link.add_hook(ws.WeightStandardization())
    x = _x(1, 2, 4, 4)
    expected = F.convolution_2d(
        x, _standardize(link.W.array, 1e-5).astype('f'), link.b).array
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-4,
                                  atol=1e-5)
    assert link.W.shape == (3, 2, 3, 3)


def test_lazy_linear_and_gradient():
    link = linear.Linear(4)
    link.add_hook(ws.WeightStandardization(eps=1e-3))
    x = _x(2, 3)
    y = link(x)
    numpy.testing.assert_allclose(
        y.array, x.dot(_standardize(link.W.array, 1e-3).T), rtol=1e-4,
        atol=1e-5)
    link.cleargrads()
    F.sum(y).backward()
    assert link.W.grad.shape == (4, 3)
    # Standardization removes the mean: each row's gradient sums to zero.
    numpy.testing.assert_allclose(link.W.grad.sum(axis=1), 0, atol=1e-5)


def test_errors():
    with pytest.raises(ValueError, match='does not exist'):
        linear.Linear(3, 2).add_hook(ws.WeightStandardization(
            weight_name='V'))
    with pytest.raises(NotImplementedError):
        with ws.WeightStandardization():
            pass
    with pytest.raises(TypeError):
        ws.WeightStandardization(1e-5)
