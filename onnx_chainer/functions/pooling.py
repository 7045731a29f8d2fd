"""Converters of pooling functions."""

import warnings

import numpy as np
from onnx import helper

from onnx_chainer.functions import _common
from onnx_chainer.functions.array import _resize
from onnx_chainer.functions.opset_version import support
from onnx_chainer import onnx_helper


def _tuple(v, n):
    if isinstance(v, (tuple, list)):
        return [int(e) for e in v]
    return [int(v)] * n


def _pool(op_type, input_names, output_names, ksize, stride, pad, cover_all,
          **attrs):
    pads_end = list(pad)
    if cover_all:
        # Chainer's cover_all adds windows over the end: pad by stride - 1.
        pads_end = [p + s - 1 for p, s in zip(pad, stride)]
    return onnx_helper.make_node(
        op_type, input_names, output_names, kernel_shape=list(ksize),
        strides=list(stride), pads=list(pad) + pads_end, **attrs),


def _nd_params(func):
    n = func.ndim
    return (_tuple(func.ksize, n), _tuple(func.stride, n),
            _tuple(func.pad, n))


@support((7,))
def convert_AveragePooling2D(func, opset_version, input_names, output_names,
                             context):
    # Chainer divides by the whole window, padding included.
    return _pool('AveragePool', input_names, output_names,
                 (func.kh, func.kw), (func.sy, func.sx), (func.ph, func.pw),
                 getattr(func, 'cover_all', False), count_include_pad=1)


@support((7,))
def convert_AveragePoolingND(func, opset_version, input_names, output_names,
                             context):
    ksize, stride, pad = _nd_params(func)
    include_pad = 0 if getattr(func, 'pad_value', 0) is None else 1
    return _pool('AveragePool', input_names, output_names, ksize, stride,
                 pad, func.cover_all, count_include_pad=include_pad)


@support((7,))
def convert_MaxPooling2D(func, opset_version, input_names, output_names,
                         context):
    return _pool('MaxPool', input_names, output_names, (func.kh, func.kw),
                 (func.sy, func.sx), (func.ph, func.pw), func.cover_all)


@support((7,))
def convert_MaxPoolingND(func, opset_version, input_names, output_names,
                         context):
    ksize, stride, pad = _nd_params(func)
    return _pool('MaxPool', input_names, output_names, ksize, stride, pad,
                 func.cover_all)


def _roi_bin_masks(gb, opset_version, start, size, n_bins, limit):
    # (R, n_bins, limit) bool: pixel p is in bin i of RoI r, where bin i
    # spans [floor(i * size / n), ceil((i + 1) * size / n)) from ``start``,
    # clipped to [0, limit]. ``start`` and ``size`` are (R, 1) float64.
    f64 = np.float64
    stride = gb.op('Div', [size, _common.const(gb, n_bins, f64)])
    index = _common.const(gb, np.arange(n_bins).reshape(1, -1), f64)
    lo = gb.op('Add', [gb.op('Floor', [gb.op('Mul', [index, stride])]),
                       start])
    next_index = _common.const(gb, np.arange(1, n_bins + 1).reshape(1, -1),
                               f64)
    hi = gb.op('Add', [gb.op('Ceil', [gb.op('Mul', [next_index, stride])]),
                       start])
    zero = _common.const(gb, 0, f64)
    top = _common.const(gb, limit, f64)
    lo, hi = [_common.unsqueeze(
        gb, opset_version, gb.op('Min', [gb.op('Max', [v, zero]), top]),
        [2]) for v in (lo, hi)]
    pixels = _common.const(gb, np.arange(limit).reshape(1, 1, -1), f64)
    return gb.op('And', [gb.op('Not', [gb.op('Less', [pixels, lo])]),
                         gb.op('Less', [pixels, hi])])


def _roi_pooling(gb, opset_version, func, x, rois, output_names):
    # Chainer's RoI max pooling from elementary operators: each RoI is
    # scaled and rounded to pixels, split into integer bins, and the
    # maximum of each bin taken with masks (0 for an empty bin).
    f64 = np.float64
    x_shape = tuple(func.inputs[0].shape)
    height, width = x_shape[2:]
    dtype = np.dtype(func.inputs[0].dtype)
    rois64 = gb.op('Cast', [rois], to=helper.np_dtype_to_tensor_dtype(
        np.dtype(f64)))
    batch = _common.slice_(gb, opset_version, rois64, [0], [1], [1])
    batch = gb.op('Cast', [_common.squeeze(gb, opset_version, batch, [1])],
                  to=helper.np_dtype_to_tensor_dtype(np.dtype(np.int64)))
    coords = gb.op('Round', [gb.op('Mul', [
        _common.slice_(gb, opset_version, rois64, [1], [5], [1]),
        _common.const(gb, func.spatial_scale, f64)])])
    x0, y0, x1, y1 = _common.split(gb, opset_version, coords, [1] * 4, 1)
    one = _common.const(gb, 1, f64)

    def extent(lo, hi):
        return gb.op('Max', [gb.op('Add', [gb.op('Sub', [hi, lo]), one]),
                             one])

    rows = _roi_bin_masks(gb, opset_version, y0, extent(y0, y1), func.outh,
                          height)
    cols = _roi_bin_masks(gb, opset_version, x0, extent(x0, x1), func.outw,
                          width)
    neg_inf = _common.const(gb, -np.inf, dtype)
    feats = gb.op('Gather', [x, batch], axis=0)          # (R, C, H, W)
    feats = _common.unsqueeze(gb, opset_version, feats, [3])
    cols = _common.unsqueeze(gb, opset_version, cols, [1, 2])
    h = gb.op('Where', [cols, feats, neg_inf])            # (R, C, H, ow, W)
    h = _common.reduce(gb, opset_version, 'ReduceMax', h, [4],
                       keepdims=False)
    h = _common.unsqueeze(gb, opset_version, h, [2])      # (R, C, 1, H, ow)
    rows = _common.unsqueeze(gb, opset_version, rows, [1, 4])
    h = gb.op('Where', [rows, h, neg_inf])                # (R, C, oh, H, ow)
    h = _common.reduce(gb, opset_version, 'ReduceMax', h, [3],
                       keepdims=False)
    empty = gb.op('Equal', [h, neg_inf])
    gb.op_output_named('Where', [empty, _common.const(gb, 0, dtype), h],
                       output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_ROIPooling2D(func, opset_version, input_names, output_names,
                         context):
    if opset_version >= 11:
        gb = onnx_helper.GraphBuilder()
        return _roi_pooling(gb, opset_version, func, input_names[0],
                            input_names[1], output_names)
    warnings.warn(
        "ONNX's MaxRoiPool rounds the region boundaries differently from "
        "Chainer's roi_pooling_2d: the exported model may give other values "
        'for some regions of interest. Export with opset_version >= 11 for '
        'an exact conversion.', UserWarning)
    return onnx_helper.make_node(
        'MaxRoiPool', input_names, output_names,
        pooled_shape=[int(func.outh), int(func.outw)],
        spatial_scale=float(func.spatial_scale)),


@support(_common.since(7))
def convert_Unpooling2D(func, opset_version, input_names, output_names,
                        context):
    # With windows that tile the image (stride == ksize), unpooling is each
    # pixel repeated over its window, then the padding cut off and the
    # image cropped or filled with zeros to outsize; overlapping or
    # spaced-out windows (sums of pixels, or gaps) have no such form.
    if (func.kh, func.kw) != (func.sy, func.sx):
        raise RuntimeError(
            'ONNX-Chainer does not support unpooling_2d with stride != '
            'ksize: stride={} ksize={}'.format(
                (func.sy, func.sx), (func.kh, func.kw)))
    n, c, h, w = func.inputs[0].shape
    tiled = (h * func.kh, w * func.kw)
    begins = (func.ph, func.pw)
    ends = (func.ph + func.outh, func.pw + func.outw)
    kept = [min(e, t) for e, t in zip(ends, tiled)]
    cut = begins != (0, 0) or kept != list(tiled)
    fill = [o - max(k - b, 0) for o, k, b in
            zip((func.outh, func.outw), kept, begins)]
    gb = onnx_helper.GraphBuilder()
    x = _resize(gb, opset_version, input_names[0], (n, c, h, w), tiled,
                'nearest', {'coordinate_transformation_mode': 'asymmetric',
                            'nearest_mode': 'floor'},
                None if cut or any(fill) else output_names)
    if cut:
        x = _common.slice_(gb, opset_version, x, begins, kept, [2, 3],
                           output_names=None if any(fill) else output_names)
    if any(fill):
        _common.pad(gb, opset_version, x, [0, 0, 0, 0, 0, 0] + fill,
                    dtype=func.inputs[0].dtype, output_names=output_names)
    return gb.nodes()
