"""Image processing helpers of the pre-trained vision models."""

import numpy


def oversample(images, crop_dims):
    """Crops the corners and the center of images, and their mirrors.

    Each ``(C, H, W)`` image gives ten crops of size ``crop_dims``, in this
    order: the top-left, top-right, bottom-left and bottom-right corners,
    the center, then the same five flipped left to right.

    Args:
        images (sequence of numpy.ndarray): Images of the same shape
            ``(C, H, W)`` (or one array of shape ``(N, C, H, W)``).
        crop_dims (pair of ints): Height and width of the crops.

    Returns:
        numpy.ndarray: The crops, of shape ``(10 * N, C, h, w)``.
    """
    channels, src_h, src_w = images[0].shape
    dst_h, dst_w = crop_dims
    bottom, right = src_h - dst_h, src_w - dst_w
    center_y = int(src_h / 2.0 - dst_h / 2.0)
    center_x = int(src_w / 2.0 - dst_w / 2.0)
    tops = (0, 0, bottom, bottom, center_y)
    lefts = (0, right, 0, right, center_x)

    crops = numpy.empty(
        (10 * len(images), channels, dst_h, dst_w), dtype=images[0].dtype)
    for n, image in enumerate(images):
        first = 10 * n
        for k, (top, left) in enumerate(zip(tops, lefts)):
            crops[first + k] = image[:, top:top + dst_h, left:left + dst_w]
        crops[first + 5:first + 10] = crops[first:first + 5, :, :, ::-1]
    return crops
