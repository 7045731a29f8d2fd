import numpy

import chainer
from chainer import gradient_check
from chainer.links.normalization import layer_normalization as ln_module


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def test_forward_against_numpy():
    link = ln_module.LayerNormalization(6, initial_beta=0.5)
    link.gamma.array[...] = _x(6, seed=1)
    x = _x(3, 6)
    normalized = (x - x.mean(axis=1, keepdims=True)) / numpy.sqrt(
        x.var(axis=1, keepdims=True) + 1e-6)
    numpy.testing.assert_allclose(
        link(x).array, normalized * link.gamma.array + 0.5, rtol=1e-4,
        atol=1e-5)


def test_lazy_initialization_and_defaults():
    link = ln_module.LayerNormalization()
    assert link.eps == 1e-6 and link.gamma.array is None
    link(_x(2, 5))
    assert link.gamma.shape == (5,) and (link.gamma.array == 1).all()
    assert link.beta.shape == (5,) and (link.beta.array == 0).all()


def test_backward():
    with chainer.using_config('dtype', numpy.float64):
        link = ln_module.LayerNormalization(4)
    gradient_check.check_backward(
        link, _x(3, 4, dtype=numpy.float64),
        _x(3, 4, dtype=numpy.float64, seed=1),
        params=(link.gamma, link.beta), atol=1e-4, rtol=1e-3)
