"""Converters of pooling functions."""

import warnings

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


@support((7,))
def convert_ROIPooling2D(func, opset_version, input_names, output_names,
                         context):
    warnings.warn(
        "ONNX's MaxRoiPool rounds the region boundaries differently from "
        "Chainer's roi_pooling_2d: the exported model may give other values "
        'for some regions of interest.', UserWarning)
    return onnx_helper.make_node(
        'MaxRoiPool', input_names, output_names,
        pooled_shape=[int(func.outh), int(func.outw)],
        spatial_scale=float(func.spatial_scale)),


@support(_common.since(7))
def convert_Unpooling2D(func, opset_version, input_names, output_names,
                        context):
    # Each pixel repeated over its window: nearest-neighbour upsampling,
    # exact when the windows tile the output (ksize == stride, no padding).
    shape = tuple(func.inputs[0].shape)
    exact = (func.kh, func.kw) == (func.sy, func.sx) and \
        func.ph == func.pw == 0 and not func.cover_all
    if not exact:
        warnings.warn(
            'unpooling_2d with overlapping windows, padding or cover_all '
            'is exported as nearest-neighbour resizing, which may give '
            'other values.', UserWarning)
    gb = onnx_helper.GraphBuilder()
    _resize(gb, opset_version, input_names[0], shape,
            (func.outh, func.outw), 'nearest',
            {'coordinate_transformation_mode': 'asymmetric',
             'nearest_mode': 'floor'}, output_names)
    return gb.nodes()
