import numpy
import pytest

from chainer import initializer
from chainer.initializers import uniform


# Values drawn by Chainer 7.8.1 after numpy.random.seed(0), float32.
ORIGINAL = {
    ('Uniform', 0.3, (2, 3)): [
        [0.029288101941347122, 0.12911361455917358, 0.06165802478790283],
        [0.026929909363389015, -0.0458071194589138, 0.08753646910190582]],
    ('LeCunUniform', 1.0, (2, 3)): [
        [0.09762700647115707, 0.4303787350654602, 0.20552675426006317],
        [0.08976636826992035, -0.15269039571285248, 0.2917882204055786]],
    ('GlorotUniform', 2.0, (2, 3)): [
        [0.21389006078243256, 0.9429125785827637, 0.4502865672111511],
        [0.19666825234889984, -0.3345279097557068, 0.6392759680747986]],
    ('HeUniform', 1.0, (2, 2, 2)): [
        [[0.11956817656755447, 0.5271041393280029],
         [0.25171783566474915, 0.10994089394807816]],
        [[-0.18700678646564484, 0.357366144657135],
         [-0.1528794914484024, 0.9596439599990845]]],
}


@pytest.mark.parametrize('key', sorted(ORIGINAL), ids=lambda k: k[0])
def test_same_draws_as_original(key):
    name, scale, shape = key
    numpy.random.seed(0)
    array = numpy.empty(shape, numpy.float32)
    getattr(uniform, name)(scale)(array)
    numpy.testing.assert_array_equal(
        array, numpy.array(ORIGINAL[key], numpy.float32))


def test_rng_same_draws_as_original():
    array = numpy.empty((2, 3), numpy.float32)
    uniform.Uniform(0.3, rng=numpy.random.RandomState(5))(array)
    expected = [
        [-0.16680409014225006, 0.22243937849998474, -0.17596851289272308],
        [0.25116655230522156, -0.006953286938369274, 0.06704631447792053]]
    numpy.testing.assert_array_equal(
        array, numpy.array(expected, numpy.float32))


def _bound(name, scale, shape):
    fan_in, fan_out = initializer.get_fans(shape)
    factor = {'LeCunUniform': 3. / fan_in,
              'GlorotUniform': 6. / (fan_in + fan_out),
              'HeUniform': 6. / fan_in}[name]
    return scale * numpy.sqrt(factor)


@pytest.mark.parametrize('name', ['LeCunUniform', 'GlorotUniform',
                                  'HeUniform'])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_fan_scaled_bounds_and_spread(name, dtype):
    shape = (64, 32, 3, 3)
    numpy.random.seed(1)
    array = numpy.empty(shape, dtype)
    getattr(uniform, name)(scale=0.5)(array)
    bound = _bound(name, 0.5, shape)
    assert array.dtype == dtype
    assert numpy.abs(array).max() <= bound * (1 + 1e-3)
    # Uniform on [-s, s] has standard deviation s / sqrt(3).
    numpy.testing.assert_allclose(
        array.astype(numpy.float64).std(), bound / numpy.sqrt(3), rtol=0.02)


def test_uniform_range():
    numpy.random.seed(2)
    array = numpy.empty((1000,), numpy.float64)
    uniform.Uniform(2.0)(array)
    assert -2.0 <= array.min() < -1.9
    assert 1.9 < array.max() <= 2.0


def test_dtype_mismatch_is_an_error():
    with pytest.raises(AssertionError):
        uniform.Uniform(dtype=numpy.float64)(numpy.empty(3, numpy.float32))


def test_fans_need_two_axes():
    with pytest.raises(ValueError):
        uniform.GlorotUniform()(numpy.empty(3, numpy.float32))


def test_rng_keyword_only():
    with pytest.raises(TypeError):
        uniform.Uniform(0.1, numpy.float32, seed=3)


@pytest.mark.gpu
def test_gpu_uses_cupy_generator():
    import cupy
    cupy.random.seed(0)
    array = cupy.empty((2, 3), numpy.float32)
    uniform.HeUniform()(array)
    cupy.random.seed(0)
    expected = cupy.random.uniform(-3, 3, (2, 3))
    cupy.testing.assert_allclose(array, expected, rtol=1e-6)
