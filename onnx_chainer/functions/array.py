"""Converters of array manipulation functions."""

import warnings

import chainer
import numpy as np
from onnx import helper

from onnx_chainer.functions import _common
from onnx_chainer.functions.opset_version import support
from onnx_chainer.functions.opset_version import unsupported
from onnx_chainer import onnx_helper


def _shape(func, i=0):
    return tuple(func.inputs[i].shape)


def _ndim(func, i=0):
    return len(func.inputs[i].shape)


def _to_numpy(array):
    return np.asarray(chainer.backend.CpuDevice().send(array))


@support(_common.since(7))
def convert_Cast(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node(
        'Cast', input_names, output_names,
        to=helper.np_dtype_to_tensor_dtype(np.dtype(func.type))),


@support(_common.since(7))
def convert_Concat(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node(
        'Concat', input_names, output_names, axis=int(func.axis)),


@support(_common.since(7))
def convert_Copy(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Identity', input_names, output_names),


@support(_common.since(7))
def convert_Depth2Space(func, opset_version, input_names, output_names,
                        context):
    return onnx_helper.make_node(
        'DepthToSpace', input_names, output_names, blocksize=int(func.r)),


@support(_common.since(7))
def convert_Space2Depth(func, opset_version, input_names, output_names,
                        context):
    return onnx_helper.make_node(
        'SpaceToDepth', input_names, output_names, blocksize=int(func.r)),


def _stack_along(gb, func, input_names, output_names, axis, new_shape):
    # Reshape each input with ``new_shape(shape)`` and concatenate.
    names = []
    for i, name in enumerate(input_names):
        shape = _shape(func, i)
        target = new_shape(shape)
        names.append(name if target == shape else
                     _common.reshape(gb, name, target))
    gb.op_output_named('Concat', names, output_names, axis=axis)
    return gb.nodes()


@support(_common.since(7))
def convert_Hstack(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    axis = 0 if _ndim(func) <= 1 else 1
    return _stack_along(gb, func, input_names, output_names, axis,
                        lambda s: s if s else (1,))


@support(_common.since(7))
def convert_Vstack(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()

    def at_least_2d(s):
        return (1, 1) if not s else (1,) + s if len(s) == 1 else s
    return _stack_along(gb, func, input_names, output_names, 0, at_least_2d)


@support(_common.since(7))
def convert_Dstack(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()

    def at_least_3d(s):
        if not s:
            return (1, 1, 1)
        if len(s) == 1:
            return (1,) + s + (1,)
        if len(s) == 2:
            return s + (1,)
        return s
    return _stack_along(gb, func, input_names, output_names, 2, at_least_3d)


@support(_common.since(7))
def convert_Stack(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    axis = func.axis
    if axis < 0:
        axis += _ndim(func) + 1
    names = [_common.unsqueeze(gb, opset_version, name, [axis])
             for name in input_names]
    gb.op_output_named('Concat', names, output_names, axis=axis)
    return gb.nodes()


@support(_common.since(7))
def convert_ExpandDims(func, opset_version, input_names, output_names,
                       context):
    gb = onnx_helper.GraphBuilder()
    axis = func.axis
    if axis < 0:
        axis += _ndim(func) + 1
    _common.unsqueeze(gb, opset_version, input_names[0], [axis],
                      output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_Squeeze(func, opset_version, input_names, output_names,
                    context):
    gb = onnx_helper.GraphBuilder()
    shape = _shape(func)
    if func.axis is None:
        axes = [i for i, d in enumerate(shape) if d == 1]
    else:
        axes = func.axis if isinstance(func.axis, (tuple, list)) \
            else (func.axis,)
        axes = [a % len(shape) for a in axes]
    _common.squeeze(gb, opset_version, input_names[0], axes, output_names)
    return gb.nodes()


def _transpose(func, output_names, input_names, perm):
    return onnx_helper.make_node(
        'Transpose', input_names, output_names,
        perm=[int(p) for p in perm]),


@support(_common.since(7))
def convert_Transpose(func, opset_version, input_names, output_names,
                      context):
    ndim = _ndim(func)
    perm = func.axes if func.axes is not None else range(ndim)[::-1]
    return _transpose(func, output_names, input_names,
                      [p % ndim for p in perm])


@support(_common.since(7))
def convert_Swapaxes(func, opset_version, input_names, output_names,
                     context):
    perm = list(range(_ndim(func)))
    a, b = func.axis1 % len(perm), func.axis2 % len(perm)
    perm[a], perm[b] = perm[b], perm[a]
    return _transpose(func, output_names, input_names, perm)


@support(_common.since(7))
def convert_Moveaxis(func, opset_version, input_names, output_names,
                     context):
    ndim = _ndim(func)
    source = [a % ndim for a in func.source]
    destination = [a % ndim for a in func.destination]
    perm = [a for a in range(ndim) if a not in source]
    for dest, src in sorted(zip(destination, source)):
        perm.insert(dest, src)
    return _transpose(func, output_names, input_names, perm)


@support(_common.since(7))
def convert_Rollaxis(func, opset_version, input_names, output_names,
                     context):
    ndim = _ndim(func)
    axis = func.axis % ndim
    start = func.start + ndim if func.start < 0 else func.start
    if axis < start:
        start -= 1
    perm = [a for a in range(ndim) if a != axis]
    perm.insert(start, axis)
    return _transpose(func, output_names, input_names, perm)


@support(_common.since(7))
def convert_Reshape(func, opset_version, input_names, output_names,
                    context):
    if len(input_names) == 2:
        # The shape is a graph value (a Reshape wrapped by as_funcnode).
        gb = onnx_helper.GraphBuilder()
        shape = gb.op('Cast', [input_names[1]],
                      to=helper.np_dtype_to_tensor_dtype(np.dtype('int64')))
        gb.op_output_named('Reshape', [input_names[0], shape], output_names)
        return gb.nodes()
    gb = onnx_helper.GraphBuilder()
    _common.reshape(gb, input_names[0], func.shape, output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_Shape(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Shape', input_names, output_names),


@support(_common.since(7))
def convert_Tile(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    reps = func.reps if isinstance(func.reps, (tuple, list)) \
        else (func.reps,)
    reps = tuple(int(r) for r in reps)
    shape = _shape(func)
    x = input_names[0]
    if len(reps) > len(shape):
        x = _common.reshape(
            gb, x, (1,) * (len(reps) - len(shape)) + shape)
    reps = (1,) * (max(len(shape), len(reps)) - len(reps)) + reps
    gb.op_output_named('Tile', [x, gb.const(_common.int64s(reps))],
                       output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_Repeat(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    shape = _shape(func)
    axis = func.axis
    if axis is None:
        x = _common.reshape(gb, x, (-1,))
        dim = int(np.prod(shape))
        axis = 0
    else:
        axis %= len(shape)
        dim = shape[axis]
    repeats = func.repeats
    if len(repeats) == 1:
        repeats = repeats * dim
    indices = np.repeat(np.arange(dim), repeats)
    gb.op_output_named(
        'Gather', [x, gb.const(_common.int64s(indices))], output_names,
        axis=axis)
    return gb.nodes()


@support(_common.since(7))
def convert_Permutate(func, opset_version, input_names, output_names,
                      context):
    gb = onnx_helper.GraphBuilder()
    indices = _to_numpy(func.indices)
    if func.inv:
        indices = np.argsort(indices)
    gb.op_output_named(
        'Gather', [input_names[0], gb.const(_common.int64s(indices))],
        output_names, axis=int(func.axis))
    return gb.nodes()


def _pad_width(pad_width, ndim):
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64),
                             (ndim, 2))
    return [int(w) for w in widths[:, 0]] + [int(w) for w in widths[:, 1]]


@support(_common.since(7))
def convert_Pad(func, opset_version, input_names, output_names, context):
    modes = {'constant': 'constant', 'reflect': 'reflect', 'edge': 'edge'}
    if func.mode not in modes:
        raise unsupported(func, opset_version,
                          'pad mode {!r} has no ONNX equivalent'.format(
                              func.mode))
    keywords = getattr(func, 'keywords', None) or {}
    value = keywords.get('constant_values', 0)
    if np.size(value) != 1:
        raise unsupported(func, opset_version,
                          'constant_values must be a single value')
    gb = onnx_helper.GraphBuilder()
    _common.pad(gb, opset_version, input_names[0],
                _pad_width(func.pad_width, _ndim(func)),
                mode=modes[func.mode], value=float(np.ravel(value)[0]),
                dtype=np.dtype(func.inputs[0].dtype),
                output_names=output_names)
    return gb.nodes()


def _split_sizes(func, dim):
    if getattr(func, 'sections', None) is not None:
        return [dim // func.sections] * func.sections
    bounds = [0] + [min(max(int(i), 0), dim) for i in func.indices] + [dim]
    return [max(b - a, 0) for a, b in zip(bounds[:-1], bounds[1:])]


@support(_common.since(7))
def convert_SplitAxis(func, opset_version, input_names, output_names,
                      context):
    gb = onnx_helper.GraphBuilder()
    axis = func.axis % _ndim(func)
    sizes = _split_sizes(func, _shape(func)[axis])
    _common.split(gb, opset_version, input_names[0], sizes, axis,
                  output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_Separate(func, opset_version, input_names, output_names,
                     context):
    gb = onnx_helper.GraphBuilder()
    axis = func.axis % _ndim(func)
    n = _shape(func)[axis]
    if n == 1:
        _common.squeeze(gb, opset_version, input_names[0], [axis],
                        output_names)
        return gb.nodes()
    pieces = _common.split(gb, opset_version, input_names[0], [1] * n, axis)
    for piece, name in zip(pieces, output_names):
        _common.squeeze(gb, opset_version, piece, [axis], [name])
    return gb.nodes()


@support(_common.since(7))
def convert_TransposeSequence(func, opset_version, input_names,
                              output_names, context):
    gb = onnx_helper.GraphBuilder()
    lengths = [_shape(func, i)[0] for i in range(len(input_names))]
    for t, name in enumerate(output_names):
        rows = [_common.slice_(gb, opset_version, x, [t], [t + 1], [0])
                for x, n in zip(input_names, lengths) if n > t]
        if len(rows) == 1:
            gb.op_output_named('Identity', rows, [name])
        else:
            gb.op_output_named('Concat', rows, [name], axis=0)
    return gb.nodes()


@support(_common.since(9))
def convert_Where(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    cond = func.condition
    if id(cond) in context.name_list:
        cond_name = context.get_name(cond)
    else:
        cond_name = context.add_const(_to_numpy(cond), 'condition')
    if np.dtype(cond.dtype) != np.bool_:
        cond_name = gb.op('Cast', [cond_name],
                          to=helper.np_dtype_to_tensor_dtype(
                              np.dtype(np.bool_)))
    gb.op_output_named('Where', [cond_name] + list(input_names),
                       output_names)
    return gb.nodes()


@support(_common.since(7))
def convert_SelectItem(func, opset_version, input_names, output_names,
                       context):
    gb = onnx_helper.GraphBuilder()
    x, t = input_names
    n_class = _shape(func, 0)[1]
    t_dtype = np.dtype(func.inputs[1].dtype)
    if opset_version >= 11:
        t64 = gb.op('Cast', [t], to=helper.np_dtype_to_tensor_dtype(
            np.dtype(np.int64)))
        idx = _common.unsqueeze(gb, opset_version, t64, [1])
        h = gb.op('GatherElements', [x, idx], axis=1)
        _common.squeeze(gb, opset_version, h, [1], output_names)
        return gb.nodes()
    classes = gb.const(np.arange(n_class, dtype=t_dtype).reshape(1, -1))
    hot = gb.op('Equal', [_common.unsqueeze(gb, opset_version, t, [1]),
                          classes])
    hot = gb.op('Cast', [hot], to=helper.np_dtype_to_tensor_dtype(
        np.dtype(func.inputs[0].dtype)))
    _common.reduce(gb, opset_version, 'ReduceSum', gb.op('Mul', [x, hot]),
                   [1], keepdims=False, output_names=output_names)
    return gb.nodes()


def _normalize_slices(slices, ndim):
    # A tuple of ints, slices, None and integer arrays, with the Ellipsis
    # expanded, as Chainer's get_item reads ``slices``.
    if isinstance(slices, list):
        if all(isinstance(s, (int, np.integer)) for s in slices):
            slices = np.asarray(slices),
        else:
            slices = tuple(slices)
    elif not isinstance(slices, tuple):
        slices = slices,
    items = []
    for s in slices:
        if isinstance(s, (list, np.ndarray)) and np.ndim(s) == 0 and \
                np.asarray(s).dtype.kind in 'iu':
            s = int(np.asarray(s))
        elif isinstance(s, list):
            s = np.asarray(s)
        items.append(s)
    n_used = sum(1 for s in items if s is not None and s is not Ellipsis)
    if any(s is Ellipsis for s in items):
        i = next(i for i, s in enumerate(items) if s is Ellipsis)
        items[i:i + 1] = [slice(None)] * (ndim - n_used)
    else:
        items += [slice(None)] * (ndim - n_used)
    return items


def _slice_bounds(s, dim):
    start, stop, step = s.indices(dim)
    if step < 0 and stop < 0:
        stop = -dim - 1
    return start, stop, step


@support(_common.since(7))
def convert_GetItem(func, opset_version, input_names, output_names,
                    context):
    shape = _shape(func)
    items = _normalize_slices(func.slices, len(shape))
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]

    starts, ends, axes, steps, squeezed = [], [], [], [], []
    arrays = []  # (axis after squeezing, index array)
    none_positions = []
    in_axis = 0
    kept_axis = 0   # axis number once the integer indices are squeezed
    out_axis = 0    # axis number in the result
    advanced_seen = False
    for s in items:
        if s is None:
            none_positions.append(out_axis)
            out_axis += 1
            continue
        dim = shape[in_axis]
        if isinstance(s, (int, np.integer)):
            index = int(s) % dim if dim else int(s)
            starts.append(index)
            ends.append(index + 1)
            axes.append(in_axis)
            steps.append(1)
            squeezed.append(in_axis)
        elif isinstance(s, slice):
            start, stop, step = _slice_bounds(s, dim)
            if (start, stop, step) != (0, dim, 1):
                starts.append(start)
                ends.append(stop)
                axes.append(in_axis)
                steps.append(step)
            kept_axis += 1
            out_axis += 1
        else:
            index = np.asarray(s)
            if index.dtype.kind not in 'iu':
                raise unsupported(func, opset_version,
                                  'only integer arrays can index')
            arrays.append((kept_axis, index % dim if dim else index))
            kept_axis += 1
            if not advanced_seen:
                out_axis += index.ndim
                advanced_seen = True
        in_axis += 1

    if any(step != 1 for step in steps) and opset_version < 10:
        raise unsupported(func, opset_version,
                          'slices with steps need opset 10')
    if starts:
        x = _common.slice_(gb, opset_version, x, starts, ends, axes,
                           steps if opset_version >= 10 else None)
    if squeezed:
        x = _common.squeeze(gb, opset_version, x, squeezed)
    if arrays:
        kinds = [isinstance(s, (int, np.integer)) or
                 (s is not None and not isinstance(s, slice))
                 for s in items if s is not None]
        first = kinds.index(True)
        if not all(kinds[first:first + sum(kinds)]):
            raise unsupported(
                func, opset_version,
                'indexing arrays and integers must be adjacent')
        array_positions = [
            i for i, s in enumerate(items)
            if s is not None and not isinstance(s, (int, np.integer, slice))]
        if len(arrays) > 1 and (
                array_positions[-1] - array_positions[0] + 1 !=
                len(array_positions) or
                any(s is None for s in items[:array_positions[0]])):
            raise unsupported(
                func, opset_version,
                'several indexing arrays must be consecutive and come '
                'before any None')
        if len(arrays) == 1:
            axis, index = arrays[0]
            x = gb.op('Gather', [x, gb.const(_common.int64s(index).reshape(
                index.shape))], axis=axis)
        else:
            if opset_version < 11:
                raise unsupported(
                    func, opset_version,
                    'indexing with several arrays needs GatherND (opset '
                    '11)')
            if arrays[0][0] != 0:
                raise unsupported(
                    func, opset_version,
                    'indexing with several arrays is supported only from '
                    'the first axis')
            index = np.stack(np.broadcast_arrays(*[a for _, a in arrays]),
                             axis=-1)
            x = gb.op('GatherND', [x, gb.const(index.astype(np.int64))])
    if none_positions:
        x = _common.unsqueeze(gb, opset_version, x, none_positions)
    if not gb.nodes():
        gb.op('Identity', [x])
    return gb.nodes(output_names)


def _scale(size, out_size):
    # The float32 scale whose floor(size * scale) is out_size.
    # (computed in float32 by some runtimes and in float64 by others).
    scale = np.float32(out_size / size)
    while np.floor(np.float32(size) * scale) < out_size or \
            np.floor(float(size) * float(scale)) < out_size:
        scale = np.nextafter(scale, np.float32(np.inf))
    return scale


def _resize(gb, opset_version, x, in_shape, out_hw, mode, exact_mode,
            output_names):
    # Resize of the last two axes of a 4-D ``x`` to ``out_hw`` (into
    # output_names, or a new name if None).
    n, c, h, w = in_shape
    scales = np.array([1, 1, _scale(h, out_hw[0]), _scale(w, out_hw[1])],
                      dtype=np.float32)
    if opset_version >= 11:
        sizes = gb.const(_common.int64s((n, c) + tuple(out_hw)))
        if opset_version >= 13:
            inputs = [x, '', '', sizes]
        else:
            empty = gb.const(np.zeros(0, dtype=np.float32))
            inputs = [x, empty, empty, sizes]
        attrs = dict(mode=mode, **exact_mode)
        return _common._out(gb, 'Resize', inputs, output_names, **attrs)
    if opset_version >= 10:
        return _common._out(gb, 'Resize', [x, gb.const(scales)],
                           output_names, mode=mode)
    if opset_version >= 9:
        return _common._out(gb, 'Upsample', [x, gb.const(scales)],
                           output_names, mode=mode)
    return _common._out(gb, 'Upsample', [x], output_names, mode=mode,
                       scales=[float(s) for s in scales])


@support(_common.since(7))
def convert_ResizeImages(func, opset_version, input_names, output_names,
                         context):
    align_corners = getattr(func, 'align_corners', True)
    mode = getattr(func, 'mode', 'bilinear')
    if mode not in ('bilinear', 'nearest'):
        raise unsupported(func, opset_version,
                          'resize mode {!r} is not supported'.format(mode))
    onnx_mode = 'linear' if mode == 'bilinear' else 'nearest'
    if mode == 'nearest':
        exact = {'coordinate_transformation_mode': 'asymmetric',
                 'nearest_mode': 'floor'}
    elif align_corners:
        exact = {'coordinate_transformation_mode': 'align_corners'}
    else:
        exact = {'coordinate_transformation_mode': 'half_pixel'}
    if opset_version < 11 and (func.out_H < _shape(func)[2] or
                               func.out_W < _shape(func)[3]):
        # Upsample (opset 7-9) takes no scale below 1, and Resize-10 picks
        # other pixels than Chainer when it shrinks.
        raise unsupported(func, opset_version,
                          'shrinking an image needs opset_version >= 11')
    if opset_version < 11 and mode == 'bilinear':
        warnings.warn(
            'The resizing of ONNX before opset 11 does not align corners '
            'as Chainer\'s resize_images does: the exported model gives '
            'different values. Export with opset_version >= 11 to get '
            'the same values.', UserWarning)
    gb = onnx_helper.GraphBuilder()
    _resize(gb, opset_version, input_names[0], _shape(func),
            (func.out_H, func.out_W), onnx_mode, exact, output_names)
    return gb.nodes()


def _flip(func, opset_version, input_names, output_names, axis):
    gb = onnx_helper.GraphBuilder()
    ndim = _ndim(func)
    _common.slice_(gb, opset_version, input_names[0], [-1],
                   [-(2 ** 62)], [axis % ndim], [-1], output_names)
    return gb.nodes()


@support(_common.since(10))
def convert_Flip(func, opset_version, input_names, output_names, context):
    return _flip(func, opset_version, input_names, output_names, func.axis)


@support(_common.since(10))
def convert_FlipLR(func, opset_version, input_names, output_names,
                   context):
    return _flip(func, opset_version, input_names, output_names, 1)


@support(_common.since(10))
def convert_FlipUD(func, opset_version, input_names, output_names,
                   context):
    return _flip(func, opset_version, input_names, output_names, 0)
