import warnings

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.normalization import batch_normalization
from chainer import gradient_check
from chainer import testing
from chainer.utils import type_check


BACKENDS = [{}, {'use_cuda': True}]


def _expected(x, gamma, beta, mean, var, eps, axis):
    # y in float64, the parameters expanded along the aggregated axes.
    shape = [1 if i in axis else n for i, n in enumerate(x.shape)]
    x = x.astype(numpy.float64)

    def expand(a):
        return a.astype(numpy.float64).reshape(shape)
    return (expand(gamma) * (x - expand(mean)) / numpy.sqrt(expand(var) + eps)
            + expand(beta))


def _default_axis(x_ndim, param_ndim):
    return (0,) + tuple(range(param_ndim + 1, x_ndim))


def _tolerances(dtype):
    if dtype == numpy.float16:
        return ({'atol': 1e-2, 'rtol': 1e-2},
                {'atol': 5e-2, 'rtol': 5e-2})
    return ({'atol': 1e-4, 'rtol': 1e-3},
            {'atol': 1e-3, 'rtol': 1e-2})


@testing.parameterize(*(testing.product({
    'param_shape': [(3,), (3, 4)],
    'ndim': [0, 2],
    'eps': [2e-5, 5e-1],
    'dtype': [numpy.float32],
    'param_dtype': [None],
}) + testing.product({
    'param_shape': [(3,)],
    'ndim': [1],
    'eps': [2e-5],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'param_dtype': [None],
}) + [
    # float16 inputs with float32 parameters (mixed precision)
    {'param_shape': (3,), 'ndim': 1, 'eps': 2e-5, 'dtype': numpy.float16,
     'param_dtype': numpy.float32},
]))
@testing.fix_random()
@testing.inject_backend_tests(None, BACKENDS)
class TestBatchNormalization(testing.FunctionTestCase):

    def setUp(self):
        fwd, bwd = _tolerances(self.dtype)
        self.check_forward_options = fwd
        self.check_backward_options = bwd
        self.check_double_backward_options = bwd
        self.axis = _default_axis(1 + len(self.param_shape) + self.ndim,
                                  len(self.param_shape))

    def generate_inputs(self):
        param_dtype = self.param_dtype or self.dtype
        shape = (5,) + self.param_shape + (2,) * self.ndim
        x = numpy.random.uniform(-1, 1, shape).astype(self.dtype)
        gamma = numpy.random.uniform(.5, 1, self.param_shape).astype(
            param_dtype)
        beta = numpy.random.uniform(-1, 1, self.param_shape).astype(
            param_dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return F.batch_normalization(x, gamma, beta, eps=self.eps),

    def forward_expected(self, inputs):
        x, gamma, beta = inputs
        x64 = x.astype(numpy.float64)
        mean = x64.mean(axis=self.axis).reshape(gamma.shape)
        var = x64.var(axis=self.axis).reshape(gamma.shape)
        y = _expected(x, gamma, beta, mean, var, self.eps, self.axis)
        return y.astype(self.dtype),


@testing.parameterize(*(testing.product({
    'param_shape': [(3,), (3, 4)],
    'ndim': [0, 2],
    'dtype': [numpy.float32],
    'param_dtype': [None],
}) + testing.product({
    'param_shape': [(3,)],
    'ndim': [1],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'param_dtype': [None],
}) + [
    {'param_shape': (3,), 'ndim': 1, 'dtype': numpy.float16,
     'param_dtype': numpy.float32},
]))
@testing.fix_random()
@testing.inject_backend_tests(None, BACKENDS)
class TestFixedBatchNormalization(testing.FunctionTestCase):

    eps = 2e-5

    def setUp(self):
        fwd, bwd = _tolerances(self.dtype)
        self.check_forward_options = fwd
        self.check_backward_options = bwd
        self.check_double_backward_options = bwd
        self.axis = _default_axis(1 + len(self.param_shape) + self.ndim,
                                  len(self.param_shape))

    def generate_inputs(self):
        param_dtype = self.param_dtype or self.dtype
        shape = (5,) + self.param_shape + (2,) * self.ndim
        x = numpy.random.uniform(-1, 1, shape).astype(self.dtype)
        gamma, beta, mean = [
            numpy.random.uniform(lo, 1, self.param_shape).astype(param_dtype)
            for lo in (.5, -1, -1)]
        var = numpy.random.uniform(.5, 1, self.param_shape).astype(
            param_dtype)
        return x, gamma, beta, mean, var

    def forward(self, inputs, device):
        return F.fixed_batch_normalization(*inputs, eps=self.eps),

    def forward_expected(self, inputs):
        y = _expected(*inputs, eps=self.eps, axis=self.axis)
        return y.astype(self.dtype),


@pytest.mark.parametrize('shape, param_shape, axis', [
    ((4, 3, 2), (3, 2), None),
    ((4, 3, 2), (3,), (0, 2)),
    ((4, 3, 2), (4, 2), 1),
    ((4, 3, 5), (4, 3), (2,)),
    ((4, 3, 2), (3,), [0, 2]),
    ((4, 3, 2, 5), (3, 5), (0, 2)),
    ((6,), (), None),
], ids=['none', '0-2', 'int1', 'last', 'list', '4d-0-2', 'vector'])
@pytest.mark.parametrize('fixed', [False, True])
@testing.fix_random()
def test_axis(shape, param_shape, axis, fixed):
    rng = numpy.random.RandomState(0)
    eps = 1e-2
    x = rng.uniform(-1, 1, shape).astype(numpy.float64)
    gamma = rng.uniform(.5, 1, param_shape)
    beta = rng.uniform(-1, 1, param_shape)
    if axis is None:
        agg = _default_axis(len(shape), len(param_shape))
    else:
        agg = tuple(axis) if not isinstance(axis, int) else (axis,)
    if fixed:
        mean = rng.uniform(-1, 1, param_shape)
        var = rng.uniform(.5, 1, param_shape)

        def f(x, gamma, beta):
            return F.fixed_batch_normalization(
                x, gamma, beta, mean, var, eps=eps, axis=axis)
    else:
        keep = [i for i in range(len(shape)) if i not in agg]
        mean = x.mean(axis=agg).reshape([shape[i] for i in keep])
        var = x.var(axis=agg).reshape([shape[i] for i in keep])

        def f(x, gamma, beta):
            return F.batch_normalization(x, gamma, beta, eps=eps, axis=axis)
    y = f(x, gamma, beta)
    testing.assert_allclose(
        y.array, _expected(x, gamma, beta, mean, var, eps, agg))
    gy = rng.uniform(-1, 1, shape)
    gradient_check.check_backward(f, (x, gamma, beta), gy, atol=1e-5,
                                  rtol=1e-4)


@pytest.mark.parametrize('dtype, param_dtype', [
    (numpy.float32, numpy.float32),
    (numpy.float64, numpy.float64),
    (numpy.float16, numpy.float16),
    (numpy.float16, numpy.float32),
], ids=['f32', 'f64', 'f16', 'f16-f32'])
def test_running_statistics(dtype, param_dtype):
    rng = numpy.random.RandomState(1)
    gamma = rng.uniform(.5, 1, 3).astype(param_dtype)
    beta = rng.uniform(-1, 1, 3).astype(param_dtype)
    running_mean = numpy.zeros(3, param_dtype)
    running_var = numpy.ones(3, param_dtype)
    expected_mean = numpy.zeros(3)
    expected_var = numpy.ones(3)
    decay = 0.7
    for step in range(3):
        x = rng.uniform(-1, 3, (4, 3, 5)).astype(dtype)
        F.batch_normalization(
            x, gamma, beta, running_mean=running_mean,
            running_var=running_var, decay=decay)
        x64 = x.astype(numpy.float64)
        m = 4 * 5
        expected_mean = (decay * expected_mean
                         + (1 - decay) * x64.mean(axis=(0, 2)))
        expected_var = (decay * expected_var + (1 - decay) * m / (m - 1)
                        * x64.var(axis=(0, 2)))
        assert running_mean.dtype == param_dtype
        tol = 1e-2 if param_dtype == numpy.float16 else 1e-5
        testing.assert_allclose(running_mean, expected_mean, atol=tol,
                                rtol=tol)
        testing.assert_allclose(running_var, expected_var, atol=tol,
                                rtol=tol)


def test_mixed_precision_dtypes():
    x = chainer.Variable(numpy.ones((4, 3), numpy.float16))
    gamma = chainer.Variable(numpy.ones(3, numpy.float32))
    beta = chainer.Variable(numpy.zeros(3, numpy.float32))
    x.array[0] = 3
    y = F.batch_normalization(x, gamma, beta)
    assert y.dtype == numpy.float16
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert x.grad.dtype == numpy.float16
    assert gamma.grad.dtype == numpy.float32
    assert beta.grad.dtype == numpy.float32
    y = F.fixed_batch_normalization(x, gamma, beta, beta, gamma)
    assert y.dtype == numpy.float16


def test_running_statistics_untouched_in_fixed():
    x = numpy.ones((2, 3), numpy.float32)
    mean = numpy.zeros(3, numpy.float32)
    var = numpy.ones(3, numpy.float32)
    F.fixed_batch_normalization(x, mean + 1, mean, mean, var)
    numpy.testing.assert_array_equal(mean, 0)
    numpy.testing.assert_array_equal(var, 1)


def test_single_sample_warns():
    x = numpy.ones((1, 3), numpy.float32)
    gamma = numpy.ones(3, numpy.float32)
    with pytest.warns(UserWarning):
        y = F.batch_normalization(x, gamma, gamma * 0)
    numpy.testing.assert_array_equal(y.array, 0)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        F.batch_normalization(numpy.ones((2, 3), numpy.float32), gamma,
                              gamma * 0)


def test_node_names():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    gamma = chainer.Variable(numpy.ones(3, numpy.float32))
    beta = numpy.zeros(3, numpy.float32)
    y = F.batch_normalization(x, gamma, beta)
    assert y.creator.label == 'BatchNormalization'
    gx, = chainer.grad([F.sum(y * y)], [x], enable_double_backprop=True)
    assert gx.creator.label == 'BatchNormalizationGrad'
    var = numpy.ones(3, numpy.float32)
    y = F.fixed_batch_normalization(x, gamma, beta, beta, var)
    assert y.creator.label == 'FixedBatchNormalization'
    gx, = chainer.grad([F.sum(y * y)], [x], enable_double_backprop=True)
    assert gx.creator.label == 'FixedBatchNormalizationGrad'


@pytest.mark.parametrize('fixed', [False, True])
@testing.fix_random()
def test_third_order(fixed):
    # The gradient of the gradient is itself differentiable.
    rng = numpy.random.RandomState(2)
    x = rng.uniform(-1, 1, (4, 3, 2))
    gamma = rng.uniform(.5, 1, 3)
    beta = rng.uniform(-1, 1, 3)
    mean = rng.uniform(-1, 1, 3)
    var = rng.uniform(.5, 1, 3)
    w = rng.uniform(-1, 1, x.shape)

    def f(x, gamma):
        if fixed:
            y = F.fixed_batch_normalization(x, gamma, beta, mean, var)
        else:
            y = F.batch_normalization(x, gamma, beta)
        gx, ggamma = chainer.grad(
            [F.sum(y * y * y * w)], [x, gamma], enable_double_backprop=True)
        return gx, ggamma

    gys = (rng.uniform(-1, 1, x.shape), rng.uniform(-1, 1, 3))
    ggs = (rng.uniform(-1, 1, x.shape), rng.uniform(-1, 1, 3))
    gradient_check.check_double_backward(
        f, (x, gamma), gys, ggs, atol=1e-4, rtol=1e-3)


@testing.fix_random()
def test_double_backward_partial_gradients():
    # Only some of (gx, ggamma, gbeta) reach the loss.
    rng = numpy.random.RandomState(3)
    x = rng.uniform(-1, 1, (5, 3))
    gamma = rng.uniform(.5, 1, 3)
    beta = rng.uniform(-1, 1, 3)

    def f(x, gamma, beta):
        y = F.batch_normalization(x, gamma, beta)
        ggamma, = chainer.grad([F.sum(y * y * y)], [gamma],
                               enable_double_backprop=True)
        return ggamma,

    gradient_check.check_backward(
        f, (x, gamma, beta), rng.uniform(-1, 1, 3), atol=1e-4, rtol=1e-3)


@pytest.mark.parametrize('args', [
    # integer input
    (numpy.ones((2, 3), numpy.int32), numpy.ones(3, numpy.float32)),
    # channel size mismatch
    (numpy.ones((2, 3), numpy.float32), numpy.ones(4, numpy.float32)),
    # too many channel axes
    (numpy.ones((2,), numpy.float32), numpy.ones((2, 3), numpy.float32)),
], ids=['int', 'channels', 'ndim'])
@pytest.mark.parametrize('fixed', [False, True])
def test_invalid_type(args, fixed):
    x, gamma = args
    with pytest.raises(type_check.InvalidType):
        if fixed:
            F.fixed_batch_normalization(x, gamma, gamma, gamma, gamma)
        else:
            F.batch_normalization(x, gamma, gamma)


def test_invalid_parameter_dtypes():
    x = numpy.ones((2, 3), numpy.float32)
    gamma = numpy.ones(3, numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.batch_normalization(x, gamma, gamma.astype(numpy.float64))
    with pytest.raises(type_check.InvalidType):
        F.fixed_batch_normalization(
            x, gamma, gamma, gamma, gamma.astype(numpy.float64))


@pytest.mark.parametrize('axis', [(2, 0), {0}, 1.5], ids=str)
def test_invalid_axis(axis):
    x = numpy.ones((2, 3, 4), numpy.float32)
    gamma = numpy.ones(3, numpy.float32)
    with pytest.raises(RuntimeError):
        F.batch_normalization(x, gamma, gamma, axis=axis)
    with pytest.raises(RuntimeError):
        F.fixed_batch_normalization(x, gamma, gamma, gamma, gamma, axis=axis)


def test_axis_out_of_range():
    x = numpy.ones((2, 3), numpy.float32)
    gamma = numpy.ones(3, numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.batch_normalization(x, gamma, gamma, axis=(0, 2))


def test_train_argument_is_rejected():
    x = numpy.ones((2, 3), numpy.float32)
    gamma = numpy.ones(3, numpy.float32)
    with pytest.raises(ValueError):
        F.batch_normalization(x, gamma, gamma, train=True)
    with pytest.raises(TypeError):
        F.batch_normalization(x, gamma, gamma, unknown=True)


class _RecordingImpl(batch_normalization.GeneralBatchNormalizationImpl):
    # Computes the variance as E[x^2] - E[x]^2, as a distributed
    # implementation may, and records the calls.

    def __init__(self):
        self.calls = []

    def get_mean_and_var(self, axis, gamma, x, xp, interm_dtype):
        self.calls.append('get_mean_and_var')
        mean = x.mean(axis=axis, dtype=interm_dtype)
        sqmean = (x * x).mean(axis=axis, dtype=interm_dtype)
        return mean, sqmean - mean * mean

    def get_ggamma_and_gbeta(self, axis, gamma, gy, x_hat, xp):
        self.calls.append('get_ggamma_and_gbeta')
        return super().get_ggamma_and_gbeta(axis, gamma, gy, x_hat, xp)


def test_impl_selector():
    rng = numpy.random.RandomState(4)
    x = rng.uniform(-1, 1, (5, 3, 2))
    gamma = rng.uniform(.5, 1, 3)
    beta = rng.uniform(-1, 1, 3)
    gy = rng.uniform(-1, 1, x.shape)
    running = [numpy.zeros(3), numpy.ones(3)], [numpy.zeros(3), numpy.ones(3)]
    impl = _RecordingImpl()
    results = []
    for selector, (mean, var) in zip(
            [lambda func, inputs: impl, batch_normalization._impl_selector],
            running):
        xv, gv, bv = [chainer.Variable(a) for a in (x, gamma, beta)]
        y, = batch_normalization.BatchNormalization(
            1e-3, mean, var, 0.5, impl_selector=selector).apply((xv, gv, bv))
        y.grad = gy
        y.backward()
        results.append((y.array, xv.grad, gv.grad, bv.grad, mean, var))
    assert impl.calls == ['get_mean_and_var', 'get_ggamma_and_gbeta']
    for actual, expected in zip(*results):
        testing.assert_allclose(actual, expected)


@pytest.mark.filterwarnings('ignore::RuntimeWarning')
def test_empty_batch():
    x = chainer.Variable(numpy.zeros((0, 3), numpy.float32))
    gamma = chainer.Variable(numpy.ones(3, numpy.float32))
    y = F.batch_normalization(x, gamma, gamma)
    assert y.shape == (0, 3)
    y.grad = numpy.zeros((0, 3), numpy.float32)
    y.backward()
    assert x.grad.shape == (0, 3)
    numpy.testing.assert_array_equal(gamma.grad, 0)
    y = F.fixed_batch_normalization(x, gamma, gamma, gamma, gamma)
    assert y.shape == (0, 3)


@pytest.mark.parametrize('use_kernels', ['never', 'auto'])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_channel_last_layout(dtype, use_kernels):
    # x stored channel last (N, H, W, C): the output keeps that layout and
    # has the values, and gradients, of the standard layout. (Chainer 7.8.1
    # computed the same forward; its gradient failed to broadcast.)
    rng = numpy.random.RandomState(0)
    x = rng.randn(2, 4, 5, 3).astype(dtype)
    gamma = (rng.rand(3) + 0.5).astype(dtype)
    beta = rng.randn(3).astype(dtype)
    w = rng.randn(2, 3, 4, 5).astype(dtype)
    mean = numpy.zeros(3, dtype)
    var = numpy.ones(3, dtype)

    with chainer.using_config('use_chainerx_cpp', use_kernels):
        xv = chainer.Variable(x, layout='CUDNN_CHANNEL_LAST_X')
        gv, bv = chainer.Variable(gamma), chainer.Variable(beta)
        y = F.batch_normalization(xv, gv, bv, running_mean=mean,
                                  running_var=var)
        assert y.layout == 'CUDNN_CHANNEL_LAST_X'
        assert y.shape == (2, 3, 4, 5)
        assert y.raw_array.shape == (2, 4, 5, 3)
        F.sum(y.as_layout(None) * w).backward()

        xs = chainer.Variable(x.transpose(0, 3, 1, 2).copy())
        gs, bs = chainer.Variable(gamma), chainer.Variable(beta)
        mean_s = numpy.zeros(3, dtype)
        var_s = numpy.ones(3, dtype)
        ys = F.batch_normalization(xs, gs, bs, running_mean=mean_s,
                                   running_var=var_s)
        F.sum(ys * w).backward()

    tol = {'rtol': 1e-5, 'atol': 1e-5} if dtype == numpy.float32 else {}
    numpy.testing.assert_allclose(
        y.raw_array.transpose(0, 3, 1, 2), ys.array, **tol)
    numpy.testing.assert_allclose(mean, mean_s, **tol)
    numpy.testing.assert_allclose(var, var_s, **tol)
    assert xv.grad_var.layout == 'CUDNN_CHANNEL_LAST_X'
    numpy.testing.assert_allclose(
        xv.grad_var.raw_array.transpose(0, 3, 1, 2), xs.grad, **tol)
    numpy.testing.assert_allclose(gv.grad, gs.grad, **tol)
    numpy.testing.assert_allclose(bv.grad, bs.grad, **tol)


def test_fixed_batch_normalization_refuses_channel_last():
    # As Chainer 7.8.1: only the batch statistics take other layouts.
    x = chainer.Variable(numpy.zeros((2, 4, 5, 3), numpy.float32),
                         layout='CUDNN_CHANNEL_LAST_X')
    one = numpy.ones(3, numpy.float32)
    with pytest.raises(RuntimeError, match='non-standard layouts'):
        F.fixed_batch_normalization(x, one, one, one, one)
