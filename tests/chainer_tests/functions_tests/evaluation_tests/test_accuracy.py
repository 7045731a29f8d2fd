import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer import testing
from chainer.testing import attr
from chainer.utils import type_check


def _accuracy(y, t, ignore_label):
    pred = y.argmax(axis=1).reshape(t.shape)
    if ignore_label is None:
        return (pred == t).mean()
    valid = t != ignore_label
    count = valid.sum()
    if count == 0:
        return 0.0
    return ((pred == t) & valid).sum() / count


@testing.parameterize(*testing.product({
    'shapes': [((10, 3), (10,)), ((10, 3, 1), (10,)),
               ((10, 3, 1, 1), (10,)), ((10, 3, 5), (10, 5)),
               ((10, 3, 5, 4), (10, 5, 4)), ((10, 3, 5, 1), (10, 5))],
    'ignore_label': [None, -1],
    'x_dtype': [numpy.float16, numpy.float32, numpy.float64],
    't_dtype': [numpy.int32, numpy.int64],
}))
@testing.fix_random()
class TestAccuracy:

    def test_forward(self):
        x_shape, t_shape = self.shapes
        y = numpy.random.uniform(-1, 1, x_shape).astype(self.x_dtype)
        t = numpy.random.randint(-1 if self.ignore_label else 0, 3,
                                 t_shape).astype(self.t_dtype)
        acc = F.accuracy(y, t, ignore_label=self.ignore_label)
        assert acc.dtype == self.x_dtype
        assert acc.shape == ()
        assert isinstance(acc.array, numpy.ndarray)
        numpy.testing.assert_allclose(
            acc.array, _accuracy(y, t, self.ignore_label), rtol=1e-3)


def test_values():
    y = numpy.array([[0.1, 0.9, 0.0], [0.8, 0.1, 0.1], [0.2, 0.2, 0.6],
                     [0.3, 0.4, 0.3]], numpy.float32)
    t = numpy.array([1, 0, 1, 2], numpy.int32)
    assert float(F.accuracy(y, t).array) == 0.5
    # Samples labelled 1 are left out: one right of the other two.
    assert float(F.accuracy(y, t, ignore_label=1).array) == 0.5
    assert float(F.accuracy(
        y, numpy.array([1, 0, 1, -1], numpy.int32),
        ignore_label=-1).array) == pytest.approx(2 / 3)


def test_all_ignored_is_zero():
    y = numpy.ones((3, 2), numpy.float32)
    t = numpy.full(3, -1, numpy.int32)
    acc = F.accuracy(y, t, ignore_label=-1)
    assert acc.dtype == numpy.float32
    assert float(acc.array) == 0.0
    acc = F.accuracy(y[:0], t[:0], ignore_label=-1)
    assert float(acc.array) == 0.0


def test_empty_without_ignore_label_is_nan():
    with pytest.warns(RuntimeWarning):
        acc = F.accuracy(numpy.ones((0, 2), numpy.float32),
                         numpy.ones(0, numpy.int32))
    assert numpy.isnan(acc.array)


def test_tie_picks_first_class():
    y = numpy.array([[0.5, 0.5]], numpy.float32)
    assert float(F.accuracy(y, numpy.array([0], numpy.int32)).array) == 1
    assert float(F.accuracy(y, numpy.array([1], numpy.int32)).array) == 0


def test_class_and_no_gradient():
    y = chainer.Variable(numpy.ones((3, 2), numpy.float32))
    acc = F.accuracy(y, numpy.zeros(3, numpy.int32))
    assert type(acc.creator).__name__ == 'Accuracy'
    acc.backward()
    assert y.grad is None


@pytest.mark.parametrize('x_shape, t_shape, x_dtype, t_dtype', [
    ((4, 3), (3,), numpy.float32, numpy.int32),
    ((1, 4, 3), (1, 4), numpy.float32, numpy.int32),
    ((4, 1, 3), (4, 1), numpy.float32, numpy.int32),
    ((4,), (4,), numpy.float32, numpy.int32),
    ((4, 3, 2), (4,), numpy.float32, numpy.int32),
    ((4, 3, 5, 2), (4, 5), numpy.float32, numpy.int32),
    ((4, 3), (4,), numpy.int32, numpy.int32),
    ((4, 3), (4,), numpy.float32, numpy.float32),
    ((4, 3), (4,), numpy.float32, numpy.uint8),
], ids=['batch', 'spatial', 'spatial_2', 'no_class_axis', 'extra_axis',
        'extra_spatial_axis', 'int_x',
        'float_t', 'unsigned_t'])
def test_invalid(x_shape, t_shape, x_dtype, t_dtype):
    with pytest.raises(type_check.InvalidType):
        F.accuracy(numpy.zeros(x_shape, x_dtype),
                   numpy.zeros(t_shape, t_dtype))


@pytest.mark.parametrize('labels, ignore_label', [
    ([3, 0], None), ([-1, 0], None), ([-2, 0], -1), ([5, -1], -1),
    ([0, 3], 0),
], ids=str)
def test_label_out_of_range(labels, ignore_label):
    # A label outside the classes is an error, not a wrong prediction.
    y = numpy.array([[0.1, 0.9, 0.0], [0.8, 0.1, 0.1]], numpy.float32)
    with pytest.raises(ValueError, match='out of range for 3 classes'):
        F.accuracy(y, numpy.array(labels, numpy.int32), ignore_label)


def test_ignored_label_outside_classes():
    y = numpy.array([[0.1, 0.9, 0.0], [0.8, 0.1, 0.1]], numpy.float32)
    acc = F.accuracy(y, numpy.array([1, 7], numpy.int32), ignore_label=7)
    assert float(acc.array) == 1.0


@attr.gpu
@pytest.mark.parametrize('ignore_label', [None, -1])
def test_gpu(ignore_label):
    rng = numpy.random.RandomState(0)
    y = rng.uniform(-1, 1, (10, 3, 2)).astype(numpy.float32)
    t = rng.randint(-1, 3, (10, 2)).astype(numpy.int32)
    if ignore_label is None:
        t = numpy.abs(t)
    acc = F.accuracy(cuda.to_gpu(y), cuda.to_gpu(t), ignore_label)
    assert isinstance(acc.array, cuda.ndarray)
    numpy.testing.assert_allclose(
        cuda.to_cpu(acc.array), _accuracy(y, t, ignore_label), rtol=1e-6)
    acc = F.accuracy(cuda.to_gpu(y), cuda.to_gpu(numpy.full_like(t, -1)),
                     ignore_label=-1)
    assert float(acc.array) == 0.0
