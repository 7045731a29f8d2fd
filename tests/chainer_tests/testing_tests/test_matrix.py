import numpy
import pytest

from chainer import testing
from chainer.testing import matrix


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64,
                                   numpy.complex128])
@pytest.mark.parametrize('x_shape, s_shape', [
    ((2, 3), (2,)), ((2, 3, 4), (2, 1)), ((2, 2), ())])
def test_singular_values(dtype, x_shape, s_shape):
    rng = numpy.random.RandomState(0)
    sv = rng.uniform(0.5, 1.5, s_shape)
    x = testing.generate_matrix(x_shape, dtype=dtype, singular_values=sv)
    assert x.shape == x_shape and x.dtype == dtype
    s = numpy.linalg.svd(x, compute_uv=False)
    expected = numpy.sort(matrix._broadcast_to(sv, s.shape), axis=-1)
    numpy.testing.assert_allclose(s, expected[..., ::-1], rtol=1e-6)


def test_broadcast_to_is_a_view():
    a = numpy.arange(3.)
    b = matrix._broadcast_to(a, (2, 3))
    assert b.shape == (2, 3) and numpy.shares_memory(a, b)
