import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.loss import sigmoid_cross_entropy
from chainer.utils import type_check


def _expected(x, t, normalize, reduce):
    x64 = x.astype(numpy.float64)
    p = 1 / (1 + numpy.exp(-x64))
    valid = t != -1
    loss = -(t * numpy.log(p) + (1 - t) * numpy.log(1 - p)) * valid
    if reduce == 'no':
        return loss.astype(x.dtype)
    count = valid.sum() if normalize else len(x)
    return numpy.asarray(loss.sum() / max(count, 1), x.dtype)


@testing.parameterize(*testing.product({
    'shape': [(4, 3), (2, 3, 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'normalize': [True, False],
    'reduce': ['mean', 'no'],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSigmoidCrossEntropy(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}

    def generate_inputs(self):
        x = numpy.random.uniform(-3, 3, self.shape).astype(self.dtype)
        t = numpy.random.randint(-1, 2, self.shape).astype(numpy.int32)
        return x, t

    def forward(self, inputs, device):
        return F.sigmoid_cross_entropy(
            *inputs, normalize=self.normalize, reduce=self.reduce),

    def forward_expected(self, inputs):
        return _expected(*inputs, self.normalize, self.reduce),


def test_docstring_values():
    x = numpy.array([[-2., 3., 0.5], [5., 2., -0.5]], numpy.float32)
    t = numpy.array([[0, 1, 0], [1, 1, -1]], numpy.int32)
    loss = F.sigmoid_cross_entropy(chainer.Variable(x), t)
    assert type(loss.creator) is sigmoid_cross_entropy.SigmoidCrossEntropy
    testing.assert_allclose(loss.array, 0.25664714, atol=1e-7, rtol=0)
    testing.assert_allclose(
        F.sigmoid_cross_entropy(x, t, normalize=False).array, 0.64161783,
        atol=1e-7, rtol=0)
    no = F.sigmoid_cross_entropy(x, t, reduce='no').array
    assert no.shape == (2, 3) and no[1, 2] == 0


def test_large_logits_are_stable():
    x = numpy.array([100., -100., 100.], numpy.float32)
    t = numpy.array([1, 0, 0], numpy.int32)
    loss = F.sigmoid_cross_entropy(x, t, reduce='no')
    testing.assert_allclose(loss.array, [0, 0, 100])


def test_all_labels_ignored():
    x = chainer.Variable(numpy.ones((2, 2), numpy.float32))
    loss = F.sigmoid_cross_entropy(x, numpy.full((2, 2), -1, numpy.int32))
    assert float(loss.array) == 0
    loss.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.zeros((2, 2)))


def test_label_gets_no_gradient():
    x = chainer.Variable(numpy.zeros((2, 2), numpy.float32))
    t = chainer.Variable(numpy.ones((2, 2), numpy.int32))
    F.sigmoid_cross_entropy(x, t).backward()
    testing.assert_allclose(x.grad, numpy.full((2, 2), -0.125))
    assert t.grad is None


def test_invalid_reduce():
    with pytest.raises(ValueError, match='reduce'):
        F.sigmoid_cross_entropy(numpy.zeros((2, 2), numpy.float32),
                                numpy.zeros((2, 2), numpy.int32),
                                reduce='sum')


@pytest.mark.parametrize('x, t', [
    (numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 2), numpy.int32)),
    (numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3), numpy.float32)),
    (numpy.zeros((2, 3), numpy.int32), numpy.zeros((2, 3), numpy.int32)),
], ids=['shape', 't_dtype', 'x_dtype'])
def test_invalid_inputs(x, t):
    with pytest.raises(type_check.InvalidType):
        F.sigmoid_cross_entropy(x, t)


@pytest.mark.parametrize('label', [2, -2, 5])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_label_other_than_binary_or_ignored_raises(label, reduce):
    # Such a label entered the loss as a number.
    x = numpy.zeros((1, 3), numpy.float32)
    t = numpy.array([[0, label, -1]], numpy.int32)
    with pytest.raises(ValueError, match='but %d is given' % label):
        F.sigmoid_cross_entropy(x, t, reduce=reduce)
