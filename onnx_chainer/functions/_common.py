"""Operator forms that changed between opsets, shared by the converters.

Several ONNX operators moved attributes to inputs over time (``axes`` of
``Squeeze``/``Unsqueeze`` and of the reductions, the ``pads`` of ``Pad``,
``starts``/``ends`` of ``Slice``, ...). Each helper here emits the form of
the opset being exported into a :class:`~onnx_chainer.onnx_helper.
GraphBuilder` and returns the name of the result, so converters state what
they compute once.
"""

import numpy as np

# The opset from which each reduction takes ``axes`` as an input.
_AXES_INPUT_SINCE = {
    'ReduceSum': 13,
    'ReduceMean': 18, 'ReduceMax': 18, 'ReduceMin': 18, 'ReduceProd': 18,
    'ReduceL1': 18, 'ReduceL2': 18, 'ReduceLogSum': 18,
    'ReduceLogSumExp': 18, 'ReduceSumSquare': 18,
}


def int64s(values):
    """Returns ``values`` as a 1-D int64 array."""
    return np.asarray(values, dtype=np.int64).reshape(-1)


def const(gb, value, dtype=np.float32):
    """Adds a ``Constant`` of ``value`` (cast to ``dtype``)."""
    return gb.const(np.asarray(value, dtype=dtype))


def _out(gb, op, inputs, output_names, **attrs):
    if output_names is None:
        return gb.op(op, inputs, **attrs)
    return gb.op_output_named(op, inputs, output_names, **attrs)


def unsqueeze(gb, opset, x, axes, output_names=None):
    """``Unsqueeze`` inserting the dimensions ``axes``."""
    axes = [int(a) for a in axes]
    if opset >= 13:
        return _out(gb, 'Unsqueeze', [x, gb.const(int64s(axes))],
                    output_names)
    return _out(gb, 'Unsqueeze', [x], output_names, axes=axes)


def squeeze(gb, opset, x, axes=None, output_names=None):
    """``Squeeze`` removing ``axes`` (all size-1 dimensions if ``None``)."""
    if axes is None:
        return _out(gb, 'Squeeze', [x], output_names)
    axes = [int(a) for a in axes]
    if opset >= 13:
        return _out(gb, 'Squeeze', [x, gb.const(int64s(axes))],
                    output_names)
    return _out(gb, 'Squeeze', [x], output_names, axes=axes)


def reduce(gb, opset, op, x, axes=None, keepdims=True, output_names=None):
    """A reduction ``op`` over ``axes`` (all axes if ``None``)."""
    keepdims = int(bool(keepdims))
    if axes is None:
        return _out(gb, op, [x], output_names, keepdims=keepdims)
    axes = [int(a) for a in axes]
    if opset >= _AXES_INPUT_SINCE[op]:
        return _out(gb, op, [x, gb.const(int64s(axes))], output_names,
                    keepdims=keepdims)
    return _out(gb, op, [x], output_names, axes=axes, keepdims=keepdims)


def split(gb, opset, x, sizes, axis, output_names=None):
    """``Split`` of ``x`` into pieces of ``sizes`` along ``axis``."""
    sizes = [int(s) for s in sizes]
    if output_names is None:
        output_names = ['{}_{}'.format(gb.node_name(), i)
                        for i in range(len(sizes))]
    if opset >= 13:
        outs = gb.op_output_named(
            'Split', [x, gb.const(int64s(sizes))], output_names, axis=axis)
    else:
        outs = gb.op_output_named(
            'Split', [x], output_names, axis=axis, split=sizes)
    return list(outs) if isinstance(outs, tuple) else [outs]


def slice_(gb, opset, x, starts, ends, axes, steps=None, output_names=None):
    """``Slice`` of ``x``; ``steps`` other than 1 need opset 10."""
    starts = [int(s) for s in starts]
    ends = [int(e) for e in ends]
    axes = [int(a) for a in axes]
    if opset >= 10:
        inputs = [x, gb.const(int64s(starts)), gb.const(int64s(ends)),
                  gb.const(int64s(axes))]
        if steps is not None:
            inputs.append(gb.const(int64s(steps)))
        return _out(gb, 'Slice', inputs, output_names)
    assert steps is None or all(s == 1 for s in steps)
    return _out(gb, 'Slice', [x], output_names, starts=starts, ends=ends,
                axes=axes)


def pad(gb, opset, x, pads, mode='constant', value=0.0, dtype=np.float32,
        output_names=None):
    """``Pad`` with ``pads`` in ONNX order (all begins, then all ends)."""
    pads = [int(p) for p in pads]
    if opset >= 11:
        inputs = [x, gb.const(int64s(pads))]
        if mode == 'constant':
            inputs.append(gb.const(np.asarray(value, dtype=dtype)))
        return _out(gb, 'Pad', inputs, output_names, mode=mode)
    attrs = {'mode': mode, 'pads': pads}
    if mode == 'constant':
        attrs['value'] = float(value)
    return _out(gb, 'Pad', [x], output_names, **attrs)


def clip(gb, opset, x, x_min, x_max, dtype=np.float32, output_names=None):
    """``Clip`` of ``x`` to ``[x_min, x_max]`` (``None``: unbounded)."""
    if opset >= 11:
        inputs = [x,
                  '' if x_min is None else const(gb, x_min, dtype),
                  '' if x_max is None else const(gb, x_max, dtype)]
        while inputs[-1] == '':
            inputs.pop()
        return _out(gb, 'Clip', inputs, output_names)
    attrs = {}
    if x_min is not None:
        attrs['min'] = float(x_min)
    if x_max is not None:
        attrs['max'] = float(x_max)
    return _out(gb, 'Clip', [x], output_names, **attrs)


def softmax(gb, opset, op, x, axis, ndim, output_names=None):
    """``Softmax``/``LogSoftmax`` over the single axis ``axis``.

    Before opset 13 these operators normalize over all the axes from
    ``axis`` on, so another axis than the last is moved to the end first.
    """
    axis = axis % ndim
    if opset >= 13 or axis == ndim - 1:
        return _out(gb, op, [x], output_names, axis=axis)
    perm = [i for i in range(ndim) if i != axis] + [axis]
    inverse = [int(i) for i in np.argsort(perm)]
    h = gb.op('Transpose', [x], perm=perm)
    h = gb.op(op, [h], axis=ndim - 1)
    return _out(gb, 'Transpose', [h], output_names, perm=inverse)


def transpose(gb, x, perm, output_names=None):
    """``Transpose`` by ``perm``."""
    return _out(gb, 'Transpose', [x], output_names,
                perm=[int(p) for p in perm])


def reshape(gb, x, shape, output_names=None):
    """``Reshape`` to the constant ``shape``."""
    return _out(gb, 'Reshape', [x, gb.const(int64s(shape))], output_names)


# Opsets in which a form emitted by these helpers changes.
FORM_CHANGES = (9, 10, 11, 12, 13, 18)


def since(minimum):
    """Opset versions for ``support`` of a converter using these helpers.

    ``support`` hands a converter the newest listed version not above the
    requested one; listing every version where a helper's form changes
    makes the helpers see an opset with the same forms as the requested
    one.

    Args:
        minimum (int): The oldest opset the converter supports.
    """
    return (minimum,) + tuple(v for v in FORM_CHANGES if v > minimum)
