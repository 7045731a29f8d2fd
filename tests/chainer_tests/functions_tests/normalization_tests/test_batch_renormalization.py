import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
from chainer.utils import type_check


def _expected(x, gamma, beta, running_mean, running_var, rmax, dmax, eps):
    # Batch renormalization in float64 for (N, C, ...) inputs.
    axis = (0,) + tuple(range(gamma.ndim + 1, x.ndim))
    shape = [1 if i in axis else n for i, n in enumerate(x.shape)]
    x = x.astype(numpy.float64)
    mean = x.mean(axis=axis)
    std = numpy.sqrt(x.var(axis=axis) + eps)
    running_std = numpy.sqrt(running_var.astype(numpy.float64) + eps)
    r = numpy.clip(std / running_std, 1. / rmax, rmax)
    d = numpy.clip((mean - running_mean) / running_std, -dmax, dmax)
    x_hat = (x - mean.reshape(shape)) / std.reshape(shape)
    x_renorm = x_hat * r.reshape(shape) + d.reshape(shape)
    return gamma.reshape(shape) * x_renorm + beta.reshape(shape)


def _tol(dtype):
    if dtype == numpy.float16:
        return {'atol': 1e-2, 'rtol': 1e-2}
    return {'atol': 1e-4, 'rtol': 1e-4}


@pytest.mark.parametrize('dtype', [
    numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape, param_shape', [
    ((5, 3), (3,)), ((5, 3, 2, 2), (3,)), ((4, 3, 2), (3, 2))],
    ids=['2d', '4d', '2d-param'])
@pytest.mark.parametrize('rmax, dmax', [(1, 0), (1.5, 0.3), (10, 10)],
                         ids=['bn', 'clipped', 'loose'])
@testing.fix_random()
def test_forward(dtype, shape, param_shape, rmax, dmax):
    x = numpy.random.uniform(-1, 3, shape).astype(dtype)
    gamma = numpy.random.uniform(.5, 1, param_shape).astype(dtype)
    beta = numpy.random.uniform(-1, 1, param_shape).astype(dtype)
    running_mean = numpy.random.uniform(-1, 1, param_shape).astype(dtype)
    running_var = numpy.random.uniform(.5, 2, param_shape).astype(dtype)
    expected = _expected(x, gamma, beta, running_mean, running_var, rmax,
                         dmax, 2e-5)
    y = F.batch_renormalization(x, gamma, beta, rmax, dmax,
                                running_mean=running_mean,
                                running_var=running_var)
    assert y.dtype == dtype
    testing.assert_allclose(y.array, expected, **_tol(dtype))


@pytest.mark.parametrize('dtype', [
    numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('case', ['bn', 'r-low', 'r-high'])
@testing.fix_random()
def test_backward(dtype, case):
    # r and d are constants of backprop; they are constant functions of x
    # too when fixed at 1 and 0 or when clipped.
    shape = (6, 3, 2)
    x = numpy.random.uniform(-1, 1, shape).astype(dtype)
    gamma = numpy.random.uniform(.5, 1, 3).astype(dtype)
    beta = numpy.random.uniform(-1, 1, 3).astype(dtype)
    if case == 'bn':
        rmax, dmax = 1, 0
        running_mean = numpy.zeros(3, dtype)
        running_var = numpy.ones(3, dtype)
    else:
        rmax, dmax = 2, 0.5
        running_mean = numpy.full(3, 10, dtype)
        running_var = numpy.full(3, 100 if case == 'r-low' else 0.01, dtype)

    def f(x, gamma, beta):
        return F.batch_renormalization(
            x, gamma, beta, rmax, dmax, eps=1e-3, running_mean=running_mean,
            running_var=running_var)

    gy = numpy.random.uniform(-1, 1, shape).astype(dtype)
    tol = _tol(dtype) if dtype == numpy.float16 else {
        'atol': 1e-3, 'rtol': 1e-3}
    gradient_check.check_backward(f, (x, gamma, beta), gy,
                                  dtype=numpy.float64, **tol)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@testing.fix_random()
def test_backward_treats_r_and_d_as_constants(dtype):
    x = chainer.Variable(numpy.random.uniform(-1, 1, (5, 3)).astype(dtype))
    gamma = numpy.random.uniform(.5, 1, 3).astype(dtype)
    beta = numpy.zeros(3, dtype)
    running_mean = numpy.random.uniform(-.1, .1, 3).astype(dtype)
    running_var = numpy.random.uniform(.2, .5, 3).astype(dtype)
    gy = numpy.random.uniform(-1, 1, (5, 3)).astype(dtype)
    y = F.batch_renormalization(x, gamma, beta, 3, 2, eps=1e-3,
                                running_mean=running_mean,
                                running_var=running_var)
    y.grad = gy
    y.backward()
    # Batch normalization's gradient, scaled by r.
    x64 = x.array.astype(numpy.float64)
    std = numpy.sqrt(x64.var(axis=0) + 1e-3)
    r = numpy.clip(std / numpy.sqrt(running_var + 1e-3), 1 / 3, 3)
    x_hat = (x64 - x64.mean(axis=0)) / std
    expected = r * gamma / std * (
        gy - gy.mean(axis=0) - x_hat * (gy * x_hat).mean(axis=0))
    testing.assert_allclose(x.grad, expected, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize('update', [False, True])
def test_running_statistics(update):
    rng = numpy.random.RandomState(0)
    gamma = numpy.ones(3, numpy.float32)
    beta = numpy.zeros(3, numpy.float32)
    running_mean = numpy.zeros(3, numpy.float32)
    running_var = numpy.ones(3, numpy.float32)
    expected_mean = numpy.zeros(3)
    expected_var = numpy.ones(3)
    decay = 0.8
    for _ in range(3):
        x = rng.uniform(-1, 3, (4, 3, 2)).astype(numpy.float32)
        F.batch_renormalization(
            x, gamma, beta, 2, 1, running_mean=running_mean,
            running_var=running_var, decay=decay, update_statistics=update)
        if update:
            m = 8
            expected_mean = (decay * expected_mean
                             + (1 - decay) * x.mean(axis=(0, 2)))
            expected_var = (decay * expected_var + (1 - decay) * m / (m - 1)
                            * x.var(axis=(0, 2)))
        testing.assert_allclose(running_mean, expected_mean, atol=1e-6)
        testing.assert_allclose(running_var, expected_var, atol=1e-6)


def test_running_statistics_required():
    x = numpy.ones((2, 3), numpy.float32)
    gamma = numpy.ones(3, numpy.float32)
    with pytest.raises(TypeError):
        F.batch_renormalization(x, gamma, gamma, 1, 0, running_var=gamma)
    with pytest.raises(TypeError):
        F.batch_renormalization(x, gamma, gamma, 1, 0, running_mean=gamma)


def test_invalid_type():
    gamma = numpy.ones(3, numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.batch_renormalization(
            numpy.ones((2, 4), numpy.float32), gamma, gamma, 1, 0,
            running_mean=gamma, running_var=gamma)
    with pytest.raises(type_check.InvalidType):
        F.batch_renormalization(
            numpy.ones((2, 3), numpy.int32), gamma, gamma, 1, 0,
            running_mean=gamma, running_var=gamma)


def test_old_style_function():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    gamma = numpy.ones(3, numpy.float32)
    y = F.batch_renormalization(x, gamma, gamma, 1, 0, running_mean=gamma,
                                running_var=gamma)
    assert y.creator.label == 'BatchRenormalizationFunction'
    function = y.creator
    assert isinstance(function, chainer.Function)
    with pytest.warns(DeprecationWarning):
        assert function.running_mean is gamma
    with pytest.warns(DeprecationWarning):
        assert function.running_var is gamma


@testing.fix_random()
def test_fixed_batch_renormalization():
    x = numpy.random.uniform(-1, 1, (4, 3, 2)).astype(numpy.float32)
    gamma, beta, mean, var = [
        numpy.random.uniform(.5, 1, 3).astype(numpy.float32)
        for _ in range(4)]
    with pytest.warns(DeprecationWarning):
        y = F.fixed_batch_renormalization(x, gamma, beta, mean, var)
    expected = F.fixed_batch_normalization(x, gamma, beta, mean, var)
    testing.assert_allclose(y.array, expected.array)
