"""Converters of loss functions."""

import numpy as np
from onnx import helper

from onnx_chainer.functions import _common
from onnx_chainer.functions.opset_version import support
from onnx_chainer.functions.opset_version import unsupported
from onnx_chainer import onnx_helper


@support(_common.since(7))
def convert_SoftmaxCrossEntropy(func, opset_version, input_names,
                                output_names, context):
    # -sum(onehot(t) * log_softmax(x)) over the classes (axis 1), where
    # the one-hot of ignore_label is all zero; 'mean' divides the sum by the
    # number of counted labels (normalize) or by the batch size.
    if getattr(func, 'soft_target', False):
        raise unsupported(func, opset_version, 'soft targets')
    x, t = input_names
    x_shape = tuple(func.inputs[0].shape)
    x_dtype = np.dtype(func.inputs[0].dtype)
    t_dtype = np.dtype(func.inputs[1].dtype)
    ndim = len(x_shape)
    n_class = x_shape[1]
    gb = onnx_helper.GraphBuilder()

    log_p = _common.softmax(gb, opset_version, 'LogSoftmax', x, 1, ndim)
    classes = np.arange(n_class, dtype=t_dtype).reshape(
        (1, n_class) + (1,) * (ndim - 2))
    hot = gb.op('Equal', [_common.unsqueeze(gb, opset_version, t, [1]),
                          gb.const(classes)])
    hot = gb.op('Cast', [hot], to=helper.np_dtype_to_tensor_dtype(x_dtype))
    weighted = hot
    if func.class_weight is not None:
        weight = np.asarray(func.class_weight, dtype=x_dtype).reshape(
            (1, n_class) + (1,) * (ndim - 2))
        weighted = gb.op('Mul', [hot, gb.const(weight)])
    picked = gb.op('Mul', [weighted, log_p])
    per_item = _common.reduce(gb, opset_version, 'ReduceSum', picked, [1],
                              keepdims=False)
    if func.reduce == 'no':
        gb.op_output_named('Neg', [per_item], output_names)
        return gb.nodes()
    total = _common.reduce(gb, opset_version, 'ReduceSum', per_item, None,
                           keepdims=False)
    if func.normalize:
        count = _common.reduce(gb, opset_version, 'ReduceSum', hot, None,
                               keepdims=False)
        count = gb.op('Max', [count, _common.const(gb, 1, x_dtype)])
    else:
        count = _common.const(gb, max(x_shape[0], 1), x_dtype)
    mean = gb.op('Div', [total, count])
    gb.op_output_named('Neg', [mean], output_names)
    return gb.nodes()
