import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.loss import hinge
from chainer.utils import type_check


def _expected(x, t, norm, reduce):
    sign = -numpy.ones_like(x, dtype=numpy.float64)
    sign[numpy.arange(len(t)), t] = 1
    loss = numpy.maximum(0, 1 - sign * x)
    if norm == 'L2':
        loss = loss ** 2
    if reduce == 'mean':
        loss = loss.sum() / len(x)
    return numpy.asarray(loss, x.dtype)


@testing.parameterize(*testing.product({
    'shape': [(5, 4), (1, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'norm': ['L1', 'L2'],
    'reduce': ['mean', 'no'],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestHinge(testing.FunctionTestCase):

    # Hinge is an old-style Function: it is differentiable once only.
    skip_double_backward_test = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}

    def generate_inputs(self):
        x = numpy.random.uniform(-2, 2, self.shape)
        # away from the kinks at x = -1 and x = 1
        near = numpy.abs(numpy.abs(x) - 1) < 0.1
        x[near] *= 1.5
        t = numpy.random.randint(0, self.shape[1], self.shape[0])
        return x.astype(self.dtype), t.astype(numpy.int32)

    def forward(self, inputs, device):
        return F.hinge(*inputs, norm=self.norm, reduce=self.reduce),

    def forward_expected(self, inputs):
        return _expected(*inputs, self.norm, self.reduce),


def test_docstring_values():
    x = numpy.array([[-2., 3., 0.5], [5., 2., -0.5]], numpy.float32)
    t = numpy.array([1, 0], numpy.int32)
    loss = F.hinge(chainer.Variable(x), t)
    assert isinstance(loss.creator, hinge.Hinge)
    assert float(loss.array) == 2.5
    assert float(F.hinge(x, t, norm='L2').array) == 5.75
    numpy.testing.assert_array_equal(
        F.hinge(x, t, reduce='no').array, [[0, 0, 1.5], [0, 3, 0.5]])


def test_gradient_output_is_not_modified():
    x = chainer.Variable(numpy.array([[0., 0.5]], numpy.float32))
    loss = F.hinge(x, numpy.array([0], numpy.int32))
    gy = numpy.array(2., numpy.float32)
    loss.grad = gy
    loss.backward()
    assert float(gy) == 2.
    numpy.testing.assert_array_equal(x.grad, [[-2., 2.]])


def test_invalid_options():
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.zeros(2, numpy.int32)
    with pytest.raises(NotImplementedError):
        F.hinge(x, t, norm='L3')
    with pytest.raises(ValueError, match='reduce'):
        F.hinge(x, t, reduce='sum')


@pytest.mark.parametrize('x, t', [
    (numpy.zeros((2, 3), numpy.float32), numpy.zeros(3, numpy.int32)),
    (numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.float32)),
    (numpy.zeros((2, 3, 1), numpy.float32), numpy.zeros(2, numpy.int32)),
    (numpy.zeros((2, 3), numpy.int32), numpy.zeros(2, numpy.int32)),
    (numpy.zeros((2, 3), numpy.float32), numpy.zeros((), numpy.int32)),
], ids=['batch', 't_dtype', 'ndim', 'x_dtype', 't_0d'])
def test_invalid_inputs(x, t):
    with pytest.raises(type_check.InvalidType):
        F.hinge(x, t)


@pytest.mark.parametrize('label', [3, 7, -4])
@pytest.mark.parametrize('norm', ['L1', 'L2'])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_label_beyond_the_classes_raises_index_error(label, norm, reduce):
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.array([0, label], numpy.int32)
    message = 'index %d is out of bounds for axis 1 with size 3' % label
    with pytest.raises(IndexError, match=message):
        F.hinge(x, t, norm=norm, reduce=reduce)


@pytest.mark.parametrize('label', [-1, -3])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_negative_label_raises(label, reduce):
    # Such a label picked class 3 + label silently.
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.array([label, 0], numpy.int32)
    with pytest.raises(ValueError, match='0 <= t < 3, but %d' % label):
        F.hinge(x, t, reduce=reduce)
