import numpy

import chainer
from chainer import gradient_check
from chainer.links.activation import swish


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def test_forward_with_shape():
    link = swish.Swish((3,), beta_init=0.5)
    assert link.beta.shape == (3,) and (link.beta.array == 0.5).all()
    x = _x(2, 3)
    numpy.testing.assert_allclose(
        link(x).array, x / (1 + numpy.exp(-0.5 * x)), rtol=1e-6)


def test_lazy_shape():
    link = swish.Swish(None, 2.0)
    assert link.beta.array is None
    x = _x(2, 3, 4)
    y = link(x)
    assert link.beta.shape == (3, 4)
    numpy.testing.assert_allclose(y.array, x / (1 + numpy.exp(-2 * x)),
                                  rtol=1e-6)


def test_backward():
    with chainer.using_config('dtype', numpy.float64):
        link = swish.Swish((3,))
    gradient_check.check_backward(
        link, _x(2, 3, dtype=numpy.float64),
        _x(2, 3, dtype=numpy.float64, seed=1), params=(link.beta,))
