import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.connection import embed_id
from chainer import gradient_check
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'x_shape,ignore_label': [((3,), None), ((2, 4), None), ((2, 4), -1),
                             ((5,), 2), ((0,), None)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestEmbedID(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        x = numpy.random.randint(0, 4, self.x_shape).astype(numpy.int32)
        if self.ignore_label is not None and x.size:
            x.ravel()[0] = self.ignore_label
        W = numpy.random.uniform(-1, 1, (4, 3)).astype(self.dtype)
        return x, W

    def forward(self, inputs, device):
        x, W = inputs
        return F.embed_id(x, W, ignore_label=self.ignore_label),

    def forward_expected(self, inputs):
        x, W = inputs
        y = W[numpy.where(x == self.ignore_label, 0, x)]
        if self.ignore_label is not None:
            y[x == self.ignore_label] = 0
        return y,


def test_gradient_sums_repeated_ids():
    W = chainer.Variable(numpy.zeros((3, 2), numpy.float32))
    y = F.embed_id(numpy.array([2, 0, 2, 1], numpy.int32), W,
                   ignore_label=1)
    assert type(y.creator) is embed_id.EmbedIDFunction
    y.grad = numpy.arange(8, dtype=numpy.float32).reshape(4, 2)
    y.backward()
    numpy.testing.assert_array_equal(W.grad, [[2, 3], [0, 0], [4, 6]])


def test_double_backward_of_w():
    x = numpy.array([[0, 1], [2, 0]], numpy.int32)
    W = numpy.random.RandomState(0).uniform(-1, 1, (3, 2))
    gy = numpy.ones((2, 2, 2))
    ggW = numpy.random.RandomState(1).uniform(-1, 1, (3, 2))

    def f(W):
        return F.embed_id(x, W) ** 2
    gradient_check.check_double_backward(f, W, gy, ggW)


def test_out_of_range_ids_in_debug_mode():
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match='0 <= x < len'):
            F.embed_id(numpy.array([0, 3], numpy.int32),
                       numpy.ones((3, 2), numpy.float32))


@pytest.mark.parametrize('x_dtype, W_shape', [
    (numpy.float32, (3, 2)), (numpy.int32, (3, 2, 1))],
    ids=['float_ids', 'W_ndim'])
def test_invalid_types(x_dtype, W_shape):
    with pytest.raises(type_check.InvalidType):
        F.embed_id(numpy.zeros((2,), x_dtype),
                   numpy.ones(W_shape, numpy.float32))


@pytest.mark.parametrize('ids, ignore_label', [
    ([0, 3], None), ([0, -1], None), ([-4], None), ([-2, -1], -1),
    ([3, -1], -1), ([1, 5], 2),
], ids=str)
def test_out_of_range_ids(ids, ignore_label):
    # A negative ID is not read from the end of W.
    W = chainer.Variable(numpy.ones((3, 2), numpy.float32))
    with pytest.raises(IndexError, match='out of bounds for W'):
        F.embed_id(numpy.array(ids, numpy.int32), W, ignore_label)


def test_ignored_id_beyond_w():
    W = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    y = F.embed_id(numpy.array([5, 1], numpy.int32), W, ignore_label=5)
    numpy.testing.assert_array_equal(y.array, [[0, 0], [2, 3]])


@testing.attr.gpu
@pytest.mark.parametrize('ids', [[0, 3], [0, -1]], ids=str)
def test_out_of_range_ids_gpu(ids):
    # CuPy would wrap any out-of-range index around.
    from chainer.backends import cuda
    W = cuda.cupy.ones((3, 2), numpy.float32)
    with pytest.raises(IndexError):
        F.embed_id(cuda.cupy.array(ids, numpy.int32), W)


@pytest.mark.parametrize('mode', ['never', 'auto'])
@pytest.mark.parametrize('ignore_label', [None, 1])
def test_embedding_shared_by_many_steps(mode, ignore_label, kernel_calls):
    # From the third step on, the rows are added into the running sum.
    rng = numpy.random.RandomState(0)
    W = chainer.Variable(rng.uniform(-1, 1, (4, 3)).astype(numpy.float32))
    ids = rng.randint(0, 4, (6, 5)).astype(numpy.int32)
    gys = rng.uniform(-1, 1, (6, 5, 3)).astype(numpy.float32)
    with chainer.using_config('use_chainerx_cpp', mode):
        loss = sum(F.sum(F.embed_id(x, W, ignore_label) * gy)
                   for x, gy in zip(ids, gys))
        loss.backward()
    expected = numpy.zeros_like(W.array)
    for x, gy in zip(ids.ravel(), gys.reshape(-1, 3)):
        if x != ignore_label:
            expected[x] += gy
    testing.assert_allclose(W.grad, expected, atol=1e-5, rtol=1e-5)
    # The kernel, where built, adds the rows of every step.
    uses_kernel = mode == 'auto' and kernel_calls.available
    kernel_calls.check(['embed_id_backward'] * len(ids) if uses_kernel
                       else ())
