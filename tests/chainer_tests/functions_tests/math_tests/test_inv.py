import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


def _matrices(shape, dtype):
    n = shape[-1]
    a = numpy.random.uniform(-1, 1, shape) + 2 * numpy.eye(n)
    return a.astype(dtype)


def _options(test):
    if test.dtype == numpy.float16:
        test.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
        test.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        test.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
    else:
        test.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
        test.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}


@testing.parameterize(*testing.product({
    'shape': [(1, 1), (3, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestInv(testing.FunctionTestCase):

    def setUp(self):
        _options(self)

    def generate_inputs(self):
        return _matrices(self.shape, self.dtype),

    def forward(self, inputs, device):
        a, = inputs
        return F.inv(a),

    def forward_expected(self, inputs):
        a, = inputs
        return numpy.linalg.inv(a.astype(numpy.float64)).astype(self.dtype),


@testing.parameterize(*testing.product({
    'shape': [(2, 3, 3), (1, 1, 1), (0, 2, 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBatchInv(testing.FunctionTestCase):

    def setUp(self):
        _options(self)

    def generate_inputs(self):
        return _matrices(self.shape, self.dtype),

    def forward(self, inputs, device):
        a, = inputs
        return F.batch_inv(a),

    def forward_expected(self, inputs):
        a, = inputs
        return numpy.linalg.inv(a.astype(numpy.float64)).astype(self.dtype),


def test_classes():
    a = chainer.Variable(numpy.eye(2, dtype=numpy.float32))
    assert type(F.inv(a).creator).__name__ == 'Inv'
    assert type(F.batch_inv(a[None]).creator).__name__ == 'BatchInv'


@pytest.mark.parametrize('function, shape', [
    ('inv', (2, 3)), ('inv', (2, 2, 2)), ('batch_inv', (2, 2)),
    ('batch_inv', (2, 2, 3)),
], ids=str)
def test_bad_shape(function, shape):
    with pytest.raises(type_check.InvalidType):
        getattr(F, function)(numpy.ones(shape, numpy.float32))


def test_integer_input():
    with pytest.raises(type_check.InvalidType):
        F.inv(numpy.eye(2, dtype=numpy.int32))


@pytest.mark.parametrize('function, shape', [
    ('inv', (2, 2)), ('batch_inv', (2, 2, 2))], ids=str)
def test_singular(function, shape):
    with pytest.raises(ValueError, match='Input has singular matrices.'):
        getattr(F, function)(numpy.ones(shape, numpy.float32))
