import numpy
import pytest

import chainer
from chainer import gradient_check
from chainer.links.connection import bias


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def test_learnt_bias():
    link = bias.Bias(axis=1, shape=(3, 2))
    assert link.b.shape == (3, 2) and (link.b.array == 0).all()
    link.b.array[...] = _x(3, 2, seed=1)
    x = _x(4, 3, 2, 5)
    numpy.testing.assert_allclose(
        link(x).array, x + link.b.array[None, :, :, None], rtol=1e-6)


def test_given_bias():
    link = bias.Bias(axis=0)
    assert not hasattr(link, 'b')
    assert list(link.params()) == []
    x = _x(3, 4)
    y = _x(3, seed=2)
    numpy.testing.assert_allclose(link(x, y).array, x + y[:, None],
                                  rtol=1e-6)


def test_argument_count_checked_in_debug_mode():
    link = bias.Bias(shape=(3,))
    with chainer.using_config('debug', True), pytest.raises(AssertionError):
        link(_x(2, 3), _x(3))


def test_backward():
    with chainer.using_config('dtype', numpy.float64):
        link = bias.Bias(axis=1, shape=(3,))
    gradient_check.check_backward(
        link, _x(2, 3, 4, dtype=numpy.float64),
        _x(2, 3, 4, dtype=numpy.float64, seed=1), params=(link.b,))
