import numpy

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer.links.connection import highway


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def _sigmoid(a):
    return 1 / (1 + numpy.exp(-a))


def test_forward_against_numpy():
    link = highway.Highway(3, init_bh=0.2)
    x = _x(4, 3)
    h = numpy.maximum(x.dot(link.plain.W.array.T) + 0.2, 0)
    t = _sigmoid(x.dot(link.transform.W.array.T) - 1)
    numpy.testing.assert_allclose(
        link(x).array, h * t + x * (1 - t), rtol=1e-5, atol=1e-6)


def test_children_and_defaults():
    link = highway.Highway(3)
    assert link.plain.W.shape == (3, 3)
    numpy.testing.assert_array_equal(link.transform.b.array, [-1, -1, -1])
    numpy.testing.assert_array_equal(link.plain.b.array, [0, 0, 0])
    assert str(link) == (
        'Highway(\n'
        '  (plain): Linear(in_size=3, out_size=3, nobias=False),\n'
        '  (transform): Linear(in_size=3, out_size=3, nobias=False),\n'
        ')')
    link = highway.Highway(2, nobias=True, activate=F.tanh)
    assert link.plain.b is None and link.transform.b is None
    x = _x(1, 2)
    t = _sigmoid(x.dot(link.transform.W.array.T))
    h = numpy.tanh(x.dot(link.plain.W.array.T))
    numpy.testing.assert_allclose(link(x).array, h * t + x * (1 - t),
                                  rtol=1e-5, atol=1e-6)


def test_backward():
    with chainer.using_config('dtype', numpy.float64):
        link = highway.Highway(3)
    gradient_check.check_backward(
        link, _x(2, 3, dtype=numpy.float64),
        _x(2, 3, dtype=numpy.float64, seed=1),
        params=tuple(link.params()))
