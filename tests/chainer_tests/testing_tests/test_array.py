import numpy
import pytest

import chainer
from chainer import testing
from chainer.testing import array as array_module


class TestAssertAllclose:

    def test_close(self):
        x = numpy.array([1.0, 2.0, 3.0], numpy.float32)
        testing.assert_allclose(x, x + 1e-6)
        testing.assert_allclose(x, x + 0.5, atol=0.6, rtol=0)
        testing.assert_allclose(x, x * 1.1, atol=0, rtol=0.1)

    def test_scalars_and_zero_dim(self):
        testing.assert_allclose(1.0, numpy.array(1.0))
        testing.assert_allclose(numpy.float32(2), 2)
        with pytest.raises(AssertionError):
            testing.assert_allclose(1.0, 2)

    def test_variables(self):
        x = numpy.array([1.0, 2.0])
        testing.assert_allclose(chainer.Variable(x), x)
        with pytest.raises(AssertionError):
            testing.assert_allclose(x, chainer.Variable(x + 1))

    def test_message(self):
        x = numpy.array([1.0, 2.0, 3.0], numpy.float32)
        y = numpy.array([1.0, 2.5, 3.0])
        with pytest.raises(AssertionError) as e:
            testing.assert_allclose(x, y)
        message = str(e.value)
        assert message.startswith('\nNot equal to tolerance')
        expected = (
            '\n\nassert_allclose failed:\n'
            '  shape: (3,) (3,)\n'
            '  dtype: float32 float64\n'
            '  i: (1,)\n'
            '  x[i]: 2.0\n'
            '  y[i]: 2.5\n'
            '  relative error[i]: 0.2\n'
            '  absolute error[i]: 0.5\n'
            '  relative tolerance * |y[i]|: 0.00025\n'
            '  absolute tolerance: 1e-05\n'
            '  total tolerance: 0.00026000000000000003\n'
            'x: [1. 2. 3.]\n'
            'y: [1.  2.5 3. ]\n')
        assert message.endswith(expected)

    def test_message_zero_reference(self):
        with pytest.raises(AssertionError) as e:
            testing.assert_allclose(numpy.ones((2, 2)), numpy.zeros((2, 2)))
        assert '  i: (0, 0)\n' in str(e.value)
        assert '  relative error[i]: inf\n' in str(e.value)

    def test_shape_mismatch(self):
        with pytest.raises(AssertionError) as e:
            testing.assert_allclose(numpy.zeros((2, 2)), numpy.zeros(3))
        message = str(e.value)
        assert '  shape: (2, 2) (3,)\n' in message
        assert '  i: ' not in message

    def test_nan(self):
        testing.assert_allclose(numpy.array([numpy.nan]),
                                numpy.array([numpy.nan]))
        with pytest.raises(AssertionError):
            testing.assert_allclose(numpy.array([numpy.nan]),
                                    numpy.array([1.0]))

    @pytest.mark.gpu
    def test_gpu_arrays(self):
        cupy = pytest.importorskip('cupy')
        x = numpy.array([1.0, 2.0])
        testing.assert_allclose(cupy.asarray(x), x)
        testing.assert_allclose(x, cupy.asarray(x))
        with pytest.raises(AssertionError):
            testing.assert_allclose(cupy.asarray(x), x + 1)


class TestNoncontiguous:

    @pytest.mark.parametrize('shape', [(3,), (2, 3), (2, 1, 4)])
    def test_values_kept(self, shape):
        a = numpy.arange(numpy.prod(shape), dtype=numpy.float32).reshape(
            shape)
        b = array_module._as_noncontiguous_array(a)
        assert not b.flags.c_contiguous
        assert b.dtype == a.dtype
        numpy.testing.assert_array_equal(a, b)

    def test_small_and_none(self):
        a = numpy.ones((1, 1))
        assert array_module._as_noncontiguous_array(a) is a
        assert array_module._as_noncontiguous_array(None) is None

    def test_sequences(self):
        arrays = (numpy.ones((2, 2)), None)
        result = array_module._as_noncontiguous_array(arrays)
        assert isinstance(result, tuple)
        assert not result[0].flags.c_contiguous
        assert result[1] is None
        assert isinstance(
            array_module._as_noncontiguous_array([numpy.ones(3)]), list)

    @pytest.mark.gpu
    def test_gpu(self):
        cupy = pytest.importorskip('cupy')
        a = cupy.arange(6, dtype=cupy.float32).reshape(2, 3)
        b = array_module._as_noncontiguous_array(a)
        assert isinstance(b, cupy.ndarray)
        assert not b.flags.c_contiguous
        cupy.testing.assert_array_equal(a, b)
