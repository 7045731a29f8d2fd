import numpy
import pytest

import chainer
from chainer import gradient_check
from chainer import initializers
from chainer.links.activation import maxout


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def test_forward_against_numpy():
    link = maxout.Maxout(3, 2, 4, initialW=_x(2, 4, 3, seed=2),
                         initial_bias=_x(2, 4, seed=1))
    x = _x(5, 3)
    pieces = x.dot(link.linear.W.array.T) + link.linear.b.array
    expected = pieces.reshape(5, 2, 4).max(axis=2)
    # Sums of three float32 products: a few units in the last place of the
    # largest term, absolute near zero.
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-5,
                                  atol=1e-6)
    assert link.linear.W.shape == (8, 3)
    assert link.out_size == 2 and link.pool_size == 4


def test_array_initializers_are_unflattened():
    W = _x(2, 3, 4)
    link = maxout.Maxout(4, 2, 3, initialW=W, initial_bias=None)
    numpy.testing.assert_array_equal(link.linear.W.array, W.reshape(6, 4))
    assert link.linear.b is None
    with pytest.raises(ValueError, match='initialW.ndim'):
        maxout.Maxout(4, 2, 3, initialW=W.reshape(6, 4))
    with pytest.raises(ValueError, match='initial_bias.ndim'):
        maxout.Maxout(4, 2, 3, initial_bias=_x(6))


def test_callable_initializers_see_unflattened_shape():
    shapes = []

    def init_w(array):
        shapes.append(array.shape)
        array[...] = numpy.arange(array.size).reshape(array.shape)

    def init_b(array):
        shapes.append(array.shape)
        array[...] = 7

    link = maxout.Maxout(4, 2, 3, initialW=init_w, initial_bias=init_b)
    assert shapes == [(2, 3, 4), (2, 3)]
    numpy.testing.assert_array_equal(
        link.linear.W.array, numpy.arange(24).reshape(6, 4))
    assert (link.linear.b.array == 7).all()


def test_initializer_objects_pass_through():
    link = maxout.Maxout(4, 2, 3, initialW=initializers.Constant(2.0),
                         initial_bias=initializers.One())
    assert (link.linear.W.array == 2).all()
    assert (link.linear.b.array == 1).all()


def test_backward():
    x = _x(4, 3, dtype=numpy.float64)
    with chainer.using_config('dtype', numpy.float64):
        link = maxout.Maxout(3, 2, 3, initialW=_x(2, 3, 3, seed=7),
                             initial_bias=_x(2, 3, seed=1))
    # Finite differences are valid only away from ties of the maximum.
    pieces = numpy.sort(
        (x.dot(link.linear.W.array.T) + link.linear.b.array)
        .reshape(4, 2, 3), axis=2)
    assert (pieces[..., -1] - pieces[..., -2]).min() > 0.1
    gradient_check.check_backward(
        link, x, _x(4, 2, dtype=numpy.float64, seed=2),
        params=(link.linear.W, link.linear.b))
