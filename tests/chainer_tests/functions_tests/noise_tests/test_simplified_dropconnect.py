import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.noise import simplified_dropconnect
from chainer.utils import type_check


def _expected(x, W, b, mask, ratio):
    x = x.reshape(len(x), -1).astype(numpy.float64)
    W = W.astype(numpy.float64) * mask / (1 - ratio)
    if W.ndim == 3:
        y = numpy.einsum('ijk,ik->ij', W, x)
    else:
        y = x.dot(W.T)
    if b is not None:
        y = y + b
    return y


@testing.parameterize(*testing.product({
    'x_shape': [(4, 3), (4, 3, 2)],
    'batchwise': [True, False],
    'bias': [True, False],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSimplifiedDropconnect(testing.FunctionTestCase):

    ratio = 0.4
    n_out = 2

    def setUp(self):
        n_in = int(numpy.prod(self.x_shape[1:]))
        W_shape = (self.n_out, n_in)
        if self.batchwise:
            W_shape = (self.x_shape[0],) + W_shape
        self.mask = numpy.random.uniform(0, 1, W_shape) >= self.ratio
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_forward_options = {'atol': 1e-5, 'rtol': 1e-5}

    def generate_inputs(self):
        n_in = int(numpy.prod(self.x_shape[1:]))
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, (self.n_out, n_in)).astype(
            self.dtype)
        if not self.bias:
            return x, W
        b = numpy.random.uniform(-1, 1, self.n_out).astype(self.dtype)
        return x, W, b

    def forward(self, inputs, device):
        return F.simplified_dropconnect(
            *inputs, ratio=self.ratio, mask=device.send(self.mask),
            use_batchwise_mask=self.batchwise),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if self.bias else None
        y = _expected(x, W, b, self.mask, self.ratio)
        return y.astype(self.dtype),


@pytest.mark.parametrize('batchwise', [True, False])
def test_draws_mask_like_numpy(batchwise):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    W = rng.uniform(-1, 1, (5, 3)).astype(numpy.float32)
    numpy.random.seed(4)
    y = F.simplified_dropconnect(
        chainer.Variable(x), W, ratio=0.3, use_batchwise_mask=batchwise)
    numpy.random.seed(4)
    shape = (4, 5, 3) if batchwise else (5, 3)
    mask = numpy.random.rand(*shape) >= 0.3
    assert type(y.creator) is simplified_dropconnect.SimplifiedDropconnect
    numpy.testing.assert_allclose(
        y.array, _expected(x, W, None, mask, 0.3), rtol=1e-5, atol=1e-6)


def test_not_train_is_linear():
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    W = rng.uniform(-1, 1, (5, 3)).astype(numpy.float32)
    b = rng.uniform(-1, 1, 5).astype(numpy.float32)
    y = F.simplified_dropconnect(x, W, b, ratio=0.9, train=False)
    numpy.testing.assert_allclose(y.array, x.dot(W.T) + b, rtol=1e-5)


def test_variable_mask():
    x = numpy.ones((2, 3), numpy.float32)
    W = numpy.ones((4, 3), numpy.float32)
    mask = chainer.Variable(numpy.ones((2, 4, 3), numpy.float32))
    y = F.simplified_dropconnect(x, W, ratio=0.5, mask=mask)
    numpy.testing.assert_array_equal(y.array, numpy.full((2, 4), 6.))


@pytest.mark.parametrize('x_shape, W_shape, b_shape', [
    ((2, 3), (4, 2), None),
    ((3,), (4, 3), None),
    ((2, 3), (4, 3), (3,)),
    ((2, 3), (4, 3, 1), None)], ids=str)
def test_bad_shapes(x_shape, W_shape, b_shape):
    inputs = [numpy.ones(x_shape, numpy.float32),
              numpy.ones(W_shape, numpy.float32)]
    b = None if b_shape is None else numpy.ones(b_shape, numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.simplified_dropconnect(*inputs, b=b)


@pytest.mark.parametrize('batchwise, mask_shape', [
    (True, (4, 3)), (True, (3, 4, 3)), (False, (2, 4, 3))], ids=str)
def test_bad_mask_shape(batchwise, mask_shape):
    x = numpy.ones((2, 3), numpy.float32)
    W = numpy.ones((4, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.simplified_dropconnect(x, W, mask=numpy.ones(mask_shape, bool),
                                 use_batchwise_mask=batchwise)
