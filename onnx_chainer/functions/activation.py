"""Converters of activation functions."""

import numpy as np

from onnx_chainer.functions import _common
from onnx_chainer.functions.opset_version import support
from onnx_chainer import onnx_helper


def _input_dtype(func, i=0):
    return np.dtype(func.inputs[i].dtype)


def _per_channel(gb, func, param_name, param_index):
    # A parameter of shape x.shape[1:1 + k] broadcast against x: pad its
    # shape with trailing ones.
    x_ndim = len(func.inputs[0].shape)
    shape = tuple(func.inputs[param_index].shape)
    if x_ndim - 1 - len(shape) <= 0:
        return param_name
    return _common.reshape(
        gb, param_name, shape + (1,) * (x_ndim - 1 - len(shape)))


@support(_common.since(7))
def convert_ClippedReLU(func, opset_version, input_names, output_names,
                        context):
    gb = onnx_helper.GraphBuilder()
    _common.clip(gb, opset_version, input_names[0], 0.0, func.cap,
                 dtype=_input_dtype(func), output_names=output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_ELU(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node(
        'Elu', input_names, output_names, alpha=float(func.alpha)),


@support(_common.since(7))
def convert_HardSigmoid(func, opset_version, input_names, output_names,
                        context):
    return onnx_helper.make_node(
        'HardSigmoid', input_names, output_names, alpha=0.2, beta=0.5),


@support(_common.since(7))
def convert_LeakyReLU(func, opset_version, input_names, output_names,
                      context):
    return onnx_helper.make_node(
        'LeakyRelu', input_names, output_names, alpha=float(func.slope)),


@support(_common.since(7))
def convert_LogSoftmax(func, opset_version, input_names, output_names,
                       context):
    gb = onnx_helper.GraphBuilder()
    _common.softmax(gb, opset_version, 'LogSoftmax', input_names[0],
                    func.axis, len(func.inputs[0].shape), output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_PReLUFunction(func, opset_version, input_names, output_names,
                          context):
    gb = onnx_helper.GraphBuilder()
    slope = _per_channel(gb, func, input_names[1], 1)
    gb.op_output_named('PRelu', [input_names[0], slope], output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_ReLU(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Relu', input_names, output_names),


@support(_common.since(7))
def convert_Selu(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node(
        'Selu', input_names, output_names, alpha=float(func.alpha),
        gamma=float(func.scale)),


@support(_common.since(7))
def convert_Sigmoid(func, opset_version, input_names, output_names,
                    context):
    return onnx_helper.make_node('Sigmoid', input_names, output_names),


@support(_common.since(7))
def convert_Softmax(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    _common.softmax(gb, opset_version, 'Softmax', input_names[0], func.axis,
                    len(func.inputs[0].shape), output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_Softplus(func, opset_version, input_names, output_names,
                     context):
    # Chainer: log(1 + exp(beta * x)) / beta
    if func.beta == 1.0:
        return onnx_helper.make_node('Softplus', input_names, output_names),
    gb = onnx_helper.GraphBuilder()
    dtype = _input_dtype(func)
    h = gb.op('Mul', [input_names[0], _common.const(gb, func.beta, dtype)])
    h = gb.op('Softplus', [h])
    gb.op_output_named(
        'Div', [h, _common.const(gb, func.beta, dtype)], output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_Swish(func, opset_version, input_names, output_names, context):
    # x * sigmoid(beta * x), beta broadcast from axis 1
    gb = onnx_helper.GraphBuilder()
    beta = _per_channel(gb, func, input_names[1], 1)
    h = gb.op('Sigmoid', [gb.op('Mul', [input_names[0], beta])])
    gb.op_output_named('Mul', [input_names[0], h], output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_Tanh(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Tanh', input_names, output_names),


@support(_common.since(7))
def convert_CReLU(func, opset_version, input_names, output_names, context):
    # concat(relu(x), relu(-x)) along the axis
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    positive = gb.op('Relu', [x])
    negative = gb.op('Relu', [gb.op('Neg', [x])])
    gb.op_output_named('Concat', [positive, negative], output_names,
                       axis=int(func.axis))
    return gb.nodes()
