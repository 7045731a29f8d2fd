"""Converters of mathematical functions."""

import numpy as np
from onnx import helper

from onnx_chainer.functions import _common
from onnx_chainer.functions.opset_version import support
from onnx_chainer.functions.opset_version import unsupported
from onnx_chainer import onnx_helper


def _dtype(func, i=0):
    return np.dtype(func.inputs[i].dtype)


def _ndim(func, i=0):
    return len(func.inputs[i].shape)


def _elementwise(op_type, since=7):
    @support((since,))
    def convert(func, opset_version, input_names, output_names, context):
        return onnx_helper.make_node(op_type, input_names, output_names),
    convert.__doc__ = 'Converts to ONNX ``{}``.'.format(op_type)
    return convert


convert_Absolute = _elementwise('Abs')
convert_Arccos = _elementwise('Acos')
convert_Arcsin = _elementwise('Asin')
convert_Arctan = _elementwise('Atan')
convert_Cos = _elementwise('Cos')
convert_Cosh = _elementwise('Cosh', 9)
convert_Div = _elementwise('Div')
convert_Exp = _elementwise('Exp')
convert_Log = _elementwise('Log')
convert_Maximum = _elementwise('Max')
convert_Minimum = _elementwise('Min')
convert_Mul = _elementwise('Mul')
convert_Neg = _elementwise('Neg')
convert_PowVarVar = _elementwise('Pow')
convert_Sin = _elementwise('Sin')
convert_Sinh = _elementwise('Sinh', 9)
convert_Sqrt = _elementwise('Sqrt')
convert_Sub = _elementwise('Sub')
convert_Tan = _elementwise('Tan')
convert_sign = _elementwise('Sign', 9)
convert_Erf = _elementwise('Erf', 9)
convert_Floor = _elementwise('Floor')
convert_Ceil = _elementwise('Ceil')


@support(_common.since(7))
def convert_Add(func, opset_version, input_names, output_names, context):
    op = 'Add' if len(input_names) == 2 else 'Sum'
    return onnx_helper.make_node(op, input_names, output_names),


@support((7,))
def convert_MultiAdd(func, opset_version, input_names, output_names,
                     context):
    return onnx_helper.make_node('Sum', input_names, output_names),


def _with_constant(op_type, constant_first):
    @support(_common.since(7))
    def convert(func, opset_version, input_names, output_names, context):
        gb = onnx_helper.GraphBuilder()
        value = gb.const(np.asarray(func.value, dtype=_dtype(func)))
        inputs = [value, input_names[0]] if constant_first \
            else [input_names[0], value]
        gb.op_output_named(op_type, inputs, output_names)
        return gb.nodes()
    convert.__doc__ = 'Converts to ONNX ``{}`` with a constant.'.format(
        op_type)
    return convert


convert_AddConstant = _with_constant('Add', False)
convert_SubFromConstant = _with_constant('Sub', True)
convert_MulConstant = _with_constant('Mul', False)
convert_DivFromConstant = _with_constant('Div', True)
convert_PowVarConst = _with_constant('Pow', False)
convert_PowConstVar = _with_constant('Pow', True)


@support(_common.since(7))
def convert_Square(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node(
        'Mul', [input_names[0], input_names[0]], output_names),


@support(_common.since(7))
def convert_RsqrtGPU(func, opset_version, input_names, output_names,
                     context):
    gb = onnx_helper.GraphBuilder()
    gb.op_output_named('Reciprocal', [gb.op('Sqrt', input_names)],
                       output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_Identity(func, opset_version, input_names, output_names,
                     context):
    return tuple(onnx_helper.make_node('Identity', [i], [o])
                 for i, o in zip(input_names, output_names))


@support(_common.since(7))
def convert_Clip(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    _common.clip(gb, opset_version, input_names[0], func.x_min, func.x_max,
                 dtype=_dtype(func), output_names=output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_BroadcastTo(func, opset_version, input_names, output_names,
                        context):
    gb = onnx_helper.GraphBuilder()
    shape = tuple(func._shape)
    if opset_version >= 8:
        gb.op_output_named(
            'Expand', [input_names[0], gb.const(_common.int64s(shape))],
            output_names)
    else:
        zeros = gb.const(np.zeros(shape, dtype=_dtype(func)))
        gb.op_output_named('Add', [input_names[0], zeros], output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_LinearInterpolate(func, opset_version, input_names,
                              output_names, context):
    # p * x + (1 - p) * y
    p, x, y = input_names
    gb = onnx_helper.GraphBuilder()
    one = _common.const(gb, 1, _dtype(func))
    px = gb.op('Mul', [p, x])
    qy = gb.op('Mul', [gb.op('Sub', [one, p]), y])
    gb.op_output_named('Add', [px, qy], output_names)
    return gb.nodes()


def _axes(func, ndim):
    axis = getattr(func, 'axis', None)
    if axis is None:
        return None
    if not isinstance(axis, (tuple, list)):
        axis = axis,
    return [a % ndim for a in axis]


def _reduction(op_type):
    @support(_common.since(7))
    def convert(func, opset_version, input_names, output_names, context):
        gb = onnx_helper.GraphBuilder()
        _common.reduce(gb, opset_version, op_type, input_names[0],
                       _axes(func, _ndim(func)),
                       keepdims=getattr(func, 'keepdims', False),
                       output_names=output_names)
        return gb.nodes()
    convert.__doc__ = 'Converts to ONNX ``{}``.'.format(op_type)
    return convert


convert_Sum = _reduction('ReduceSum')
convert_Mean = _reduction('ReduceMean')
convert_Max = _reduction('ReduceMax')
convert_Min = _reduction('ReduceMin')
convert_Prod = _reduction('ReduceProd')
convert_LogSumExp = _reduction('ReduceLogSumExp')


def _arg_reduction(op_type):
    @support(_common.since(7))
    def convert(func, opset_version, input_names, output_names, context):
        gb = onnx_helper.GraphBuilder()
        x = input_names[0]
        axis = func.axis
        if axis is None:
            x = _common.reshape(gb, x, (-1,))
            axis = 0
        h = gb.op(op_type, [x], axis=int(axis) % max(_ndim(func), 1),
                  keepdims=0)
        node = func.outputs[0]()
        dtype = np.int32 if node is None else np.dtype(node.dtype)
        gb.op_output_named('Cast', [h], output_names,
                           to=helper.np_dtype_to_tensor_dtype(
                               np.dtype(dtype)))
        return gb.nodes()
    convert.__doc__ = 'Converts to ONNX ``{}``.'.format(op_type)
    return convert


convert_ArgMax = _arg_reduction('ArgMax')
convert_ArgMin = _arg_reduction('ArgMin')


def _swap_last_two(gb, name, ndim):
    perm = list(range(ndim))
    perm[-2], perm[-1] = perm[-1], perm[-2]
    return _common.transpose(gb, name, perm)


@support(_common.since(7))
def convert_MatMul(func, opset_version, input_names, output_names, context):
    if getattr(func, 'transc', False):
        raise unsupported(func, opset_version, 'transc is not supported')
    gb = onnx_helper.GraphBuilder()
    a, b = input_names
    if func.transa and _ndim(func, 0) >= 2:
        a = _swap_last_two(gb, a, _ndim(func, 0))
    if func.transb and _ndim(func, 1) >= 2:
        b = _swap_last_two(gb, b, _ndim(func, 1))
    gb.op_output_named('MatMul', [a, b], output_names)
    return gb.nodes()


@support(_common.since(12))
def convert_EinSum(func, opset_version, input_names, output_names,
                   context):
    equation = '{}->{}'.format(func.in_subs, func.out_sub)
    return onnx_helper.make_node(
        'Einsum', input_names, output_names, equation=equation),


convert_Arctanh = _elementwise('Atanh', 9)


def _composite(build, since=7):
    # A converter whose nodes ``build(gb, func, opset_version, inputs)``
    # makes, the last of them writing the output.
    @support(_common.since(since))
    def convert(func, opset_version, input_names, output_names, context):
        gb = onnx_helper.GraphBuilder()
        build(gb, func, opset_version, list(input_names))
        return gb.nodes(output_names)
    return convert


def _add_const(gb, x, value, func):
    return gb.op('Add', [x, _common.const(gb, value, _dtype(func))])


convert_Expm1 = _composite(lambda gb, f, o, i: gb.op('Sub', [
    gb.op('Exp', i), _common.const(gb, 1, _dtype(f))]))
convert_Log1p = _composite(
    lambda gb, f, o, i: gb.op('Log', [_add_const(gb, i[0], 1, f)]))
convert_Log2 = _composite(lambda gb, f, o, i: gb.op('Div', [
    gb.op('Log', i), _common.const(gb, np.log(2), _dtype(f))]))
convert_Log10 = _composite(lambda gb, f, o, i: gb.op('Div', [
    gb.op('Log', i), _common.const(gb, np.log(10), _dtype(f))]))
convert_Erfc = _composite(lambda gb, f, o, i: gb.op('Sub', [
    _common.const(gb, 1, _dtype(f)), gb.op('Erf', i)]), 9)
convert_Fmod = _composite(
    lambda gb, f, o, i: gb.op('Mod', i, fmod=1), 10)
convert_SquaredError = _composite(lambda gb, f, o, i: gb.op('Mul', [
    gb.op('Sub', i)] * 2))
convert_AbsoluteError = _composite(
    lambda gb, f, o, i: gb.op('Abs', [gb.op('Sub', i)]))
convert_MeanSquaredError = _composite(lambda gb, f, o, i: _common.reduce(
    gb, o, 'ReduceMean', gb.op('Mul', [gb.op('Sub', i)] * 2), None,
    keepdims=False))
convert_MeanAbsoluteError = _composite(lambda gb, f, o, i: _common.reduce(
    gb, o, 'ReduceMean', gb.op('Abs', [gb.op('Sub', i)]), None,
    keepdims=False))


@support(_common.since(11))
def convert_Cumsum(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    axis = gb.const(np.asarray(func.axis % _ndim(func), np.int64))
    gb.op_output_named('CumSum', [input_names[0], axis], output_names,
                       reverse=int(bool(func.reverse)))
    return gb.nodes()


@support(_common.since(7))
def convert_BatchMatMul(func, opset_version, input_names, output_names,
                        context):
    return convert_MatMul(func, opset_version, input_names, output_names,
                          context)


@support(_common.since(8))
def convert_Broadcast(func, opset_version, input_names, output_names,
                      context):
    shape = np.broadcast_shapes(*[tuple(i.shape) for i in func.inputs])
    gb = onnx_helper.GraphBuilder()
    target = gb.const(_common.int64s(shape))
    for x, y in zip(input_names, output_names):
        gb.op_output_named('Expand', [x, target], [y])
    return gb.nodes()


@support(_common.since(7))
def convert_SumTo(func, opset_version, input_names, output_names, context):
    # Sum over the leading axes and the axes broadcast from 1.
    in_shape = tuple(func.inputs[0].shape)
    shape = tuple(func._shape)
    lead = len(in_shape) - len(shape)
    axes = list(range(lead)) + [
        lead + i for i, d in enumerate(shape) if d == 1 and
        in_shape[lead + i] != 1]
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    if axes:
        x = _common.reduce(gb, opset_version, 'ReduceSum', x, axes,
                           keepdims=True)
    _common.reshape(gb, x, shape, output_names)
    return gb.nodes()
