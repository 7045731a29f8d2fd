import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer.functions.math import matmul as matmul_module
from chainer import gradient_check
from chainer import testing
from chainer.testing import attr
from chainer.utils import type_check


DTYPES = [numpy.float16, numpy.float32, numpy.float64]

# (a shape, b shape, transa, transb)
SHAPE_CASES = [
    ((3, 2), (2, 4), False, False),
    ((2, 3), (2, 4), True, False),
    ((3, 2), (4, 2), False, True),
    ((2, 3), (4, 2), True, True),
    ((2,), (2,), False, False),
    ((2,), (2, 4), False, False),
    ((2,), (4, 2), True, True),
    ((3, 2), (2,), False, False),
    ((2, 3), (2,), True, True),
    ((5, 3, 2), (5, 2, 4), False, False),
    ((5, 2, 3), (5, 4, 2), True, True),
    ((5, 3, 2), (2, 4), False, False),
    ((3, 2), (5, 2, 4), False, False),
    ((5, 1, 3, 2), (4, 2, 4), False, False),
    ((2, 1, 2, 3), (3, 4, 2), True, True),
    ((5, 3, 2), (2,), False, False),
    ((2,), (5, 2, 4), False, False),
    ((1, 3, 2), (5, 2, 4), False, False),
]
SHAPE_IDS = ['{}x{}{}{}'.format(a, b, 'T' if ta else '', 'T' if tb else '')
             .replace(' ', '') for a, b, ta, tb in SHAPE_CASES]


def _reference(a, b, transa, transb):
    a = a.astype(numpy.float64)
    b = b.astype(numpy.float64)
    if transa and a.ndim > 1:
        a = a.swapaxes(-1, -2)
    if transb and b.ndim > 1:
        b = b.swapaxes(-1, -2)
    return numpy.matmul(a, b)


def _tols(dtype):
    if dtype == numpy.float16:
        return ({'atol': 1e-2, 'rtol': 1e-2},
                {'dtype': numpy.float64, 'atol': 2e-2, 'rtol': 2e-2})
    return ({'atol': 1e-5, 'rtol': 1e-5},
            {'dtype': numpy.float64, 'atol': 1e-3, 'rtol': 1e-3})


@pytest.mark.parametrize('case', SHAPE_CASES, ids=SHAPE_IDS)
@pytest.mark.parametrize('dtype', DTYPES)
class TestMatMul:

    def _inputs(self, case, dtype):
        a_shape, b_shape, transa, transb = case
        a = numpy.random.uniform(-1, 1, a_shape).astype(dtype)
        b = numpy.random.uniform(-1, 1, b_shape).astype(dtype)
        return a, b, transa, transb

    def test_forward(self, case, dtype):
        a, b, transa, transb = self._inputs(case, dtype)
        y = F.matmul(a, b, transa=transa, transb=transb)
        expected = _reference(a, b, transa, transb)
        assert isinstance(y.array, numpy.ndarray)
        assert y.dtype == dtype
        assert y.shape == expected.shape
        testing.assert_allclose(y.array, expected, **_tols(dtype)[0])

    def test_backward(self, case, dtype):
        a, b, transa, transb = self._inputs(case, dtype)
        y_shape = _reference(a, b, transa, transb).shape
        gy = numpy.random.uniform(-1, 1, y_shape).astype(dtype)
        gga = numpy.random.uniform(-1, 1, a.shape).astype(dtype)
        ggb = numpy.random.uniform(-1, 1, b.shape).astype(dtype)

        def f(x, w):
            return F.matmul(x, w, transa=transa, transb=transb)
        tol = _tols(dtype)[1]
        gradient_check.check_backward(f, (a, b), gy, **tol)
        gradient_check.check_double_backward(
            f, (a, b), gy, (gga, ggb), **tol)


def test_gradient_values():
    a = numpy.arange(6, dtype=numpy.float64).reshape(2, 3)
    b = numpy.arange(12, dtype=numpy.float64).reshape(3, 4)
    va, vb = chainer.Variable(a), chainer.Variable(b)
    y = F.matmul(va, vb)
    gy = numpy.ones((2, 4))
    y.grad = gy
    y.backward()
    testing.assert_allclose(va.grad, gy @ b.T)
    testing.assert_allclose(vb.grad, a.T @ gy)


def test_broadcast_gradient_is_summed():
    a = numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32)
    b = numpy.random.uniform(-1, 1, (5, 2, 4)).astype(numpy.float32)
    va = chainer.Variable(a)
    y = F.matmul(va, b)
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    assert va.grad.shape == (3, 2)
    expected = sum(numpy.ones((3, 4)) @ b[i].T for i in range(5))
    testing.assert_allclose(va.grad, expected, atol=1e-5, rtol=1e-5)


def test_mixed_float_dtypes():
    a = numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float16)
    b = numpy.random.uniform(-1, 1, (2, 4)).astype(numpy.float32)
    va, vb = chainer.Variable(a), chainer.Variable(b)
    y = F.matmul(va, vb)
    assert y.dtype == numpy.float32
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    assert va.grad.dtype == numpy.float16
    assert vb.grad.dtype == numpy.float32


def test_output_dtype_option():
    a = numpy.ones((2, 3), numpy.float32)
    b = numpy.ones((3, 2), numpy.float32)
    y, = matmul_module.MatMul(dtype=numpy.float64).apply((a, b))
    assert y.dtype == numpy.float64
    numpy.testing.assert_array_equal(y.array, numpy.full((2, 2), 3.0))


def test_transposed_output():
    a = numpy.random.uniform(-1, 1, (3, 2))
    b = numpy.random.uniform(-1, 1, (2, 4))
    y, = matmul_module.MatMul(transc=True).apply((a, b))
    testing.assert_allclose(y.array, (a @ b).T)

    def f(x, w):
        return matmul_module.MatMul(transc=True).apply((x, w))[0]
    gy = numpy.random.uniform(-1, 1, (4, 3))
    gradient_check.check_backward(f, (a, b), gy)
    gradient_check.check_double_backward(
        f, (a, b), gy, (numpy.ones_like(a), numpy.ones_like(b)))


def test_label():
    y = F.matmul(chainer.Variable(numpy.ones((2, 2), numpy.float32)),
                 numpy.ones((2, 2), numpy.float32))
    assert type(y.creator).__name__ == 'MatMul'
    assert y.creator.label == 'MatMul'


@pytest.mark.parametrize('a_shape, b_shape, transa, transb', [
    ((2, 3), (2, 3), False, False),
    ((2, 3), (2, 3), True, True),
    ((3,), (4,), False, False),
    ((3,), (4, 2), False, False),
    ((2, 4), (3,), False, False),
    ((5, 2, 3, 2), (4, 2, 7), False, False),
    ((), (2, 3), False, False),
    ((2, 3), (), False, False),
], ids=['inner', 'inner_trans', 'vec_vec', 'vec_mat', 'mat_vec',
        'batch', 'scalar_a', 'scalar_b'])
def test_invalid_shapes(a_shape, b_shape, transa, transb):
    a = numpy.ones(a_shape, numpy.float32)
    b = numpy.ones(b_shape, numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.matmul(a, b, transa=transa, transb=transb)


@pytest.mark.parametrize('dtypes', [
    (numpy.int32, numpy.float32), (numpy.float32, numpy.int32)],
    ids=['int_a', 'int_b'])
def test_integer_inputs_refused(dtypes):
    a = numpy.ones((2, 3), dtypes[0])
    b = numpy.ones((3, 2), dtypes[1])
    with pytest.raises(type_check.InvalidType):
        F.matmul(a, b)


def test_batch_matmul():
    a = numpy.random.uniform(-1, 1, (4, 2, 3)).astype(numpy.float32)
    b = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    with pytest.warns(DeprecationWarning):
        y = F.batch_matmul(a, b)
    assert y.shape == (4, 2, 1)
    testing.assert_allclose(y.array, numpy.matmul(a, b[:, :, None]),
                            atol=1e-5, rtol=1e-5)
    with pytest.warns(DeprecationWarning):
        y = F.batch_matmul(a, a, transa=True)
    assert y.shape == (4, 3, 3)
    testing.assert_allclose(
        y.array, numpy.matmul(a.transpose(0, 2, 1), a), atol=1e-5,
        rtol=1e-5)


@attr.gpu
@pytest.mark.parametrize('case', SHAPE_CASES, ids=SHAPE_IDS)
def test_gpu(case):
    a_shape, b_shape, transa, transb = case
    a = numpy.random.uniform(-1, 1, a_shape).astype(numpy.float32)
    b = numpy.random.uniform(-1, 1, b_shape).astype(numpy.float32)
    y = F.matmul(cuda.to_gpu(a), cuda.to_gpu(b), transa, transb)
    assert isinstance(y.array, cuda.ndarray)
    testing.assert_allclose(y.array, _reference(a, b, transa, transb),
                            atol=1e-5, rtol=1e-5)
    gy = cuda.to_gpu(
        numpy.random.uniform(-1, 1, y.shape).astype(numpy.float32))

    def f(x, w):
        return F.matmul(x, w, transa=transa, transb=transb)
    gradient_check.check_backward(
        f, (cuda.to_gpu(a), cuda.to_gpu(b)), gy, atol=1e-3, rtol=1e-3)


def _batch_matmul(*args, **kwargs):
    with pytest.warns(DeprecationWarning):
        return F.batch_matmul(*args, **kwargs)


def test_batch_matmul_node():
    a = numpy.ones((4, 2, 3), numpy.float32)
    y = _batch_matmul(a, numpy.ones((4, 3), numpy.float32))
    assert type(y.creator) is matmul_module.BatchMatMul
    assert y.creator.label == 'BatchMatMul'


@pytest.mark.parametrize('a_shape, b_shape, transa, transb', [
    ((4, 2, 3), (4, 3, 5), False, False),
    ((4, 3, 2), (4, 3, 5), True, False),
    ((4, 2, 3), (4, 5, 3), False, True),
    ((4, 3), (4, 3), True, False),
    ((4, 3), (4, 1, 5), False, False),
])
def test_batch_matmul_gradients(a_shape, b_shape, transa, transb):
    rng = numpy.random.RandomState(3)
    a = rng.uniform(-1, 1, a_shape).astype(numpy.float32)
    b = rng.uniform(-1, 1, b_shape).astype(numpy.float32)
    y = _batch_matmul(a, b, transa=transa, transb=transb)
    am = a.reshape(a.shape[:2] + (-1,))
    bm = b.reshape(b.shape[:2] + (-1,))
    am = am.transpose(0, 2, 1) if transa else am
    bm = bm.transpose(0, 2, 1) if transb else bm
    testing.assert_allclose(y.array, numpy.matmul(am, bm), atol=1e-5,
                            rtol=1e-5)

    def f(a, b):
        return matmul_module.BatchMatMul(transa, transb).apply((a, b))

    gy = rng.uniform(-1, 1, y.shape).astype(numpy.float32)
    gga = rng.uniform(-1, 1, a_shape).astype(numpy.float32)
    ggb = rng.uniform(-1, 1, b_shape).astype(numpy.float32)
    gradient_check.check_backward(
        f, (a, b), gy, dtype=numpy.float64, atol=1e-3, rtol=1e-3)
    gradient_check.check_double_backward(
        f, (a, b), gy, (gga, ggb), dtype=numpy.float64, atol=1e-3,
        rtol=1e-3)


@pytest.mark.parametrize('a, b', [
    (numpy.ones((4, 2, 3), numpy.float64),
     numpy.ones((4, 3, 2), numpy.float64)),
    (numpy.ones((4, 2, 3), numpy.float16),
     numpy.ones((4, 3, 2), numpy.float16)),
    (numpy.ones(3, numpy.float32), numpy.ones(3, numpy.float32)),
    (numpy.ones((), numpy.float32), numpy.ones((), numpy.float32)),
    (numpy.ones((4, 2, 3, 1), numpy.float32),
     numpy.ones((4, 3, 2), numpy.float32)),
    (numpy.ones((4, 2, 3), numpy.float32),
     numpy.ones((4, 2, 3), numpy.float32)),
], ids=['float64', 'float16', 'vectors', 'scalars', 'four_dims',
        'inner_mismatch'])
def test_batch_matmul_invalid(a, b):
    # Only float32 batches of matrices or vectors, as in the original.
    with pytest.raises(type_check.InvalidType):
        _batch_matmul(a, b)
