import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.loss import contrastive
from chainer.utils import type_check


def _expected(x0, x1, y, margin, reduce):
    d = numpy.sqrt(((x0.astype(numpy.float64) - x1) ** 2).sum(axis=1))
    loss = 0.5 * (y * d ** 2 + (1 - y) * numpy.maximum(margin - d, 0) ** 2)
    if reduce == 'mean':
        loss = loss.mean()
    return loss


@testing.parameterize(*testing.product({
    'batch': [1, 6],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'margin': [0.5, 2.0],
    'reduce': ['mean', 'no'],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestContrastive(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        shape = (self.batch, 3)
        while True:
            x0 = numpy.random.uniform(-1, 1, shape)
            x1 = numpy.random.uniform(-1, 1, shape)
            d = numpy.sqrt(((x0 - x1) ** 2).sum(axis=1))
            # away from d == margin, where the loss bends
            if (numpy.abs(d - self.margin) > 0.05).all():
                break
        y = numpy.random.randint(0, 2, self.batch).astype(numpy.int32)
        y[0] = 0
        return x0.astype(self.dtype), x1.astype(self.dtype), y

    def forward(self, inputs, device):
        return F.contrastive(*inputs, margin=self.margin,
                             reduce=self.reduce),

    def forward_expected(self, inputs):
        return numpy.asarray(
            _expected(*inputs, self.margin, self.reduce), self.dtype),


def test_docstring_values():
    x0 = numpy.array([[0., 1.], [1., 1.]], numpy.float32)
    x1 = numpy.array([[0., 2.], [1., 1.5]], numpy.float32)
    y = numpy.array([1, 0], numpy.int32)
    loss = F.contrastive(chainer.Variable(x0), x1, y)
    assert type(loss.creator) is contrastive.Contrastive
    assert float(loss.array) == 0.3125
    numpy.testing.assert_array_equal(
        F.contrastive(x0, x1, y, reduce='no').array, [0.5, 0.125])


def test_identical_dissimilar_pair_has_finite_gradient():
    x0 = chainer.Variable(numpy.ones((1, 3), numpy.float32))
    x1 = chainer.Variable(numpy.ones((1, 3), numpy.float32))
    loss = F.contrastive(x0, x1, numpy.array([0], numpy.int32))
    assert float(loss.array) == 0.5
    loss.backward()
    assert numpy.isfinite(x0.grad).all()


@pytest.mark.parametrize('margin', [0, -0.5])
def test_non_positive_margin(margin):
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='margin'):
        F.contrastive(x, x, numpy.zeros(2, numpy.int32), margin=margin)


def test_invalid_reduce():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='reduce'):
        F.contrastive(x, x, numpy.zeros(2, numpy.int32), reduce='sum')


@pytest.mark.parametrize('x0_shape, x1_shape, y_shape, y_dtype', [
    ((2, 3), (2, 4), (2,), numpy.int32),
    ((2, 3), (2, 3), (3,), numpy.int32),
    ((2, 3), (2, 3), (2,), numpy.float32),
    ((2, 3, 1), (2, 3, 1), (2,), numpy.int32),
    ((0, 3), (0, 3), (0,), numpy.int32),
    ((2, 3), (2, 3), (), numpy.int32),
], ids=['x_shape', 'y_shape', 'y_dtype', 'ndim', 'empty', 'y_0d'])
def test_invalid_inputs(x0_shape, x1_shape, y_shape, y_dtype):
    with pytest.raises(type_check.InvalidType):
        F.contrastive(numpy.zeros(x0_shape, numpy.float32),
                      numpy.zeros(x1_shape, numpy.float32),
                      numpy.zeros(y_shape, y_dtype))


@pytest.mark.parametrize('label', [2, -1])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_label_other_than_zero_or_one_raises(label, reduce):
    # Such a label weighed the two terms of the loss silently.
    x0 = numpy.zeros((2, 2), numpy.float32)
    x1 = numpy.ones((2, 2), numpy.float32)
    y = numpy.array([1, label], numpy.int32)
    with pytest.raises(ValueError, match='0 <= y < 2, but %d' % label):
        F.contrastive(x0, x1, y, reduce=reduce)
