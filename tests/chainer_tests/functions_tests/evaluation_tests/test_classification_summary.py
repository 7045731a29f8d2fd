import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer.functions.evaluation import classification_summary as cs
from chainer import testing
from chainer.testing import attr
from chainer.utils import type_check


def _summary(y, t, label_num, beta, ignore_label):
    # Straightforward per-class loops, as a reference.
    pred = y.argmax(axis=1).reshape(t.shape).ravel()
    t = t.ravel()
    keep = t != ignore_label
    pred, t = pred[keep], t[keep]
    if label_num is None:
        label_num = t.max() + 1 if t.size else 0
    precision, recall, fbeta, support = [], [], [], []
    with numpy.errstate(divide='ignore', invalid='ignore'):
        for c in range(label_num):
            tp = numpy.sum((pred == c) & (t == c))
            p = numpy.float64(tp) / numpy.sum(pred == c)
            r = numpy.float64(tp) / numpy.sum(t == c)
            precision.append(p)
            recall.append(r)
            fbeta.append((1 + beta ** 2) * p * r / (beta ** 2 * p + r))
            support.append(numpy.sum(t == c))
    return precision, recall, fbeta, support


@testing.parameterize(*testing.product({
    'shapes': [((20, 3), (20,)), ((20, 4, 2), (20, 2)),
               ((20, 3, 1), (20,))],
    'label_num': [None, 2, 5],
    'beta': [1.0, 2.0, 0.5],
    'x_dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
class TestClassificationSummary:

    def test_forward(self):
        x_shape, t_shape = self.shapes
        y = numpy.random.uniform(-1, 1, x_shape).astype(self.x_dtype)
        t = numpy.random.randint(-1, x_shape[1], t_shape).astype(
            numpy.int32)
        t[0] = x_shape[1] - 1
        outputs = F.classification_summary(
            y, t, label_num=self.label_num, beta=self.beta)
        expected = _summary(y, t, self.label_num, self.beta, -1)
        dtypes = [numpy.float64, numpy.float64, numpy.float64, numpy.int64]
        for output, value, dtype in zip(outputs, expected, dtypes):
            assert output.dtype == dtype
            numpy.testing.assert_allclose(output.array, value, rtol=1e-12)


def test_values():
    y = numpy.array([[0.1, 0.9, 0.0], [0.8, 0.1, 0.1], [0.2, 0.2, 0.6],
                     [0.3, 0.4, 0.3], [0.9, 0.0, 0.1]], numpy.float32)
    t = numpy.array([1, 0, 0, 2, 0], numpy.int32)
    p, r, f, s = F.classification_summary(y, t, beta=2.0)
    numpy.testing.assert_allclose(p.array, [1., 0.5, 0.])
    numpy.testing.assert_allclose(r.array, [2 / 3, 1., 0.])
    numpy.testing.assert_allclose(f.array[:2], [0.71428571, 0.83333333])
    assert numpy.isnan(f.array[2])
    numpy.testing.assert_array_equal(s.array, [3, 1, 1])


def test_shortcuts():
    y = numpy.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], numpy.float32)
    t = numpy.array([0, 1, 1], numpy.int32)
    p, r, f, s = F.classification_summary(y, t)
    for got, value in [(F.precision(y, t), p), (F.recall(y, t), r),
                       (F.f1_score(y, t), f),
                       (cs.fbeta_score(y, t, beta=1.0), f)]:
        numpy.testing.assert_array_equal(got[0].array, value.array)
        numpy.testing.assert_array_equal(got[1].array, s.array)


def test_labels_beyond_label_num_are_dropped():
    y = numpy.array([[1., 0., 0.], [0., 0., 1.]], numpy.float32)
    t = numpy.array([0, 0], numpy.int32)
    p, r, f, s = F.classification_summary(y, t)
    # label_num is 1 (the largest label plus one): the prediction 2 only
    # lowers the recall of class 0.
    numpy.testing.assert_array_equal(p.array, [1.])
    numpy.testing.assert_array_equal(r.array, [0.5])
    numpy.testing.assert_array_equal(s.array, [2])


def test_all_ignored():
    y = numpy.ones((3, 2), numpy.float32)
    outputs = F.classification_summary(y, numpy.full(3, -1, numpy.int32))
    assert all(o.shape == (0,) for o in outputs)


def test_negative_label_not_ignored():
    y = numpy.ones((2, 2), numpy.float32)
    t = numpy.array([-1, 0], numpy.int32)
    with pytest.raises(ValueError):
        F.classification_summary(y, t, ignore_label=0)


def test_old_style_function():
    y = chainer.Variable(numpy.ones((2, 2), numpy.float32))
    p, _, _, _ = F.classification_summary(y, numpy.zeros(2, numpy.int32))
    assert isinstance(p.creator, chainer.Function)
    assert type(p.creator).__name__ == 'ClassificationSummary'


@pytest.mark.parametrize('x_shape, t_shape, x_dtype, t_dtype', [
    ((4, 3), (3,), numpy.float32, numpy.int32),
    ((1, 4, 3), (1, 4), numpy.float32, numpy.int32),
    ((4, 3), (4,), numpy.int32, numpy.int32),
    ((4, 3), (4,), numpy.float32, numpy.float32),
], ids=['batch', 'spatial', 'int_x', 'float_t'])
def test_invalid(x_shape, t_shape, x_dtype, t_dtype):
    with pytest.raises(type_check.InvalidType):
        F.classification_summary(numpy.zeros(x_shape, x_dtype),
                                 numpy.zeros(t_shape, t_dtype))


@attr.gpu
def test_gpu():
    rng = numpy.random.RandomState(0)
    y = rng.uniform(-1, 1, (20, 3)).astype(numpy.float32)
    t = rng.randint(-1, 3, 20).astype(numpy.int32)
    outputs = F.classification_summary(cuda.to_gpu(y), cuda.to_gpu(t),
                                       label_num=4, beta=2.0)
    expected = _summary(y, t, 4, 2.0, -1)
    for output, value in zip(outputs, expected):
        assert isinstance(output.array, cuda.ndarray)
        numpy.testing.assert_allclose(cuda.to_cpu(output.array), value,
                                      rtol=1e-12)
