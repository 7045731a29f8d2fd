import numpy
import pytest

import chainer
from chainer import gradient_check
from chainer.links.connection import scale


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def test_learnt_scale_and_bias():
    link = scale.Scale(axis=1, W_shape=(3,), bias_term=True)
    assert (link.W.array == 1).all()
    assert link.bias.b.shape == (3,)
    link.W.array[...] = [1, 2, 3]
    link.bias.b.array[...] = [0.5, 0, -0.5]
    x = _x(2, 3, 4)
    expected = x * numpy.array([1, 2, 3])[:, None] + \
        numpy.array([0.5, 0, -0.5])[:, None]
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-6)
    assert sorted(name for name, _ in link.namedparams()) == \
        ['/W', '/bias/b']
    assert str(link) == 'Scale(\n  (bias): Bias(),\n)'


def test_given_scale():
    link = scale.Scale(axis=0, bias_term=True, bias_shape=(3,))
    assert not hasattr(link, 'W')
    x = _x(3, 2)
    y = _x(3, seed=3)
    numpy.testing.assert_allclose(link(x, y).array, x * y[:, None],
                                  rtol=1e-6)
    link = scale.Scale()
    numpy.testing.assert_allclose(link(_x(2, 3), _x(3, seed=3)).array,
                                  _x(2, 3) * _x(3, seed=3), rtol=1e-6)


def test_bias_shape_required():
    with pytest.raises(ValueError, match='bias_shape'):
        scale.Scale(bias_term=True)


def test_backward():
    with chainer.using_config('dtype', numpy.float64):
        link = scale.Scale(W_shape=(3,), bias_term=True)
    link.W.array[...] = _x(3, dtype=numpy.float64, seed=2)
    gradient_check.check_backward(
        link, _x(2, 3, dtype=numpy.float64),
        _x(2, 3, dtype=numpy.float64, seed=1),
        params=(link.W, link.bias.b))
