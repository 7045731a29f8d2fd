import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


BACKENDS = [{}, {'use_cuda': True}]


def _groups(x, groups):
    # (N, C, ...) -> (groups, C // groups, N * ...)
    n, c = x.shape[:2]
    return x.reshape(n, groups, c // groups, -1).transpose(1, 2, 0, 3).reshape(
        groups, c // groups, -1)


def _ungroup(y, shape):
    n, c = shape[:2]
    g, cg = y.shape[:2]
    return y.reshape(g, cg, n, -1).transpose(2, 0, 1, 3).reshape(shape)


def _whitening(x, groups, eps):
    # The mean and ZCA whitening matrix of each group, in float64.
    xg = _groups(x.astype(numpy.float64), groups)
    mean = xg.mean(axis=2)
    xc = xg - mean[:, :, None]
    projections = []
    for a in xc:
        cov = a.dot(a.T) / a.shape[1] + eps * numpy.eye(a.shape[0])
        w, v = numpy.linalg.eigh(cov)
        projections.append(v.dot(numpy.diag(w ** -0.5)).dot(v.T))
    return mean, numpy.stack(projections)


def _apply(x, mean, projection, groups):
    xg = _groups(x.astype(numpy.float64), groups) - mean[:, :, None]
    return _ungroup(numpy.matmul(projection, xg), x.shape)


@testing.parameterize(*(testing.product({
    'ndim': [0, 2],
    'groups': [1, 2],
    'eps': [2e-5, 5e-1],
    'dtype': [numpy.float32],
}) + testing.product({
    'ndim': [1],
    'groups': [2],
    'eps': [2e-5],
    'dtype': [numpy.float16, numpy.float64],
})))
@testing.fix_random()
@testing.inject_backend_tests(None, BACKENDS)
class TestDecorrelatedBatchNormalization(testing.FunctionTestCase):

    skip_double_backward_test = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 2e-2, 'rtol': 2e-2}
            self.skip_backward_test = True
        elif self.dtype == numpy.float32:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}

    def generate_inputs(self):
        shape = (5, 8) + (2,) * self.ndim
        return numpy.random.uniform(-1, 1, shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.decorrelated_batch_normalization(
            x, groups=self.groups, eps=self.eps),

    def forward_expected(self, inputs):
        x, = inputs
        mean, projection = _whitening(x, self.groups, self.eps)
        return _apply(x, mean, projection, self.groups).astype(self.dtype),


@testing.parameterize(*(testing.product({
    'ndim': [0, 2],
    'groups': [1, 2],
    'dtype': [numpy.float32],
}) + testing.product({
    'ndim': [1],
    'groups': [2],
    'dtype': [numpy.float16, numpy.float64],
})))
@testing.fix_random()
@testing.inject_backend_tests(None, BACKENDS)
class TestFixedDecorrelatedBatchNormalization(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        cg = 8 // self.groups
        x = numpy.random.uniform(-1, 1, (5, 8) + (2,) * self.ndim)
        mean = numpy.random.uniform(-1, 1, (self.groups, cg))
        projection = numpy.random.uniform(0.5, 1, (self.groups, cg, cg))
        return tuple(a.astype(self.dtype) for a in (x, mean, projection))

    def forward(self, inputs, device):
        x, mean, projection = inputs
        return F.fixed_decorrelated_batch_normalization(
            x, mean, projection, groups=self.groups),

    def forward_expected(self, inputs):
        x, mean, projection = inputs
        y = _apply(x, mean.astype(numpy.float64),
                   projection.astype(numpy.float64), self.groups)
        return y.astype(self.dtype),


def test_output_is_white():
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (50, 6, 3)) * [[[1], [2], [3], [1], [5], [1]]]
    x[:, 1] += x[:, 0]
    y = F.decorrelated_batch_normalization(x, groups=2, eps=1e-8).array
    yg = _groups(y, 2)
    testing.assert_allclose(yg.mean(axis=2), 0, atol=1e-10)
    cov = numpy.matmul(yg, yg.transpose(0, 2, 1)) / yg.shape[2]
    testing.assert_allclose(cov, numpy.broadcast_to(numpy.eye(3), cov.shape),
                            atol=1e-6)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_running_statistics(dtype):
    rng = numpy.random.RandomState(1)
    groups, decay, eps = 2, 0.7, 1e-2
    running_mean = numpy.zeros((groups, 3), dtype)
    running_projection = numpy.broadcast_to(
        numpy.eye(3, dtype=dtype), (groups, 3, 3)).copy()
    expected_mean = running_mean.astype(numpy.float64)
    expected_projection = running_projection.astype(numpy.float64)
    for _ in range(3):
        x = rng.uniform(-1, 2, (7, 6, 2)).astype(dtype)
        F.decorrelated_batch_normalization(
            x, groups=groups, eps=eps, running_mean=running_mean,
            running_projection=running_projection, decay=decay)
        mean, projection = _whitening(x, groups, eps)
        m = 14
        expected_mean = decay * expected_mean + (1 - decay) * mean
        expected_projection = (decay * expected_projection
                               + (1 - decay) * m / (m - 1) * projection)
        testing.assert_allclose(running_mean, expected_mean, atol=1e-5)
        testing.assert_allclose(running_projection, expected_projection,
                                atol=1e-4, rtol=1e-4)


def test_double_backward_is_not_implemented():
    x = chainer.Variable(numpy.random.RandomState(2).uniform(
        -1, 1, (5, 4)).astype(numpy.float32))
    y = F.decorrelated_batch_normalization(x, groups=2)
    gx, = chainer.grad([F.sum(y * y * y)], [x], enable_double_backprop=True)
    assert gx.creator.label == 'DecorrelatedBatchNormalizationGrad'
    with pytest.raises(NotImplementedError):
        F.sum(gx).backward()


def test_node_names():
    x = chainer.Variable(
        numpy.arange(12, dtype=numpy.float32).reshape(3, 4) ** 2)
    y = F.decorrelated_batch_normalization(x, groups=2)
    assert y.creator.label == 'DecorrelatedBatchNormalization'
    y = F.fixed_decorrelated_batch_normalization(
        x, numpy.zeros((2, 2), numpy.float32),
        numpy.ones((2, 2, 2), numpy.float32), groups=2)
    assert y.creator.label == 'FixedDecorrelatedBatchNormalization'


@pytest.mark.parametrize('shape, dtype', [
    ((5, 6), numpy.float32), ((5,), numpy.float32), ((5, 8), numpy.int32)],
    ids=['groups', 'ndim', 'int'])
def test_invalid_type(shape, dtype):
    x = numpy.ones(shape, dtype)
    with pytest.raises(type_check.InvalidType):
        F.decorrelated_batch_normalization(x, groups=4)


@pytest.mark.parametrize('mean_shape, projection_shape, dtype', [
    ((2, 2), (2, 2, 2), numpy.float64),
    ((2, 3), (2, 2, 2), numpy.float32),
    ((2, 2), (1, 2, 2), numpy.float32),
    ((2, 2), (2, 2), numpy.float32),
], ids=['dtype', 'mean', 'projection', 'ndim'])
def test_fixed_invalid_type(mean_shape, projection_shape, dtype):
    x = numpy.ones((3, 4), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.fixed_decorrelated_batch_normalization(
            x, numpy.ones(mean_shape, dtype),
            numpy.ones(projection_shape, numpy.float32), groups=2)
