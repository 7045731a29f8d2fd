import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.loss import triplet
from chainer.utils import type_check


def _expected(a, p, n, margin, reduce):
    a, p, n = (v.astype(numpy.float64) for v in (a, p, n))
    dist = ((a - p) ** 2).sum(axis=1) - ((a - n) ** 2).sum(axis=1)
    loss = numpy.maximum(dist + margin, 0)
    if reduce == 'mean':
        loss = loss.mean()
    return loss


@testing.parameterize(*testing.product({
    'batch': [1, 5],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'margin': [0.1, 0.5],
    'reduce': ['mean', 'no'],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestTriplet(testing.FunctionTestCase):

    dodge_nondifferentiable = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}

    def generate_inputs(self):
        while True:
            a, p, n = (numpy.random.uniform(-1, 1, (self.batch, 4))
                       for _ in range(3))
            dist = ((a - p) ** 2).sum(axis=1) - ((a - n) ** 2).sum(axis=1)
            # away from the kink of the hinge
            if (numpy.abs(dist + self.margin) > 0.05).all():
                return tuple(v.astype(self.dtype) for v in (a, p, n))

    def forward(self, inputs, device):
        return F.triplet(*inputs, margin=self.margin, reduce=self.reduce),

    def forward_expected(self, inputs):
        return numpy.asarray(
            _expected(*inputs, self.margin, self.reduce), self.dtype),


def test_docstring_values():
    a = numpy.array([[0., 1.], [1., 1.]], numpy.float32)
    p = numpy.array([[0., 1.5], [1., 1.]], numpy.float32)
    n = numpy.array([[0., 0.], [2., 1.]], numpy.float32)
    y = F.triplet(chainer.Variable(a), p, n, margin=1.5)
    assert type(y.creator) is triplet.Triplet
    assert float(y.array) == 0.625
    numpy.testing.assert_array_equal(
        F.triplet(a, p, n, reduce='no').array, [0, 0])


@pytest.mark.parametrize('margin', [0, -1])
def test_non_positive_margin(margin):
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='margin'):
        F.triplet(x, x, x, margin=margin)


def test_invalid_reduce():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='reduce'):
        F.triplet(x, x, x, reduce='sum')


@pytest.mark.parametrize('shapes, dtypes', [
    (((2, 3), (2, 3), (2, 4)), (numpy.float32,) * 3),
    (((2, 3), (2, 3), (2, 3)), (numpy.float32, numpy.float64, numpy.float32)),
    (((0, 3), (0, 3), (0, 3)), (numpy.float32,) * 3),
    (((2, 3, 1),) * 3, (numpy.float32,) * 3),
    (((2, 3),) * 3, (numpy.int32,) * 3),
    (((),) * 3, (numpy.float32,) * 3),
], ids=['shape', 'dtype', 'empty', 'ndim', 'int', '0d'])
def test_invalid_inputs(shapes, dtypes):
    inputs = [numpy.zeros(s, d) for s, d in zip(shapes, dtypes)]
    with pytest.raises(type_check.InvalidType):
        F.triplet(*inputs)
