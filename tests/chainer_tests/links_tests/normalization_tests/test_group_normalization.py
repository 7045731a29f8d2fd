import numpy
import pytest

import chainer
from chainer import gradient_check
from chainer import initializers
from chainer.links.normalization import group_normalization as gn_module


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def _reference(x, groups, gamma, beta, eps):
    n, c = x.shape[:2]
    g = x.reshape(n, groups, -1).astype(numpy.float64)
    g = (g - g.mean(axis=2, keepdims=True)) / numpy.sqrt(
        g.var(axis=2, keepdims=True) + eps)
    y = g.reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return y * gamma.reshape(shape) + beta.reshape(shape)


def test_forward_against_numpy():
    link = gn_module.GroupNormalization(2, 4, initial_gamma=_x(4, seed=1),
                                        initial_beta=_x(4, seed=2))
    x = _x(3, 4, 5)
    numpy.testing.assert_allclose(
        link(x).array,
        _reference(x, 2, link.gamma.array, link.beta.array, 1e-5),
        rtol=1e-5, atol=1e-5)


def test_lazy_initialization_and_defaults():
    link = gn_module.GroupNormalization(3)
    assert link.groups == 3 and link.eps == 1e-5
    assert link.gamma.array is None
    link(_x(2, 6, 2))
    assert link.gamma.shape == (6,) and (link.gamma.array == 1).all()
    assert (link.beta.array == 0).all()
    with pytest.raises(ValueError, match='at least 2'):
        gn_module.GroupNormalization(1)(_x(3))


def test_initializer_dtype_follows_config():
    with chainer.using_config('dtype', numpy.float64):
        link = gn_module.GroupNormalization(
            1, 2, initial_gamma=initializers.Constant(3))
    assert link.gamma.dtype == numpy.float64
    assert (link.gamma.array == 3).all()


def test_backward():
    with chainer.using_config('dtype', numpy.float64):
        link = gn_module.GroupNormalization(2, 4)
    gradient_check.check_backward(
        link, _x(2, 4, 3, dtype=numpy.float64),
        _x(2, 4, 3, dtype=numpy.float64, seed=1),
        params=(link.gamma, link.beta), atol=1e-4, rtol=1e-3)
