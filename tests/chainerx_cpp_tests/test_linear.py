import numpy
import pytest

import chainer
import chainerx_cpp
import chainer.functions as F
from chainer import testing


@pytest.mark.parametrize('nobias', [False, True])
@pytest.mark.parametrize('shape', [
    # (batch, in, out)
    (1, 1, 1), (5, 3, 4), (7, 300, 50), (100, 784, 1000),
], ids=lambda s: 'n{}-in{}-out{}'.format(*s))
def test_linear_matches_numpy_path(shape, nobias, run_both):
    n, k, m = shape
    rng = numpy.random.RandomState(0)
    arrays = [rng.uniform(-1, 1, (n, k)).astype('f'),
              rng.uniform(-1, 1, (m, k)).astype('f')]
    if not nobias:
        arrays.append(rng.uniform(-1, 1, m).astype('f'))
    # One product forward, one for each gradient of x and W.
    (y0, g0), (y1, g1) = run_both(F.linear, *arrays, kernels=['gemm'] * 3)
    testing.assert_allclose(y0, y1, atol=1e-4, rtol=1e-4)
    for a, b in zip(g0, g1):
        testing.assert_allclose(a, b, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize('rows', [1, 20, 64, 65, 200])
@pytest.mark.parametrize('trans_a, trans_b', [
    (False, False), (False, True), (True, False), (True, True)])
def test_gemm_matches_numpy(rows, trans_a, trans_b):
    # Plain products of up to 64 rows run through sgemm, the others (and
    # every transposed one) through the matmul primitive.
    rng = numpy.random.RandomState(2)
    a = rng.uniform(-1, 1, (rows, 70)).astype('f')
    b = rng.uniform(-1, 1, (70, 90)).astype('f')
    a_arg = numpy.ascontiguousarray(a.T) if trans_a else a
    b_arg = numpy.ascontiguousarray(b.T) if trans_b else b
    y = chainerx_cpp.get_kernels().gemm(a_arg, b_arg, trans_a, trans_b)
    assert y.shape == (rows, 90) and y.flags.c_contiguous
    testing.assert_allclose(a.astype('d') @ b, y, atol=1e-4, rtol=1e-4)


def test_linear_batch_axes_and_non_contiguous(run_both):
    rng = numpy.random.RandomState(1)
    x = rng.uniform(-1, 1, (4, 3, 12)).astype('f')[:, :, ::2]
    W = rng.uniform(-1, 1, (6, 5)).astype('f').T
    (y0, g0), (y1, g1) = run_both(
        lambda x, W: F.linear(x, W, n_batch_axes=2), x, W,
        kernels=['gemm'] * 3)
    testing.assert_allclose(y0, y1, atol=1e-5, rtol=1e-4)
    for a, b in zip(g0, g1):
        testing.assert_allclose(a, b, atol=1e-5, rtol=1e-4)


def test_linear_calls_the_kernel_in_forward_and_backward(kernel_calls):
    x = chainer.Variable(numpy.ones((3, 4), 'f'))
    W = chainer.Variable(numpy.ones((2, 4), 'f'))
    with chainer.using_config('use_chainerx_cpp', 'always'):
        y = F.linear(x, W)
        y.grad = numpy.ones_like(y.array)
        y.backward()
    assert kernel_calls.count('gemm') == 3
    numpy.testing.assert_array_equal(x.grad, numpy.full((3, 4), 2, 'f'))
    numpy.testing.assert_array_equal(W.grad, numpy.full((2, 4), 3, 'f'))


def test_linear_double_backward_through_the_kernel(kernel_calls):
    rng = numpy.random.RandomState(2)
    x, gx = rng.uniform(-1, 1, (2, 3, 4)).astype('f')
    W, gW = rng.uniform(-1, 1, (2, 5, 4)).astype('f')
    gy = rng.uniform(-1, 1, (3, 5)).astype('f')
    with chainer.using_config('use_chainerx_cpp', 'always'):
        chainer.gradient_check.check_double_backward(
            F.linear, (x, W), gy, (gx, gW), dtype=numpy.float64,
            atol=1e-3, rtol=1e-3)
    kernel_calls.check(('gemm',))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float64])
def test_other_dtypes_stay_on_numpy(dtype, kernel_calls):
    x = numpy.ones((3, 4), dtype)
    W = numpy.ones((2, 4), dtype)
    with chainer.using_config('use_chainerx_cpp', 'always'):
        y = F.linear(x, W)
    assert y.dtype == dtype
    assert 'gemm' not in kernel_calls


def test_gemm_rejects_bad_arguments():
    import chainerx_cpp
    kernels = chainerx_cpp.get_kernels()
    with pytest.raises(ValueError):
        kernels.gemm(numpy.ones((2, 3), 'f'), numpy.ones((2, 3), 'f'),
                     False, False)
    with pytest.raises(ValueError):
        kernels.gemm(numpy.ones((2, 3), 'd'), numpy.ones((3, 2), 'd'),
                     False, False)
    with pytest.raises(ValueError):
        kernels.gemm(numpy.ones((2, 3), 'f'), numpy.ones((3, 2), 'f'),
                     False, False, numpy.ones(3, 'f'))


def test_gemm_adds_into_the_given_array():
    kernels = chainerx_cpp.get_kernels()
    rng = numpy.random.RandomState(3)
    a = rng.uniform(-1, 1, (7, 5)).astype('f')
    b = rng.uniform(-1, 1, (7, 6)).astype('f')
    bias = rng.uniform(-1, 1, 6).astype('f')
    total = rng.uniform(-1, 1, (5, 6)).astype('f')
    expected = total + a.T.dot(b) + bias
    assert kernels.gemm(a, b, True, False, bias, add_to=total) is total
    testing.assert_allclose(total, expected, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize('add_to', [
    numpy.zeros((5, 7), 'f'), numpy.zeros((5, 6), 'd'),
    numpy.zeros((6, 5), 'f').T, numpy.zeros((5, 6), 'f')[:, :, None],
], ids=['shape', 'dtype', 'fortran', 'ndim'])
def test_gemm_refuses_a_wrong_accumulator(add_to):
    a = numpy.ones((7, 5), 'f')
    b = numpy.ones((7, 6), 'f')
    with pytest.raises(ValueError):
        chainerx_cpp.get_kernels().gemm(a, b, True, False, add_to=add_to)


def test_gemm_refuses_an_accumulator_overlapping_an_operand():
    a, b = numpy.ones((2, 6, 6), 'f')
    with pytest.raises(ValueError, match='share memory'):
        chainerx_cpp.get_kernels().gemm(a, b, True, False, add_to=a)
