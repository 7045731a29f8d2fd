"""Vectorized machinery shared by the RoI pooling functions.

A region of interest (RoI) of image ``batch[r]`` is split into
``outh x outw`` bins. The *pooling* variants pool over the integer pixel
rectangle of each bin; the *align* variants average or take the maximum of
bilinearly interpolated samples on a regular grid in each bin. Everything
is computed at once for all RoIs, channels and bins; the only Python loops
run over the pixel (or sample) offsets within a bin.

Shapes: ``x`` is ``(n, c, h, w)``; per-RoI arrays are ``(R,)``; bin bounds
along y are ``(R, outh)`` and along x ``(R, outw)``; pooled arrays are
``(R, c, outh, outw)``.
"""

import collections.abc
import numbers

import numpy

from chainer import backend
from chainer import function
from chainer.functions import _numerics
from chainer import utils
from chainer.utils import type_check


def _pair(x):
    if isinstance(x, collections.abc.Iterable):
        return x
    return x, x


def parse_outsize_and_scale(outsize, spatial_scale):
    """Validates ``outsize`` and ``spatial_scale`` of a RoI function.

    Returns:
        tuple: ``(outh, outw, spatial_scale)``.

    Raises:
        TypeError: If a size is not a positive integer or the scale not a
            positive number.
    """
    outh, outw = _pair(outsize)
    if not (isinstance(outh, numbers.Integral) and outh > 0):
        raise TypeError(
            'outsize[0] must be positive integer: {}, {}'
            .format(type(outh), outh))
    if not (isinstance(outw, numbers.Integral) and outw > 0):
        raise TypeError(
            'outsize[1] must be positive integer: {}, {}'
            .format(type(outw), outw))
    if isinstance(spatial_scale, numbers.Integral):
        spatial_scale = float(spatial_scale)
    if not (isinstance(spatial_scale, numbers.Real) and spatial_scale > 0):
        raise TypeError(
            'spatial_scale must be a positive float number: {}, {}'
            .format(type(spatial_scale), spatial_scale))
    return outh, outw, spatial_scale


def parse_sampling_ratio(sampling_ratio):
    """Validates the ``sampling_ratio`` of an align function (a pair)."""
    sampling_ratio = _pair(sampling_ratio)
    if not all((isinstance(s, numbers.Integral) and s >= 1) or s is None
               for s in sampling_ratio):
        raise TypeError(
            'sampling_ratio must be integer >= 1 or a pair of it: {}'
            .format(sampling_ratio))
    return tuple(sampling_ratio)


def _gather(x, batch, ys, xs):
    # x[batch[r], c, ys[r, i], xs[r, j]] as (R, c, outh, outw).
    channels = backend.get_array_module(x).arange(x.shape[1])
    return x[batch[:, None, None, None], channels[None, :, None, None],
             ys[:, None, :, None], xs[:, None, None, :]]


class Scatter:
    """Sums values into a zero float64 array of shape ``(n, c, h, w)``.

    Args:
        shape (tuple of int): The shape ``(n, c, h, w)``.
        xp: :mod:`numpy` or :mod:`cupy`.
    """

    def __init__(self, shape, xp):
        self.shape = shape
        self.xp = xp
        self.flat = xp.zeros(utils.size_of_shape(shape), numpy.float64)

    def add(self, batch, flat_pixels, values):
        """Adds ``values`` (R, c, ...) at ``[batch[r], c, flat_pixels]``
        (a flat ``h * w`` index, broadcast to ``values``); entries with a
        negative pixel index are dropped."""
        xp = self.xp
        c, h, w = self.shape[1:]
        planes = (batch[:, None] * c + xp.arange(c)[None, :]) * (h * w)
        planes = planes.reshape(planes.shape + (1,) * (values.ndim - 2))
        index = xp.broadcast_to(planes + flat_pixels, values.shape)
        kept = xp.broadcast_to(flat_pixels >= 0, values.shape)
        index = index[kept]
        values = values[kept]
        if xp is numpy:
            self.flat += numpy.bincount(index, values,
                                        minlength=self.flat.size)
        else:
            _numerics.add_at(self.flat, index, values.astype(numpy.float64))

    def result(self, dtype):
        """The sums, cast to ``dtype``."""
        return self.flat.reshape(self.shape).astype(dtype)


def scatter_add(shape, dtype, batch, flat_pixels, values):
    """One :meth:`Scatter.add` into zeros, cast to ``dtype``."""
    scatter = Scatter(shape, backend.get_array_module(values))
    scatter.add(batch, flat_pixels, values)
    return scatter.result(dtype)


# Integer bins (roi_pooling_2d, roi_max_pooling_2d, roi_average_pooling_2d)

def integer_rois(rois, spatial_scale, extra):
    """Rounds scaled RoIs ``(y_min, x_min, y_max, x_max)`` to pixels.

    Returns:
        tuple: ``(y_start, x_start, height, width)``, each ``(R,)``; the
        sizes are ``max(end - start + extra, 1)``.
    """
    xp = backend.get_array_module(rois)
    scaled = xp.round(rois.astype(numpy.float64) * spatial_scale)
    scaled = scaled.astype(numpy.int64)
    y0, x0, y1, x1 = scaled.T
    return (y0, x0, xp.maximum(y1 - y0 + extra, 1),
            xp.maximum(x1 - x0 + extra, 1))


def bin_bounds(index, stride, start, limit):
    """Pixel bounds ``[lo, hi)`` of the bins numbered ``index``, each
    ``stride`` pixels long, of RoIs starting at pixel ``start`` along one
    axis, clipped to ``[0, limit]`` (arrays that broadcast together)."""
    xp = backend.get_array_module(index)
    lo = xp.floor(index * stride).astype(numpy.int64)
    hi = xp.ceil((index + 1) * stride).astype(numpy.int64)
    return (xp.clip(lo + start, 0, limit), xp.clip(hi + start, 0, limit))


def integer_bins(start, size, n_bins, limit):
    """Pixel bounds ``[lo, hi)`` of the bins of each RoI along one axis,
    clipped to ``[0, limit]``."""
    xp = backend.get_array_module(start)
    return bin_bounds(xp.arange(n_bins), (size / n_bins)[:, None],
                      start[:, None], limit)


def _bin_offsets(lo, hi, limit):
    # For each offset d within the largest bin: the pixel lo + d (clipped
    # in range) and whether it lies in its bin.
    xp = backend.get_array_module(lo)
    longest = int((hi - lo).max()) if lo.size else 0
    for d in range(longest):
        pixel = lo + d
        yield xp.minimum(pixel, limit - 1), pixel < hi


def bin_max(x, batch, ys, xs):
    """Maximum over each integer bin and its flat pixel index.

    ``ys`` and ``xs`` are the ``(lo, hi)`` bounds of :func:`integer_bins`.
    Empty bins get ``-inf`` and index ``-1``; ties go to the first pixel in
    C order.
    """
    xp = backend.get_array_module(x)
    height, width = x.shape[2:]
    shape = (len(batch), x.shape[1], ys[0].shape[1], xs[0].shape[1])
    y = xp.full(shape, -numpy.inf, x.dtype)
    argmax = xp.full(shape, -1, numpy.int32)
    for row, row_in in _bin_offsets(ys[0], ys[1], height):
        for col, col_in in _bin_offsets(xs[0], xs[1], width):
            value = _gather(x, batch, row, col)
            inside = row_in[:, None, :, None] & col_in[:, None, None, :]
            better = inside & (value > y)
            y = xp.where(better, value, y)
            pixel = row[:, None, :, None] * width + col[:, None, None, :]
            argmax = xp.where(better, pixel.astype(numpy.int32), argmax)
    return y, argmax


def _bin_areas(ys, xs):
    heights = ys[1] - ys[0]
    widths = xs[1] - xs[0]
    return heights[:, None, :, None] * widths[:, None, None, :]


def bin_mean(x, batch, ys, xs):
    """Mean over each integer bin (0 for empty bins), from the summed-area
    table of ``x``."""
    xp = backend.get_array_module(x)
    n, c, h, w = x.shape
    table = xp.zeros((n, c, h + 1, w + 1), numpy.float64)
    table[:, :, 1:, 1:] = x.cumsum(axis=2, dtype=numpy.float64).cumsum(
        axis=3)
    (y0, y1), (x0, x1) = ys, xs
    total = (_gather(table, batch, y1, x1) - _gather(table, batch, y0, x1)
             - _gather(table, batch, y1, x0) + _gather(table, batch, y0, x0))
    areas = _bin_areas(ys, xs)
    mean = total / xp.maximum(areas, 1)
    return xp.where(areas > 0, mean, 0).astype(x.dtype, copy=False)


def bin_mean_grad(shape, dtype, batch, ys, xs, gy):
    """Gradient of :func:`bin_mean`: spreads ``gy / area`` over each bin.

    The four corners of every bin are marked in a difference array whose
    2-D prefix sum is the result.
    """
    xp = backend.get_array_module(gy)
    n, c, h, w = shape
    areas = _bin_areas(ys, xs)
    g = xp.where(areas > 0, gy / xp.maximum(areas, 1), 0)
    (y0, y1), (x0, x1) = ys, xs
    diff = Scatter((n, c, h + 1, w + 1), xp)
    for rows, cols, sign in ((y0, x0, 1), (y0, x1, -1), (y1, x0, -1),
                             (y1, x1, 1)):
        pixel = rows[:, None, :, None] * (w + 1) + cols[:, None, None, :]
        diff.add(batch, pixel, sign * g)
    diff = diff.flat.reshape(diff.shape)
    return diff.cumsum(axis=2).cumsum(axis=3)[:, :, :h, :w].astype(dtype)


# Bilinear samples (roi_average_align_2d, roi_max_align_2d)

class SampleGrid:
    """The sampling points of the bins of each RoI.

    RoIs are ``(y_min, x_min, y_max, x_max)``. Bin ``(i, j)`` of RoI ``r``
    has ``grid_h[r] x grid_w[r]`` samples; with no sampling ratio given it
    is ``ceil(roi size / bins)`` along each axis. Per-RoI attributes are
    shaped ``(R, 1, 1, 1)`` to broadcast against pooled arrays.
    """

    def __init__(self, rois, spatial_scale, outh, outw, sampling_ratio):
        xp = backend.get_array_module(rois)
        scaled = rois.astype(numpy.float64) * spatial_scale
        scaled = scaled.reshape(len(rois), 4, 1, 1, 1)
        self.start_y, self.start_x = scaled[:, 0], scaled[:, 1]
        roi_h = xp.maximum(scaled[:, 2] - self.start_y, 1.)
        roi_w = xp.maximum(scaled[:, 3] - self.start_x, 1.)
        self.bin_h = roi_h / outh
        self.bin_w = roi_w / outw
        self.grid_h = self._grid(xp, roi_h, outh, sampling_ratio[0])
        self.grid_w = self._grid(xp, roi_w, outw, sampling_ratio[1])
        self.bins_y = xp.arange(outh)[:, None]
        self.bins_x = xp.arange(outw)

    @staticmethod
    def _grid(xp, roi_size, n_bins, ratio):
        if ratio is None:
            return xp.ceil(roi_size / n_bins).astype(numpy.int64)
        return xp.full(roi_size.shape, ratio, numpy.int64)

    def count(self):
        """Samples per bin."""
        return self.grid_h * self.grid_w

    def coordinates(self, iy, ix):
        """y and x of sample ``(iy, ix)`` (ints, or arrays broadcast to
        ``(R, c, outh, outw)``) of every bin."""
        y = (self.start_y + self.bins_y * self.bin_h
             + (iy + .5) * self.bin_h / self.grid_h)
        x = (self.start_x + self.bins_x * self.bin_w
             + (ix + .5) * self.bin_w / self.grid_w)
        return y, x

    def offsets(self):
        """Yields ``(iy, ix, in_grid)``: each sample offset up to the
        largest grid, and the RoIs whose grid has it."""
        if not len(self.grid_h):
            return
        for iy in range(int(self.grid_h.max())):
            for ix in range(int(self.grid_w.max())):
                yield iy, ix, (iy < self.grid_h) & (ix < self.grid_w)


def sample_bounds(p, limit):
    """Clamped coordinate, neighbouring pixels and whether the sample is
    in the image (at most one pixel outside), of sample coordinates ``p``
    along an axis of ``limit`` pixels."""
    xp = backend.get_array_module(p)
    inside = (p >= -1) & (p <= limit)
    low = xp.floor(p).astype(numpy.int64)
    low = xp.where(low == limit, low - 1, low)
    high = low + 1
    p = xp.where(low <= -1, 0., xp.where(high >= limit, limit - 1., p))
    return p, low, high, inside


def bilinear_taps(y, x, height, width):
    """The four pixels around each sample point and their weights.

    Returns:
        tuple: A list of four ``(flat pixel, weight)`` pairs (a pixel of
        weight 0 is never read), and the mask of the samples in the image
        (at most one pixel outside).
    """
    xp = backend.get_array_module(y)
    y, y_low, y_high, y_in = sample_bounds(y, height)
    x, x_low, x_high, x_in = sample_bounds(x, width)
    taps = []
    for rows, wy, row_ok in ((y_low, y_high - y, y_low >= 0),
                             (y_high, y - y_low, y_high <= height - 1)):
        for cols, wx, col_ok in ((x_low, x_high - x, x_low >= 0),
                                 (x_high, x - x_low, x_high <= width - 1)):
            weight = wy * wx
            weight = xp.where((weight > 0) & row_ok & col_ok, weight, 0.)
            pixel = (xp.clip(rows, 0, height - 1) * width
                     + xp.clip(cols, 0, width - 1))
            taps.append((pixel, weight))
    return taps, y_in & x_in


def interpolate(x_planes, batch, taps):
    """Bilinear interpolation of ``x`` (as ``(n, c, h * w)``) at the sample
    points of :func:`bilinear_taps`; returns ``(R, c, outh, outw)`` in
    float64."""
    xp = backend.get_array_module(x_planes)
    channels = xp.arange(x_planes.shape[1])[None, :, None, None]
    value = 0.
    for pixel, weight in taps:
        value = value + weight * x_planes[batch[:, None, None, None],
                                          channels, pixel]
    return value


# The functions of (x, rois, roi_indices)

def check_roi_types(in_types, float32_only=False):
    """Type check of ``(x, rois, roi_indices)`` of a RoI function."""
    type_check._argname(in_types, ('x', 'rois', 'roi_indices'))
    x_type, roi_type, roi_index_type = in_types
    if float32_only:
        type_check.expect(
            x_type.dtype == numpy.float32,
            roi_type.dtype == numpy.float32,
        )
    else:
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.dtype == roi_type.dtype,
        )
    type_check.expect(
        x_type.ndim == 4,
        roi_type.ndim == 2,
        roi_index_type.dtype == numpy.int32,
        roi_index_type.ndim == 1,
    )
    type_check.expect(
        roi_type.shape[1] == 4,
        roi_type.shape[0] == roi_index_type.shape[0],
    )


def roi_bins(rois, spatial_scale, outh, outw, height, width, extra=0):
    """Pixel bounds ``(ys, xs)`` of the integer bins of RoIs
    ``(y_min, x_min, y_max, x_max)`` (see :func:`integer_rois` for
    ``extra``), each a ``(lo, hi)`` pair as :func:`integer_bins` gives."""
    y0, x0, roi_h, roi_w = integer_rois(rois, spatial_scale, extra)
    return (integer_bins(y0, roi_h, outh, height),
            integer_bins(x0, roi_w, outw, width))


class RoIFunction(function.Function):
    """Base of the RoI functions called on ``(x, rois, roi_indices)``.

    It validates ``outsize`` and ``spatial_scale`` (setting ``outh``,
    ``outw`` and ``spatial_scale``) and type-checks the inputs. float32 is
    required when ``_float32_only`` is set.
    """

    _float32_only = False

    def __init__(self, outsize, spatial_scale):
        self.outh, self.outw, self.spatial_scale = \
            parse_outsize_and_scale(outsize, spatial_scale)

    def check_type_forward(self, in_types):
        check_roi_types(in_types, float32_only=self._float32_only)

    def _retain(self, inputs):
        # Keeps rois and roi_indices for backward and records the shape of
        # x; returns the inputs.
        self.retain_inputs((1, 2))
        self._bottom_data_shape = inputs[0].shape
        return inputs

    def _output_shape(self, rois, x):
        return len(rois), x.shape[1], self.outh, self.outw

    def _bins(self, rois, height, width):
        # The integer bins of the pooling variants.
        return roi_bins(rois, self.spatial_scale, self.outh, self.outw,
                        height, width)


class RoIAlign(RoIFunction):
    """Base of the align functions: bilinear samples in each bin.

    Besides :class:`RoIFunction`'s arguments it validates
    ``sampling_ratio``.
    """

    _float32_only = True

    def __init__(self, outsize, spatial_scale, sampling_ratio=None):
        super().__init__(outsize, spatial_scale)
        self.sampling_ratio = parse_sampling_ratio(sampling_ratio)

    def _grid(self, rois):
        return SampleGrid(rois, self.spatial_scale, self.outh, self.outw,
                          self.sampling_ratio)

    @staticmethod
    def _samples(grid, height, width):
        # Yields (iy, ix, taps, valid) for each sample offset of the grid:
        # the bilinear taps of the samples and the mask of those that exist
        # and lie in the image.
        for iy, ix, in_grid in grid.offsets():
            taps, inside = bilinear_taps(
                *grid.coordinates(iy, ix), height, width)
            yield iy, ix, taps, inside & in_grid
