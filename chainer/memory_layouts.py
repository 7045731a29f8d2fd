"""Memory layouts of arrays: the names of Chainer's cuDNN layouts.

Arrays here are always stored in the standard (channel-first) layout;
variables report ``layout = None``. The layout names and the shape helpers
exist so that code written against Chainer 7.8's layout API imports and
runs, and so that a channel-last shape can be converted to the semantic
(channel-first) one.
"""

import chainer
from chainer import function_node
from chainer.utils import type_check

CUDNN_CHANNEL_FIRST_X = None
CUDNN_CHANNEL_LAST_X = 'CUDNN_CHANNEL_LAST_X'
CUDNN_CHANNEL_FIRST_W = None
CUDNN_CHANNEL_LAST_W = 'CUDNN_CHANNEL_LAST_W'

_CHANNEL_LAST = (CUDNN_CHANNEL_LAST_X, CUDNN_CHANNEL_LAST_W)


class _Unspecified:
    def __repr__(self):
        return '<unspecified>'


_unspecified = _Unspecified()


def get_raw_shape(arr_or_var):
    """Returns the shape of the array as stored."""
    return getattr(arr_or_var, 'array', arr_or_var).shape


def get_semantic_shape(arr_or_var, *, assumed_layout=_unspecified):
    """Returns the shape in the standard (channel-first) axis order.

    Args:
        arr_or_var: An array or a variable.
        assumed_layout: The layout an array is stored in; a variable knows
            its own.
    """
    shape = get_raw_shape(arr_or_var)
    if assumed_layout is _unspecified:
        return shape
    return _transpose_shape(shape, assumed_layout, None)


def _get_layout_transpose_axes(ndim, src_layout, dst_layout, inverse=False):
    """Returns the axes that turn ``src_layout`` into ``dst_layout``.

    ``None`` means that no transposition is needed. With ``inverse``, the
    axes of the opposite conversion are returned.
    """
    if src_layout == dst_layout:
        return None
    if ndim < 3:
        raise ValueError(
            'a layout of {} dimensions cannot be converted'.format(ndim))
    if dst_layout in _CHANNEL_LAST and src_layout is None:
        axes = (0,) + tuple(range(2, ndim)) + (1,)
    elif src_layout in _CHANNEL_LAST and dst_layout is None:
        axes = (0, ndim - 1) + tuple(range(1, ndim - 1))
    else:
        raise ValueError(
            'Unknown layout conversion: from {!r} to {!r}'.format(
                src_layout, dst_layout))
    if inverse:
        inverse_axes = [0] * ndim
        for i, axis in enumerate(axes):
            inverse_axes[axis] = i
        axes = tuple(inverse_axes)
    return axes


_transpose_axes = _get_layout_transpose_axes


def _transpose_shape(shape, src_layout, dst_layout):
    axes = _transpose_axes(len(shape), src_layout, dst_layout)
    if axes is None:
        return shape
    return tuple([shape[i] for i in axes])


def _transpose_array(array, src_layout, dst_layout):
    axes = _transpose_axes(array.ndim, src_layout, dst_layout)
    if axes is None:
        return array
    return array.transpose(*axes)


class AsLayout(function_node.FunctionNode):
    """Stores a standard-layout array in the order of another layout.

    The output holds the raw (stored) order of ``layout``; the gradient is
    transposed back to the standard order.
    """

    def __init__(self, layout):
        self.out_layout = layout
        self.axes = None

    @property
    def label(self):
        return 'AsLayout'

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)

    def forward(self, inputs):
        x, = inputs
        self.axes = _get_layout_transpose_axes(x.ndim, None, self.out_layout)
        if self.axes is None:
            return x,
        return x.transpose(self.axes),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        if self.axes is None:
            return gy,
        return chainer.functions.transpose(
            gy, _get_layout_transpose_axes(
                gy.ndim, None, self.out_layout, inverse=True)),
