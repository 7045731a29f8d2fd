import warnings

import numpy
import pytest

import chainer
from chainer.distributions import utils
from chainer import gradient_check
from chainer import testing


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', [(2, 3), ()])
def test_modified_xlogx(dtype, shape):
    rng = numpy.random.RandomState(0)
    x = numpy.asarray(rng.uniform(0.1, 1, shape), dtype)
    gy = numpy.asarray(rng.normal(size=shape), dtype)
    ggx = numpy.asarray(rng.normal(size=shape), dtype)
    y = utils._modified_xlogx(x)
    assert y.dtype == dtype
    testing.assert_allclose(y.array, x * numpy.log(x))
    gradient_check.check_backward(
        utils._modified_xlogx, x, gy, dtype=numpy.float64, atol=1e-3,
        rtol=1e-3)
    gradient_check.check_double_backward(
        utils._modified_xlogx, x, gy, ggx, dtype=numpy.float64, atol=1e-3,
        rtol=1e-3)


def test_modified_xlogx_at_zero():
    x = chainer.Variable(numpy.array([0., 0.5], numpy.float32))
    y = utils._modified_xlogx(x)
    testing.assert_allclose(y.array, [0., 0.5 * numpy.log(0.5)])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        chainer.functions.sum(y).backward()
    assert issubclass(w[0].category, RuntimeWarning)
    testing.assert_allclose(x.grad, [0., 1 + numpy.log(0.5)])


@pytest.mark.parametrize('name,args', [
    ('standard_normal', ()), ('gamma', (2.,)), ('uniform', (0, 1))])
def test_random_array_uses_the_global_generator(name, args):
    numpy.random.seed(0)
    y = utils._random_array(numpy, name, (3,), numpy.float32, *args)
    numpy.random.seed(0)
    expected = getattr(numpy.random, name)(*args, size=(3,))
    assert y.dtype == numpy.float32
    numpy.testing.assert_array_equal(y, expected.astype(numpy.float32))
