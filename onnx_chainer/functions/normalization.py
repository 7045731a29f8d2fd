"""Converters of normalization functions."""

import chainer
import numpy as np

from onnx_chainer.functions import _common
from onnx_chainer.functions.opset_version import support
from onnx_chainer import onnx_helper


def _input_array(func, i):
    # The array of an input, also when only the function retained it.
    return func.inputs[i].get_variable().array


def _batch_statistics(func):
    # Mean and variance of the traced batch: a model traced in train mode
    # normalizes with them, and the exported graph reproduces that run.
    axis = tuple(func.axis)
    x = _input_array(func, 0)
    if x is None:
        mean = func.mean.reshape(-1)
        inv_std = func.inv_std.reshape(-1)
        return mean, 1 / (inv_std * inv_std) - func.eps
    x = chainer_to_numpy(x)
    return x.mean(axis=axis), x.var(axis=axis)


def chainer_to_numpy(array):
    """Returns ``array`` (NumPy or CuPy) as a NumPy array."""
    return chainer.backend.CpuDevice().send(array)


@support(_common.since(7))
def convert_BatchNormalization(func, opset_version, input_names,
                               output_names, context):
    fixed = len(func.inputs) > 3
    gamma = func.inputs[1].get_variable_or_none()
    beta = func.inputs[2].get_variable_or_none()
    owner = context.get_link(beta) or context.get_link(gamma)
    names = list(input_names)

    def add_param(array, suffix):
        array = chainer_to_numpy(array)
        if owner is None:
            return context.add_param(array, suffix)
        return context.add_param(
            array, '{}_{}'.format(owner[0], suffix), use_original_name=True)

    if fixed:
        if owner is not None:
            link = owner[1]
            mean, var = link.avg_mean, link.avg_var
        else:
            mean, var = _input_array(func, 3), _input_array(func, 4)
        for i, (array, suffix) in enumerate(
                ((mean, 'avg_mean'), (var, 'avg_var')), 3):
            if context.implicit_inputs.pop(names[i], None) is not None:
                names[i] = add_param(array, suffix)
    else:
        mean, var = _batch_statistics(func)
        names += [add_param(mean, 'avg_mean'), add_param(var, 'avg_var')]

    x_ndim = len(func.inputs[0].shape)
    if tuple(func.axis) == (0,) + tuple(range(2, x_ndim)):
        return onnx_helper.make_node(
            'BatchNormalization', names, output_names,
            epsilon=float(func.eps)),
    # Statistics over other axes: (x - mean) / sqrt(var + eps) * g + b,
    # with the per-feature values broadcast from the axes kept.
    gb = onnx_helper.GraphBuilder()
    kept = [a for a in range(x_ndim) if a not in func.axis]
    shape = [func.inputs[0].shape[a] if a in kept else 1
             for a in range(x_ndim)]
    dtype = np.dtype(func.inputs[0].dtype)
    x, g, b, m, v = [names[0]] + [_common.reshape(gb, n, shape)
                                  for n in names[1:5]]
    std = gb.op('Sqrt', [gb.op('Add', [v, _common.const(gb, func.eps,
                                                           dtype)])])
    h = gb.op('Div', [gb.op('Sub', [x, m]), std])
    gb.op_output_named('Add', [gb.op('Mul', [h, g]), b], output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_FixedBatchNormalization(func, opset_version, input_names,
                                    output_names, context):
    return convert_BatchNormalization(
        func, opset_version, input_names, output_names, context)


def _standardize(gb, opset_version, x, axes, eps, dtype):
    # (x - mean) / sqrt(var + eps) over ``axes``.
    mean = _common.reduce(gb, opset_version, 'ReduceMean', x, axes)
    centered = gb.op('Sub', [x, mean])
    var = _common.reduce(gb, opset_version, 'ReduceMean',
                         gb.op('Mul', [centered, centered]), axes)
    std = gb.op('Sqrt', [gb.op('Add', [var, _common.const(gb, eps, dtype)])])
    return gb.op('Div', [centered, std])


@support(_common.since(7))
def convert_GroupNormalization(func, opset_version, input_names,
                               output_names, context):
    x, gamma, beta = input_names
    shape = tuple(func.inputs[0].shape)
    dtype = np.dtype(func.inputs[0].dtype)
    gb = onnx_helper.GraphBuilder()
    grouped = _common.reshape(gb, x, (0, func.groups, -1))
    h = _standardize(gb, opset_version, grouped, [2], func.eps, dtype)
    h = gb.op('Reshape', [h, gb.op('Shape', [x])])
    param_shape = (shape[1],) + (1,) * (len(shape) - 2)
    h = gb.op('Mul', [h, _common.reshape(gb, gamma, param_shape)])
    gb.op_output_named(
        'Add', [h, _common.reshape(gb, beta, param_shape)], output_names)
    return gb.nodes()


@support(_common.since(7) + (17,))
def convert_LayerNormalization(func, opset_version, input_names,
                               output_names, context):
    x, gamma, beta = input_names
    gb = onnx_helper.GraphBuilder()
    if opset_version >= 17:
        gb.op_output_named('LayerNormalization', [x, gamma, beta],
                           output_names, axis=-1, epsilon=float(func.eps))
        return gb.nodes()
    dtype = np.dtype(func.inputs[0].dtype)
    h = _standardize(gb, opset_version, x, [1], func.eps, dtype)
    gb.op_output_named('Add', [gb.op('Mul', [h, gamma]), beta],
                       output_names)
    return gb.nodes()


@support((7,))
def convert_LocalResponseNormalization(func, opset_version, input_names,
                                       output_names, context):
    # ONNX divides alpha by the window size; Chainer does not. Chainer's
    # window spans n // 2 channels on each side, odd-sized as ONNX needs
    # (an even n sums over n + 1 channels).
    size = 2 * (int(func.n) // 2) + 1
    return onnx_helper.make_node(
        'LRN', input_names, output_names, alpha=float(func.alpha) * size,
        beta=float(func.beta), bias=float(func.k), size=size),


@support(_common.since(7))
def convert_NormalizeL2(func, opset_version, input_names, output_names,
                        context):
    # x / (||x|| + eps) along the axes
    ndim = len(func.inputs[0].shape)
    axes = func.axis if isinstance(func.axis, (tuple, list)) \
        else (func.axis,)
    axes = [a % ndim for a in axes]
    dtype = np.dtype(func.inputs[0].dtype)
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    norm = gb.op('Sqrt', [_common.reduce(
        gb, opset_version, 'ReduceSumSquare', x, axes)])
    norm = gb.op('Add', [norm, _common.const(gb, func.eps, dtype)])
    gb.op_output_named('Div', [x, norm], output_names)
    return gb.nodes()
