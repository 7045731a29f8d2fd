import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.noise import dropout
from chainer.utils import type_check


def _mask(shape, ratio, dtype):
    keep = numpy.random.uniform(0, 1, shape) >= ratio
    return numpy.asarray(keep * (1. / (1 - ratio)), dtype)


@testing.parameterize(*testing.product({
    'shape': [(3, 4), (), (0, 4)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'ratio': [0.0, 0.5, 0.9],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDropoutWithMask(testing.FunctionTestCase):

    def setUp(self):
        # A fixed mask makes the function deterministic.
        self.mask = _mask(self.shape, self.ratio, self.dtype)
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.asarray(
            numpy.random.uniform(-1, 1, self.shape), self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.dropout(x, self.ratio, mask=device.send(self.mask)),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.asarray(x * self.mask, x.dtype),


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('ratio', [0.2, 0.5])
def test_draws_mask_like_numpy(dtype, ratio):
    x = numpy.random.RandomState(0).uniform(-1, 1, (5, 6)).astype(dtype)
    numpy.random.seed(1)
    y, mask = F.dropout(chainer.Variable(x), ratio, return_mask=True)
    numpy.random.seed(1)
    scale = dtype(1. / (1 - ratio))
    expected_mask = scale * (numpy.random.rand(5, 6) >= ratio)
    assert mask.dtype == dtype
    numpy.testing.assert_array_equal(mask, expected_mask)
    numpy.testing.assert_array_equal(y.array, x * expected_mask)
    assert type(y.creator) is dropout.Dropout


def test_mask_reuse_gives_the_same_output():
    x = numpy.random.RandomState(0).uniform(-1, 1, (4, 3)).astype(
        numpy.float32)
    y, mask = F.dropout(x, return_mask=True)
    y2, mask2 = F.dropout(x, mask=mask, return_mask=True)
    assert mask2 is mask
    numpy.testing.assert_array_equal(y2.array, y.array)


def test_gradient_is_masked():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    y, mask = F.dropout(x, 0.5, return_mask=True)
    y.grad = numpy.full((2, 3), 3., numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, 3 * mask)


def test_zero_dimensional_input():
    y = F.dropout(numpy.array(2., numpy.float32), 0.0)
    assert isinstance(y.array, numpy.ndarray)
    assert y.array == 2.


def test_test_mode_is_identity():
    x = numpy.ones((2, 3), numpy.float32)
    with chainer.using_config('train', False):
        y = F.dropout(x)
        y2, mask = F.dropout(x, return_mask=True)
    assert y.array is x
    assert y.creator is None
    assert mask is None
    v = chainer.Variable(x)
    with chainer.using_config('train', False):
        assert F.dropout(v) is v


@pytest.mark.parametrize('ratio', [-0.1, 1.0])
def test_ratio_out_of_range(ratio):
    with pytest.raises(ValueError, match=r'dropout_ratio must be in'):
        F.dropout(numpy.ones(2, numpy.float32), ratio)


def test_train_argument_refused():
    with pytest.raises(ValueError, match='train argument is not supported'):
        F.dropout(numpy.ones(2, numpy.float32), train=True)


def test_unknown_argument():
    with pytest.raises(TypeError):
        F.dropout(numpy.ones(2, numpy.float32), foo=1)


def test_non_float_input():
    with pytest.raises(type_check.InvalidType):
        F.dropout(numpy.ones((2,), numpy.int32))
