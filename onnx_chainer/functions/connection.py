"""Converters of connection functions."""

import numpy as np

from onnx_chainer.functions import _common
from onnx_chainer.functions.opset_version import support
from onnx_chainer.functions.opset_version import unsupported
from onnx_chainer import onnx_helper


def _pair(v, n):
    if isinstance(v, (tuple, list)):
        return tuple(int(e) for e in v)
    return (int(v),) * n


def _conv(func, input_names, output_names, stride, pad, dilate, groups,
          cover_all):
    w_shape = tuple(func.inputs[1].shape)
    ksize = w_shape[2:]
    pads_end = list(pad)
    if cover_all:
        # Chainer's cover_all adds windows over the end: pad by stride - 1.
        pads_end = [p + s - 1 for p, s in zip(pad, stride)]
    return onnx_helper.make_node(
        'Conv', input_names, output_names,
        kernel_shape=list(ksize), strides=list(stride),
        pads=list(pad) + pads_end, dilations=list(dilate),
        group=int(groups)),


@support(_common.since(7))
def convert_Convolution2DFunction(func, opset_version, input_names,
                                  output_names, context):
    return _conv(func, input_names, output_names, (func.sy, func.sx),
                 (func.ph, func.pw), (func.dy, func.dx),
                 getattr(func, 'groups', 1), func.cover_all)


@support(_common.since(7))
def convert_ConvolutionND(func, opset_version, input_names, output_names,
                          context):
    n = func.ndim
    return _conv(func, input_names, output_names, _pair(func.stride, n),
                 _pair(func.pad, n), _pair(getattr(func, 'dilate', 1), n),
                 getattr(func, 'groups', 1), func.cover_all)


def _deconv(func, input_names, output_names, stride, pad, dilate, groups,
            outsize):
    x_shape = tuple(func.inputs[0].shape)
    w_shape = tuple(func.inputs[1].shape)
    ksize = w_shape[2:]
    # A larger output size than the default pads the output at the end; a
    # smaller one crops it at the end.
    output_padding = []
    pads_end = []
    for i, (size, k, s, p, d) in enumerate(
            zip(x_shape[2:], ksize, stride, pad, dilate)):
        default = s * (size - 1) + (k - 1) * d + 1 - 2 * p
        out = default if outsize is None or outsize[i] is None \
            else outsize[i]
        output_padding.append(max(out - default, 0))
        pads_end.append(p + max(default - out, 0))
    attrs = dict(kernel_shape=list(ksize), strides=list(stride),
                 pads=list(pad) + pads_end, dilations=list(dilate),
                 group=int(groups))
    if any(output_padding):
        attrs['output_padding'] = output_padding
    return onnx_helper.make_node(
        'ConvTranspose', input_names, output_names, **attrs),


@support(_common.since(7))
def convert_Deconvolution2DFunction(func, opset_version, input_names,
                                    output_names, context):
    return _deconv(func, input_names, output_names, (func.sy, func.sx),
                   (func.ph, func.pw), (func.dy, func.dx),
                   getattr(func, 'groups', 1), (func.outh, func.outw))


@support(_common.since(7))
def convert_DeconvolutionND(func, opset_version, input_names, output_names,
                            context):
    n = func.ndim
    return _deconv(func, input_names, output_names, _pair(func.stride, n),
                   _pair(func.pad, n), _pair(getattr(func, 'dilate', 1), n),
                   getattr(func, 'groups', 1), func.outs)


@support(_common.since(7))
def convert_EmbedIDFunction(func, opset_version, input_names, output_names,
                            context):
    x, w = input_names
    gb = onnx_helper.GraphBuilder()
    if func.ignore_label is None:
        gb.op_output_named('Gather', [w, x], output_names, axis=0)
        return gb.nodes()
    if opset_version < 9:
        raise unsupported(func, opset_version,
                          'ignore_label needs Where (opset 9)')
    # Rows of ignore_label are zero.
    x_dtype = np.dtype(func.inputs[0].dtype)
    ignored = gb.op('Equal', [x, _common.const(gb, func.ignore_label,
                                               x_dtype)])
    safe_x = gb.op('Where', [ignored, _common.const(gb, 0, x_dtype), x])
    rows = gb.op('Gather', [w, safe_x], axis=0)
    mask = _common.unsqueeze(gb, opset_version, ignored,
                             [len(func.inputs[0].shape)])
    zero = _common.const(gb, 0, np.dtype(func.inputs[1].dtype))
    gb.op_output_named('Where', [mask, zero, rows], output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_LinearFunction(func, opset_version, input_names, output_names,
                           context):
    gb = onnx_helper.GraphBuilder()
    names = list(input_names)
    if len(names) == 2:
        out_size = func.inputs[1].shape[0]
        names.append(gb.const(np.zeros(
            out_size, dtype=np.dtype(func.inputs[1].dtype))))
    gb.op_output_named('Gemm', names, output_names, transA=0, transB=1)
    return gb.nodes()
