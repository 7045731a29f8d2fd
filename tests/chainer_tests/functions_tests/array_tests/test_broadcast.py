import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
from chainer.testing import attr
from chainer.utils import type_check


DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def _tol(dtype):
    # Numerical gradients in float64; float16 backward rounds more.
    if dtype == numpy.float16:
        return {'dtype': numpy.float64, 'atol': 1e-2, 'rtol': 1e-2}
    return {'dtype': numpy.float64}

BROADCAST_CASES = [
    [(3, 1, 4), (1, 2, 4), (3, 2, 1)],
    [(3, 2), (2,)],
    [(2, 3), ()],
    [(), ()],
    [(1,), (4, 1), (3,)],
    [(2, 3), (2, 3)],
]
BROADCAST_IDS = ['_'.join(str(s).replace(' ', '') for s in shapes)
                 for shapes in BROADCAST_CASES]


@pytest.mark.parametrize('shapes', BROADCAST_CASES, ids=BROADCAST_IDS)
@pytest.mark.parametrize('dtype', DTYPES)
class TestBroadcast:

    def _inputs(self, shapes, dtype):
        return tuple(numpy.random.uniform(-1, 1, s).astype(dtype)
                     for s in shapes)

    def test_forward(self, shapes, dtype):
        xs = self._inputs(shapes, dtype)
        ys = F.broadcast(*[chainer.Variable(x) for x in xs])
        expected = numpy.broadcast_arrays(*xs)
        assert isinstance(ys, tuple)
        assert len(ys) == len(xs)
        for y, e in zip(ys, expected):
            assert type(y.creator).__name__ == 'Broadcast'
            assert y.dtype == dtype
            numpy.testing.assert_array_equal(y.array, e)

    def test_backward(self, shapes, dtype):
        xs = self._inputs(shapes, dtype)
        out_shape = numpy.broadcast(*xs).shape
        gys = tuple(numpy.random.uniform(-1, 1, out_shape).astype(dtype)
                    for _ in xs)
        ggxs = self._inputs(shapes, dtype)
        gradient_check.check_backward(F.broadcast, xs, gys,
                                      **_tol(dtype))
        gradient_check.check_double_backward(
            F.broadcast, xs, gys, ggxs, **_tol(dtype))


def test_broadcast_mixed_dtypes():
    a = numpy.ones((2, 3), numpy.float32)
    b = numpy.ones((3,), numpy.float64)
    ya, yb = F.broadcast(a, b)
    assert ya.dtype == numpy.float32
    assert yb.dtype == numpy.float64
    assert yb.shape == (2, 3)


def test_broadcast_one_argument():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    assert F.broadcast(x) is x
    y = F.broadcast(numpy.ones((2, 3), numpy.float32))
    assert isinstance(y, chainer.Variable)
    assert y.creator is None


def test_broadcast_only_one_gradient():
    a = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    b = chainer.Variable(numpy.ones((3,), numpy.float32))
    ya, yb = F.broadcast(a, b)
    yb.grad = numpy.ones((2, 3), numpy.float32)
    yb.backward()
    numpy.testing.assert_array_equal(b.grad, [2, 2, 2])


def test_broadcast_incompatible_shapes():
    with pytest.raises(type_check.InvalidType):
        F.broadcast(numpy.ones((2, 3), numpy.float32),
                    numpy.ones((4,), numpy.float32))


def test_broadcast_no_arguments():
    with pytest.raises(type_check.InvalidType):
        F.broadcast()


BROADCAST_TO_CASES = [
    ((3,), (2, 3)),
    ((3, 1), (3, 4)),
    ((1, 1), (2, 3)),
    ((), (2, 3)),
    ((2, 1, 3), (4, 2, 5, 3)),
    ((2, 3), [3, 2, 3]),
]
BROADCAST_TO_IDS = ['{}-{}'.format(a, b).replace(' ', '')
                    for a, b in BROADCAST_TO_CASES]


@pytest.mark.parametrize('in_shape, out_shape', BROADCAST_TO_CASES,
                         ids=BROADCAST_TO_IDS)
@pytest.mark.parametrize('dtype', DTYPES)
class TestBroadcastTo:

    def test_forward(self, in_shape, out_shape, dtype):
        x = numpy.random.uniform(-1, 1, in_shape).astype(dtype)
        y = F.broadcast_to(chainer.Variable(x), out_shape)
        assert type(y.creator).__name__ == 'BroadcastTo'
        assert y.dtype == dtype
        numpy.testing.assert_array_equal(
            y.array, numpy.broadcast_to(x, out_shape))

    def test_backward(self, in_shape, out_shape, dtype):
        x = numpy.random.uniform(-1, 1, in_shape).astype(dtype)
        gy = numpy.random.uniform(-1, 1, out_shape).astype(dtype)
        ggx = numpy.random.uniform(-1, 1, in_shape).astype(dtype)

        def f(v):
            return F.broadcast_to(v, out_shape)
        if dtype == numpy.float16:
            tol = {'dtype': numpy.float64, 'atol': 2e-2, 'rtol': 2e-2}
        else:
            tol = {'dtype': numpy.float64, 'atol': 1e-4, 'rtol': 1e-4}
        gradient_check.check_backward(f, x, gy, **tol)
        gradient_check.check_double_backward(f, x, gy, ggx, **tol)


def test_broadcast_to_gradient_is_summed():
    x = chainer.Variable(numpy.zeros((3, 1), numpy.float32))
    y = F.broadcast_to(x, (2, 3, 4))
    y.grad = numpy.ones((2, 3, 4), numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.full((3, 1), 8))


def test_broadcast_to_same_shape_adds_no_node():
    x = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    assert F.broadcast_to(x, (2, 3)) is x


@pytest.mark.parametrize('in_shape, out_shape, message', [
    ((2, 3), (3, 3),
     'in_type[0].shape[-2] == 3 or in_type[0].shape[-2] == 1'),
    ((2, 3), (2, 1), 'in_type[0].shape[-1] == 1'),
    ((2, 3), (3,), 'x.ndim <= len(shape)'),
], ids=['mismatch', 'to_one', 'too_many_dims'])
def test_broadcast_to_invalid(in_shape, out_shape, message):
    x = numpy.zeros(in_shape, numpy.float32)
    with pytest.raises(type_check.InvalidType) as e:
        F.broadcast_to(x, out_shape)
    assert message in str(e.value)


@attr.gpu
def test_gpu():
    x = numpy.random.uniform(-1, 1, (3, 1)).astype(numpy.float32)
    y = F.broadcast_to(cuda.to_gpu(x), (2, 3, 4))
    assert isinstance(y.array, cuda.ndarray)
    testing.assert_allclose(y.array, numpy.broadcast_to(x, (2, 3, 4)))
    gy = cuda.to_gpu(numpy.ones((2, 3, 4), numpy.float32))
    gradient_check.check_backward(
        lambda v: F.broadcast_to(v, (2, 3, 4)), cuda.to_gpu(x), gy,
        atol=1e-3, rtol=1e-3)
    a, b = F.broadcast(cuda.to_gpu(x), cuda.to_gpu(numpy.ones(4, 'f')))
    assert a.shape == b.shape == (3, 4)
