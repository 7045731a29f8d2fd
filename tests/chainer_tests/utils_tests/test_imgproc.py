import numpy
import pytest

from chainer.utils import imgproc


def _images(n, shape):
    return numpy.arange(n * int(numpy.prod(shape)), dtype=numpy.float32) \
        .reshape((n,) + shape)


@pytest.mark.parametrize('n', [1, 3])
def test_crops_and_mirrors(n):
    images = _images(n, (2, 7, 9))
    crops = imgproc.oversample(images, (4, 6))
    assert crops.shape == (10 * n, 2, 4, 6)
    assert crops.dtype == numpy.float32
    for k, image in enumerate(images):
        expected = [image[:, :4, :6], image[:, :4, 3:], image[:, 3:, :6],
                    image[:, 3:, 3:], image[:, 1:5, 1:7]]
        expected += [e[:, :, ::-1] for e in expected]
        for i, e in enumerate(expected):
            numpy.testing.assert_array_equal(crops[10 * k + i], e)


def test_list_of_images():
    images = list(_images(2, (1, 4, 4)))
    crops = imgproc.oversample(images, (4, 4))
    # Crops of the whole image: five copies, then five mirrors.
    for k, image in enumerate(images):
        for i in range(5):
            numpy.testing.assert_array_equal(crops[10 * k + i], image)
            numpy.testing.assert_array_equal(
                crops[10 * k + 5 + i], image[:, :, ::-1])


def test_center_of_odd_margins():
    # The center crop starts at int(H / 2 - h / 2): 256 -> 224 gives 16.
    image = _images(1, (1, 256, 256))
    crops = imgproc.oversample(image, (224, 224))
    numpy.testing.assert_array_equal(crops[4], image[0, :, 16:240, 16:240])
    image = _images(1, (1, 5, 5))
    crops = imgproc.oversample(image, (2, 2))
    numpy.testing.assert_array_equal(crops[4], image[0, :, 1:3, 1:3])
