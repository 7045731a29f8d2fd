"""Initializers of convolution filters that resample images linearly."""

import numpy

from chainer import backend
from chainer import initializer


def _linear_filter(size, ndim, upsampling):
    # Separable tent (bilinear, trilinear, ...) kernel of width ``size``.
    factor = (size + 1) // 2
    center = factor - 1. if size % 2 == 1 else factor - 0.5
    tent = 1. - numpy.abs(numpy.arange(size) - center) / factor
    filt = numpy.ones((size,) * ndim)
    for axis in range(ndim):
        shape = [1] * ndim
        shape[axis] = size
        filt = filt * tent.reshape(shape)
    if not upsampling:
        filt /= filt.sum()
    return filt


class _SamplingFilter(initializer.Initializer):

    _upsampling = True

    def __init__(self, interpolation='linear', dtype=None):
        if interpolation != 'linear':
            raise ValueError(
                'Unsupported interpolation method: {}'.format(interpolation))
        self.interpolation = interpolation
        super().__init__(dtype)

    def __call__(self, array):
        if self.dtype is not None:
            assert array.dtype == self.dtype
        xp = backend.get_array_module(array)
        in_c, out_c = array.shape[:2]
        assert in_c == out_c or out_c == 1
        ksizes = array.shape[2:]
        for k in ksizes[1:]:
            if k != ksizes[0]:
                raise ValueError(
                    'ksize must be all same: {} != {}'.format(ksizes[0], k))
        filt = xp.asarray(_linear_filter(
            ksizes[0], array.ndim - 2, self._upsampling))
        array[...] = 0.
        channels = xp.arange(in_c)
        if out_c == 1:
            array[channels, 0, ...] = filt
        else:
            array[channels, channels, ...] = filt


class UpsamplingDeconvFilter(_SamplingFilter):
    """Fills a deconvolution filter with a linear upsampling kernel.

    Each input channel is mapped to the output channel of the same index
    (or to the only output channel) by a separable tent kernel, so that a
    :class:`~chainer.links.DeconvolutionND` of ``stride = (ksize + 1) //
    2`` interpolates its input linearly. The filter shape is ``(in, out,
    k, ..., k)`` with ``in == out`` or ``out == 1``.

    Args:
        interpolation (str): Interpolation method; only ``'linear'``.
        dtype: Data type of the arrays this initializer fills.

    See: Long et al., `Fully Convolutional Networks for Semantic
    Segmentation <https://arxiv.org/abs/1411.4038>`_
    """


class DownsamplingConvFilter(_SamplingFilter):
    """Fills a convolution filter with a linear downsampling kernel.

    Like :class:`UpsamplingDeconvFilter`, but the kernel is normalized to
    sum to one, so that a :class:`~chainer.links.ConvolutionND` of
    ``stride = (ksize + 1) // 2`` averages its input with tent weights.

    Args:
        interpolation (str): Interpolation method; only ``'linear'``.
        dtype: Data type of the arrays this initializer fills.
    """

    _upsampling = False
