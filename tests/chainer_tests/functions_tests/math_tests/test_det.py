import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


def _matrices(shape, dtype):
    # Well-conditioned matrices: random entries plus a multiple of I.
    n = shape[-1]
    a = numpy.random.uniform(-1, 1, shape) + 2 * numpy.eye(n)
    return a.astype(dtype)


def _options(test):
    if test.dtype == numpy.float16:
        test.check_forward_options = {'atol': 5e-2, 'rtol': 5e-2}
        test.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        test.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
    else:
        test.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
        test.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}


@testing.parameterize(*testing.product({
    'shape': [(1, 1), (3, 3), (4, 4)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDet(testing.FunctionTestCase):

    def setUp(self):
        _options(self)

    def generate_inputs(self):
        return _matrices(self.shape, self.dtype),

    def forward(self, inputs, device):
        a, = inputs
        return F.det(a),

    def forward_expected(self, inputs):
        a, = inputs
        return numpy.asarray(
            numpy.linalg.det(a.astype(numpy.float64)), self.dtype),


@testing.parameterize(*testing.product({
    'shape': [(2, 3, 3), (1, 1, 1), (5, 2, 2), (0, 3, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBatchDet(testing.FunctionTestCase):

    def setUp(self):
        _options(self)

    def generate_inputs(self):
        return _matrices(self.shape, self.dtype),

    def forward(self, inputs, device):
        a, = inputs
        return F.batch_det(a),

    def forward_expected(self, inputs):
        a, = inputs
        return numpy.linalg.det(a.astype(numpy.float64)).astype(self.dtype),


def test_label_and_gradient():
    a = chainer.Variable(numpy.array([[2., 1.], [1., 3.]]))
    y = F.det(a)
    assert y.shape == ()
    y.backward()
    # d det / dA = det(A) A^-T
    numpy.testing.assert_allclose(a.grad, [[3., -1.], [-1., 2.]])
    y = F.batch_det(a[None])
    assert y.creator.label == 'det'
    assert type(y.creator).__name__ == 'BatchDet'


def test_empty_matrix():
    assert float(F.det(numpy.ones((0, 0), numpy.float32)).array) == 1.0


@pytest.mark.parametrize('function, shape', [
    ('det', (2, 3)), ('det', (2, 2, 2)), ('det', (3,)),
    ('batch_det', (2, 2)), ('batch_det', (2, 2, 3)),
    ('batch_det', (2, 2, 2, 2)),
], ids=str)
def test_bad_shape(function, shape):
    with pytest.raises(type_check.InvalidType):
        getattr(F, function)(numpy.ones(shape, numpy.float32))


def test_integer_input():
    with pytest.raises(type_check.InvalidType):
        F.det(numpy.eye(2, dtype=numpy.int32))


def test_singular_matrix():
    a = chainer.Variable(numpy.zeros((2, 2), numpy.float32))
    y = F.det(a)
    assert float(y.array) == 0
    with pytest.raises(ValueError, match='singular'):
        y.backward()
