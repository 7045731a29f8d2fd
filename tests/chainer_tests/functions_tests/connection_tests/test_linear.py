import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.connection import linear
from chainer import testing
from chainer.utils import type_check


def _backward_tols(dtype):
    if dtype == numpy.float16:
        return {'atol': 5e-2, 'rtol': 5e-2}
    return {'atol': 1e-3, 'rtol': 1e-3}


@testing.parameterize(*(testing.product({
    'x_shape,n_batch_axes': [
        ((4, 3), 1), ((4, 3, 2), 1), ((4, 3, 2), 2), ((0, 6), 1)],
    'x_dtype': [numpy.float16, numpy.float32, numpy.float64],
    'nobias': [False, True],
}) + [
    {'x_shape': (4, 3), 'n_batch_axes': 1, 'x_dtype': numpy.float16,
     'W_dtype': numpy.float32, 'nobias': False},
    {'x_shape': (4, 3), 'n_batch_axes': 1, 'x_dtype': numpy.float32,
     'W_dtype': numpy.float64, 'nobias': True},
]))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLinear(testing.FunctionTestCase):

    W_dtype = None

    def setUp(self):
        if self.x_dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
        self.check_backward_options = _backward_tols(self.x_dtype)
        self.check_double_backward_options = _backward_tols(self.x_dtype)

    def generate_inputs(self):
        in_size = int(numpy.prod(self.x_shape[self.n_batch_axes:]))
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.x_dtype)
        W = numpy.random.uniform(-1, 1, (2, in_size)).astype(
            self.W_dtype or self.x_dtype)
        if self.nobias:
            return x, W
        b = numpy.random.uniform(-1, 1, (2,)).astype(self.x_dtype)
        return x, W, b

    def forward(self, inputs, device):
        return F.linear(*inputs, n_batch_axes=self.n_batch_axes),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        batch_shape = x.shape[:self.n_batch_axes]
        x2 = x.reshape(int(numpy.prod(batch_shape)), W.shape[1])
        y = x2.astype(numpy.float64).dot(W.T.astype(numpy.float64))
        if len(inputs) == 3:
            y += inputs[2]
        return y.reshape(batch_shape + (len(W),)).astype(self.x_dtype),


def test_node_class_label_and_shape():
    x = chainer.Variable(numpy.ones((3, 4), numpy.float32))
    y = F.linear(x, numpy.ones((5, 4), numpy.float32))
    assert type(y.creator) is linear.LinearFunction
    assert y.creator.label == 'LinearFunction'
    assert y.shape == (3, 5) and y.dtype == numpy.float32


def test_gradients_of_mixed_dtypes_keep_their_dtypes():
    x = chainer.Variable(numpy.ones((3, 4), numpy.float16))
    W = chainer.Variable(numpy.ones((5, 4), numpy.float32))
    y = F.linear(x, W)
    assert y.dtype == numpy.float16
    F.sum(y).backward()
    assert x.grad.dtype == numpy.float16
    assert W.grad.dtype == numpy.float32


def test_n_batch_axes_must_be_positive():
    with pytest.raises(ValueError, match='n_batch_axes'):
        F.linear(numpy.ones((2, 3), numpy.float32),
                 numpy.ones((4, 3), numpy.float32), n_batch_axes=0)


@pytest.mark.parametrize('x_shape, W_shape, b_shape, x_dtype', [
    ((2, 3), (4, 2), None, numpy.float32),
    ((2, 3), (4, 3), (3,), numpy.float32),
    ((2, 3), (4, 3), (4, 1), numpy.float32),
    ((2, 3), (4, 3), None, numpy.int32),
    ((3,), (4, 3), None, numpy.float32),
], ids=['in_size', 'b_size', 'b_ndim', 'int_x', '1d_x'])
def test_invalid_types(x_shape, W_shape, b_shape, x_dtype):
    args = [numpy.ones(x_shape, x_dtype), numpy.ones(W_shape, numpy.float32)]
    if b_shape is not None:
        args.append(numpy.ones(b_shape, numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.linear(*args)


def test_bias_dtype_must_match_x():
    with pytest.raises(type_check.InvalidType):
        F.linear(numpy.ones((2, 3), numpy.float32),
                 numpy.ones((4, 3), numpy.float32),
                 numpy.ones((4,), numpy.float64))


@pytest.mark.parametrize('mode', ['never', 'auto'])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('steps, batch, n_out, n_in', [
    (5, 3, 6, 4), (30, 2, 50, 40), (3, 1, 2, 2),
], ids=['added-at-once', 'stacked-in-groups', 'one-addition'])
def test_weight_shared_by_many_steps(mode, dtype, steps, batch, n_out, n_in,
                                     kernel_calls):
    # From the third use on, the weight gradients are added to the running
    # sum by the product itself (with the kernels), at once or stacked
    # over several steps when the rows are small beside the weight; the
    # sum is the same.
    rng = numpy.random.RandomState(0)
    W = chainer.Variable(rng.uniform(-1, 1, (n_out, n_in)).astype(dtype))
    b = chainer.Variable(rng.uniform(-1, 1, n_out).astype(dtype))
    xs = rng.uniform(-1, 1, (steps, batch, n_in)).astype(dtype)
    gys = rng.uniform(-1, 1, (steps, batch, n_out)).astype(dtype)
    with chainer.using_config('use_chainerx_cpp', mode):
        loss = sum(F.sum(F.linear(x, W, b) * gy) for x, gy in zip(xs, gys))
        loss.backward()
    tol = {'atol': 1e-5, 'rtol': 1e-5}
    testing.assert_allclose(
        W.grad, sum(gy.T.dot(x) for x, gy in zip(xs, gys)), **tol)
    testing.assert_allclose(b.grad, gys.sum(axis=(0, 1)), **tol)
    # The float32 kernel, where built, runs the product of each step, the
    # first weight gradient and at least one sum into it.
    uses_kernel = (mode == 'auto' and dtype == numpy.float32
                   and kernel_calls.available)
    kernel_calls.check(['gemm'] * (steps + 2) if uses_kernel else ())
