import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer import testing
from chainer.testing import attr
from chainer.utils import type_check


def _binary_accuracy(y, t):
    valid = t != -1
    count = valid.sum()
    if count == 0:
        return 0.0
    return (((y >= 0) == t) & valid).sum() / count


@testing.parameterize(*testing.product({
    'shape': [(10,), (10, 3), (4, 3, 2), (), (0, 3)],
    'x_dtype': [numpy.float16, numpy.float32, numpy.float64],
    't_dtype': [numpy.int32, numpy.int64],
}))
@testing.fix_random()
class TestBinaryAccuracy:

    def test_forward(self):
        y = numpy.asarray(numpy.random.uniform(-1, 1, self.shape),
                          self.x_dtype)
        t = numpy.asarray(numpy.random.randint(-1, 2, self.shape),
                          self.t_dtype)
        acc = F.binary_accuracy(y, t)
        assert acc.dtype == self.x_dtype
        assert acc.shape == ()
        numpy.testing.assert_allclose(acc.array, _binary_accuracy(y, t),
                                      rtol=1e-3)


def test_values():
    y = numpy.array([[-1., 2.], [0.5, -0.5], [0., 0.]], numpy.float32)
    # A score of zero predicts 1.
    t = numpy.array([[0, 1], [1, 0], [1, -1]], numpy.int32)
    assert float(F.binary_accuracy(y, t).array) == 1.0
    t = numpy.array([[0, 1], [1, 0], [0, 0]], numpy.int32)
    assert float(F.binary_accuracy(y, t).array) == pytest.approx(4 / 6)
    # Labels other than 0, 1 and -1 never match.
    t = numpy.array([[0, 1], [1, 0], [1, 2]], numpy.int32)
    assert float(F.binary_accuracy(y, t).array) == pytest.approx(5 / 6)


def test_all_ignored_is_zero():
    y = numpy.ones((2, 2), numpy.float32)
    acc = F.binary_accuracy(y, numpy.full((2, 2), -1, numpy.int32))
    assert float(acc.array) == 0.0


def test_old_style_function():
    y = chainer.Variable(numpy.ones(3, numpy.float32))
    acc = F.binary_accuracy(y, numpy.ones(3, numpy.int32))
    assert isinstance(acc.creator, chainer.Function)
    assert type(acc.creator).__name__ == 'BinaryAccuracy'


@pytest.mark.parametrize('x_shape, t_shape, x_dtype, t_dtype', [
    ((3, 2), (2, 2), numpy.float32, numpy.int32),
    ((3, 2), (2, 3), numpy.float32, numpy.int32),
    ((3, 2), (3, 2), numpy.int32, numpy.int32),
    ((3, 2), (3, 2), numpy.float32, numpy.float32),
    ((3, 2), (3, 2), numpy.float32, numpy.bool_),
], ids=['shape', 'transposed', 'int_x', 'float_t', 'bool_t'])
def test_invalid(x_shape, t_shape, x_dtype, t_dtype):
    with pytest.raises(type_check.InvalidType):
        F.binary_accuracy(numpy.zeros(x_shape, x_dtype),
                          numpy.zeros(t_shape, t_dtype))


@attr.gpu
def test_gpu():
    rng = numpy.random.RandomState(0)
    y = rng.uniform(-1, 1, (10, 3)).astype(numpy.float32)
    t = rng.randint(-1, 2, (10, 3)).astype(numpy.int32)
    acc = F.binary_accuracy(cuda.to_gpu(y), cuda.to_gpu(t))
    assert isinstance(acc.array, cuda.ndarray)
    numpy.testing.assert_allclose(cuda.to_cpu(acc.array),
                                  _binary_accuracy(y, t), rtol=1e-6)
