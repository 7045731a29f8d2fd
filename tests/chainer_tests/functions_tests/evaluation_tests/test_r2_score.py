import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer import testing
from chainer.testing import attr
from chainer.utils import type_check


def _r2_score(pred, true, multioutput):
    pred = pred.astype(numpy.float64)
    true = true.astype(numpy.float64)
    ss_res = ((true - pred) ** 2).sum(axis=0)
    ss_tot = ((true - true.mean(axis=0)) ** 2).sum(axis=0)
    score = numpy.where(ss_tot != 0, 1 - ss_res / ss_tot, 0)
    if multioutput == 'uniform_average':
        return score.mean()
    return score


@testing.parameterize(*testing.product({
    'shape': [(10,), (10, 3), (10, 3, 2), (1, 3)],
    'multioutput': ['uniform_average', 'raw_values'],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
class TestR2Score:

    def test_forward(self):
        true = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        noise = numpy.random.uniform(-0.3, 0.3, self.shape)
        pred = (true + noise).astype(self.dtype)
        with numpy.errstate(divide='ignore', invalid='ignore'):
            score = F.r2_score(pred, true, multioutput=self.multioutput)
            expected = _r2_score(pred, true, self.multioutput)
        assert score.dtype == self.dtype
        assert score.shape == numpy.shape(expected)
        tol = 1e-2 if self.dtype == numpy.float16 else 1e-5
        numpy.testing.assert_allclose(score.array, expected, rtol=tol,
                                      atol=tol)


def test_values():
    pred = numpy.array([[1., 2.], [2., 3.], [3., 5.]], numpy.float32)
    true = numpy.array([[1.1, 2.], [2., 2.5], [3.2, 5.5]], numpy.float32)
    numpy.testing.assert_allclose(
        F.r2_score(pred, true, multioutput='raw_values').array,
        [0.9774775, 0.9302325], rtol=1e-6)
    numpy.testing.assert_allclose(F.r2_score(pred, true).array, 0.95385504,
                                  rtol=1e-6)


def test_constant_target_scores_zero():
    pred = numpy.array([[1., 2.], [2., 3.]], numpy.float32)
    true = numpy.ones((2, 2), numpy.float32)
    numpy.testing.assert_array_equal(
        F.r2_score(pred, true, multioutput='raw_values').array, [0, 0])
    assert float(F.r2_score(true, true).array) == 0.0
    assert float(F.r2_score(pred[:0], true[:0]).array) == 0.0


def test_pred_dtype_wins():
    pred = numpy.ones((3, 2), numpy.float32)
    true = numpy.arange(6, dtype=numpy.float64).reshape(3, 2)
    assert F.r2_score(pred, true).dtype == numpy.float32


def test_old_style_function():
    pred = chainer.Variable(numpy.ones(3, numpy.float32))
    score = F.r2_score(pred, numpy.arange(3, dtype=numpy.float32))
    assert isinstance(score.creator, chainer.Function)
    assert type(score.creator).__name__ == 'R2_score'


def test_arguments():
    x = numpy.ones((3, 2), numpy.float32)
    with pytest.raises(NotImplementedError):
        F.r2_score(x, x, sample_weight=numpy.ones(3, numpy.float32))
    with pytest.raises(ValueError, match='invalid multioutput argument'):
        F.r2_score(x, x, multioutput='variance_weighted')


@pytest.mark.parametrize('pred_shape, true_shape, pred_dtype, true_dtype', [
    ((3, 2), (2, 2), numpy.float32, numpy.float32),
    ((3, 2), (2, 3), numpy.float32, numpy.float32),
    ((3, 2), (3, 2), numpy.int32, numpy.float32),
    ((3, 2), (3, 2), numpy.float32, numpy.int32),
    ((), (), numpy.float32, numpy.float32),
], ids=['shape', 'transposed', 'int_pred', 'int_true', 'zero_dim'])
def test_invalid(pred_shape, true_shape, pred_dtype, true_dtype):
    with pytest.raises(type_check.InvalidType):
        F.r2_score(numpy.zeros(pred_shape, pred_dtype),
                   numpy.zeros(true_shape, true_dtype))


@attr.gpu
@pytest.mark.parametrize('multioutput', ['uniform_average', 'raw_values'])
def test_gpu(multioutput):
    rng = numpy.random.RandomState(0)
    true = rng.uniform(-1, 1, (10, 3)).astype(numpy.float32)
    pred = true + rng.uniform(-0.3, 0.3, (10, 3)).astype(numpy.float32)
    score = F.r2_score(cuda.to_gpu(pred), cuda.to_gpu(true),
                       multioutput=multioutput)
    assert isinstance(score.array, cuda.ndarray)
    numpy.testing.assert_allclose(cuda.to_cpu(score.array),
                                  _r2_score(pred, true, multioutput),
                                  rtol=1e-5)
