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


class TestGenerateMatrix:

    @pytest.mark.parametrize('shape', [(3, 3), (2, 4), (5, 2), (2, 3, 4)])
    @pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64,
                                       numpy.complex128])
    def test_singular_values(self, shape, dtype):
        k = min(shape[-2:])
        singular_values = numpy.linspace(1, 2, k)
        a = testing.generate_matrix(
            shape, dtype=dtype, singular_values=singular_values)
        assert a.shape == shape
        assert a.dtype == dtype
        s = numpy.linalg.svd(a.astype(numpy.complex128), compute_uv=False)
        numpy.testing.assert_allclose(
            numpy.sort(s, axis=-1),
            numpy.broadcast_to(singular_values, s.shape), rtol=1e-5)

    def test_zero_size(self):
        a = testing.generate_matrix((0, 3), singular_values=[])
        assert a.shape == (0, 3)

    @pytest.mark.parametrize('kwargs, error, match', [
        ({'shape': (3,), 'singular_values': 1}, ValueError, 'too few axes'),
        ({'shape': (2, 2), 'dtype': numpy.int32, 'singular_values': 1},
         TypeError, 'not supported'),
        ({'shape': (2, 2)}, TypeError, 'singular_values is not given'),
        ({'shape': (2, 2), 'singular_values': [1j, 1]}, TypeError,
         'not real'),
        ({'shape': (2, 2), 'singular_values': [-1, 1]}, ValueError,
         'negative singular value'),
        ({'shape': (2, 2), 'singular_values': 1, 'foo': 1}, TypeError,
         r"generate_matrix\(\) got unexpected keyword argument\(s\) 'foo'"),
    ])
    def test_errors(self, kwargs, error, match):
        with pytest.raises(error, match=match):
            testing.generate_matrix(**kwargs)
