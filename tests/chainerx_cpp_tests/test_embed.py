"""The embed_id gradient kernel against the NumPy code path."""

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
import chainerx_cpp

pytestmark = pytest.mark.skipif(
    not chainerx_cpp.is_available(),
    reason='the chainerx_cpp kernels are not built')


def _tol(dtype):
    if dtype == numpy.float32:
        return {'atol': 1e-5, 'rtol': 1e-5}
    return {'atol': 1e-13, 'rtol': 1e-12}


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('id_dtype', [numpy.int8, numpy.int32, numpy.int64])
@pytest.mark.parametrize('ids_shape,w_shape', [
    ((7,), (5, 3)),
    ((3, 4), (10, 6)),
    ((0,), (4, 3)),
    ((4,), (6, 0)),
    ((700,), (100, 650)),
    ((2000,), (120, 600)),  # on several threads
])
@pytest.mark.parametrize('ignore_label', [None, -1, 2])
@pytest.mark.parametrize('transposed', [False, True])
def test_backward(dtype, id_dtype, ids_shape, w_shape, ignore_label,
                  transposed, in_both_modes):
    rng = numpy.random.RandomState(0)
    low = -1 if ignore_label == -1 else 0
    ids = rng.randint(low, w_shape[0], ids_shape).astype(id_dtype)
    W = rng.randn(*w_shape).astype(dtype)
    y_shape = ids_shape + w_shape[1:]
    if transposed:
        gy = rng.randn(*y_shape[::-1]).astype(dtype).T
    else:
        gy = rng.randn(*y_shape).astype(dtype)

    def compute():
        w = chainer.Variable(W.copy())
        y = F.embed_id(ids, w, ignore_label)
        y.grad = gy
        y.backward()
        return w.grad

    # The kernel adds the rows of gy (none for empty arrays) into gW.
    expected, actual = in_both_modes(
        compute, ('embed_id_backward',) if gy.size else ())
    assert actual.dtype == expected.dtype
    testing.assert_allclose(expected, actual, **_tol(dtype))


def test_kernel_matches_add_at():
    rng = numpy.random.RandomState(1)
    ids = rng.randint(-8, 8, 50).astype(numpy.int16)
    gy = rng.randn(50, 33)
    gW = numpy.zeros((8, 33))
    chainerx_cpp.get_kernels().embed_id_backward(ids, gy, gW, 3)
    expected = numpy.zeros((8, 33))
    kept = ids != 3
    numpy.add.at(expected, ids[kept], gy[kept])
    testing.assert_allclose(expected, gW, atol=1e-13, rtol=1e-12)


def test_kernel_rejects_bad_input():
    embed_id_backward = chainerx_cpp.get_kernels().embed_id_backward
    gy = numpy.ones((3, 4), numpy.float32)
    gW = numpy.zeros((5, 4), numpy.float32)
    with pytest.raises(IndexError):
        embed_id_backward(numpy.array([0, 5, 1]), gy, gW, None)
    with pytest.raises(IndexError):
        embed_id_backward(numpy.array([0, -6, 1]), gy, gW, None)
    with pytest.raises(ValueError):
        embed_id_backward(numpy.array([0, 1]), gy, gW, None)
    with pytest.raises(ValueError):
        embed_id_backward(numpy.array([0., 1., 2.]), gy, gW, None)
    with pytest.raises(ValueError):
        embed_id_backward(numpy.array([0, 1, 2]), gy, gW[:, :3], None)
    with pytest.raises(ValueError):
        embed_id_backward(numpy.array([0, 1, 2]), gy.astype(numpy.float64),
                          gW, None)


def test_dispatch(kernel_calls):
    w = chainer.Variable(numpy.ones((4, 3), numpy.float32))
    with chainer.using_config('use_chainerx_cpp', 'always'):
        F.sum(F.embed_id(numpy.array([1, 2, 1], numpy.int32), w)).backward()
    assert kernel_calls == ['embed_id_backward']
