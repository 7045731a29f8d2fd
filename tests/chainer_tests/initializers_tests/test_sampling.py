import numpy
import pytest

from chainer.initializers import sampling


def _fill(init, shape):
    array = numpy.full(shape, numpy.nan, numpy.float32)
    init(array)
    return array


def test_upsampling_filters_of_original():
    # Chainer 7.8.1's values.
    tent4 = numpy.array([0.25, 0.75, 0.75, 0.25])
    numpy.testing.assert_array_equal(
        _fill(sampling.UpsamplingDeconvFilter(), (1, 1, 4, 4))[0, 0],
        numpy.outer(tent4, tent4))
    numpy.testing.assert_array_equal(
        _fill(sampling.UpsamplingDeconvFilter(), (1, 1, 3, 3))[0, 0],
        [[0.25, 0.5, 0.25], [0.5, 1.0, 0.5], [0.25, 0.5, 0.25]])


def test_downsampling_filters_of_original():
    numpy.testing.assert_array_equal(
        _fill(sampling.DownsamplingConvFilter(), (1, 1, 3, 3))[0, 0],
        [[0.0625, 0.125, 0.0625], [0.125, 0.25, 0.125],
         [0.0625, 0.125, 0.0625]])
    numpy.testing.assert_array_equal(
        _fill(sampling.DownsamplingConvFilter(), (2, 2, 4)),
        [[[0.125, 0.375, 0.375, 0.125], [0, 0, 0, 0]],
         [[0, 0, 0, 0], [0.125, 0.375, 0.375, 0.125]]])


def test_one_output_channel_and_3d():
    array = _fill(sampling.UpsamplingDeconvFilter(), (3, 1, 2, 2, 2))
    numpy.testing.assert_array_equal(array, numpy.full(array.shape, 0.125))
    array = _fill(sampling.DownsamplingConvFilter(), (2, 1, 5, 5, 5))
    numpy.testing.assert_allclose(array.sum(axis=(2, 3, 4)), 1, rtol=1e-6)


def test_channel_diagonal():
    array = _fill(sampling.UpsamplingDeconvFilter(), (3, 3, 2, 2))
    mask = numpy.eye(3, dtype=bool)
    assert (array[~mask] == 0).all()
    assert (array[mask] > 0).all()


def test_upsampling_deconvolution_interpolates():
    from chainer import functions
    x = numpy.arange(4, dtype=numpy.float32).reshape(1, 1, 4)
    W = _fill(sampling.UpsamplingDeconvFilter(), (1, 1, 4))
    y = functions.deconvolution_1d(x, W, stride=2, pad=1)
    # Samples at the half-pixel positions between the inputs (the last
    # one misses its right neighbour).
    numpy.testing.assert_allclose(
        y.array.ravel(), [0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 2.25])


def test_errors():
    with pytest.raises(ValueError, match='Unsupported interpolation'):
        sampling.UpsamplingDeconvFilter(interpolation='cubic')
    with pytest.raises(ValueError, match='Unsupported interpolation'):
        sampling.DownsamplingConvFilter(interpolation='nearest')
    with pytest.raises(ValueError, match='ksize must be all same'):
        _fill(sampling.UpsamplingDeconvFilter(), (2, 2, 3, 4))
    with pytest.raises(AssertionError):
        _fill(sampling.UpsamplingDeconvFilter(), (2, 3, 3, 3))
