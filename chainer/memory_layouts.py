"""Memory layouts of arrays: the order their axes are stored in.

Every array has a *semantic* shape, with the channels on axis 1 (``(N, C,
H, W)`` for images, ``(out, in, kh, kw)`` for convolution kernels). A
variable of the standard layout (``layout=None``) stores its array in that
order. A variable of a *non-standard* layout (one of the names below, as
used by cuDNN's channel-last mode) stores it with the channel axis last,
``(N, H, W, C)``, and still reports the semantic :attr:`~Variable.shape`:

>>> import numpy
>>> from chainer import memory_layouts
>>> x = numpy.zeros((2, 4, 5, 3), numpy.float32)    # stored as N, H, W, C
>>> v = chainer.Variable(x, layout=memory_layouts.CUDNN_CHANNEL_LAST_X)
>>> v.shape
(2, 3, 4, 5)
>>> v.raw_array.shape
(2, 4, 5, 3)
>>> v.as_layout(None).shape                         # a transposed copy
(2, 3, 4, 5)

Such a variable refuses direct access to its arrays (``array``, ``grad``);
element-wise functions keep its layout, :class:`AsLayout` (through
:meth:`Variable.as_layout <chainer.Variable.as_layout>`) converts it, and
any other function refuses it unless it declares the layouts it takes (see
:meth:`FunctionNode.check_layout_forward
<chainer.FunctionNode.check_layout_forward>`).
"""

import chainer
from chainer import function_node
from chainer.utils import type_check

#: The standard layout of data arrays (channel axis first): ``None``.
CUDNN_CHANNEL_FIRST_X = None
#: The channel-last layout of data arrays, ``(N, H, W, C)``.
CUDNN_CHANNEL_LAST_X = 'CUDNN_CHANNEL_LAST_X'
#: The standard layout of convolution kernels: ``None``.
CUDNN_CHANNEL_FIRST_W = None
#: The channel-last layout of convolution kernels, ``(out, kh, kw, in)``.
CUDNN_CHANNEL_LAST_W = 'CUDNN_CHANNEL_LAST_W'

_CHANNEL_LAST = (CUDNN_CHANNEL_LAST_X, CUDNN_CHANNEL_LAST_W)


class _Unspecified:
    def __repr__(self):
        return '<unspecified>'


_unspecified = _Unspecified()


def get_raw_shape(arr_or_var):
    """Returns the shape of an array, or of a variable's array, as stored.

    Args:
        arr_or_var: An array or a :class:`~chainer.Variable`.

    Returns:
        tuple of int: The raw shape.
    """
    if isinstance(arr_or_var, chainer.Variable):
        return arr_or_var.raw_array.shape
    return arr_or_var.shape


def get_semantic_shape(arr_or_var, *, assumed_layout=_unspecified):
    """Returns the shape in the standard (channel-first) axis order.

    Args:
        arr_or_var: An array or a :class:`~chainer.Variable`.
        assumed_layout: The layout an array is stored in (by default, the
            standard one). A variable knows its own layout; given for a
            variable, it must be that layout.

    Returns:
        tuple of int: The semantic shape.

    Raises:
        AssertionError: if ``assumed_layout`` is not the variable's layout.
    """
    if not isinstance(arr_or_var, chainer.Variable):
        shape = arr_or_var.shape
        if assumed_layout is _unspecified:
            return shape
        return _transpose_shape(shape, assumed_layout, None)
    if (assumed_layout is not _unspecified
            and assumed_layout != arr_or_var.layout):
        raise AssertionError(
            'the variable has the layout {}, not {}'.format(
                arr_or_var.layout, assumed_layout))
    return arr_or_var.shape


def _get_layout_transpose_axes(ndim, src_layout, dst_layout, inverse=False):
    """Returns the axes that turn ``src_layout`` into ``dst_layout``.

    ``None`` means that no transposition is needed. With ``inverse``, the
    axes of the opposite conversion are returned.

    Raises:
        AssertionError: if an array of ``ndim`` axes cannot be converted
            (fewer than three axes, or two non-standard layouts).
        ValueError: if a layout is unknown.
    """
    if src_layout == dst_layout:
        return None
    if dst_layout in _CHANNEL_LAST:
        _expect_conversion(ndim, src_layout, dst_layout, src_layout)
        axes = (0,) + tuple(range(2, ndim)) + (1,)
    elif src_layout in _CHANNEL_LAST:
        _expect_conversion(ndim, src_layout, dst_layout, dst_layout)
        axes = (0, ndim - 1) + tuple(range(1, ndim - 1))
    else:
        raise ValueError(
            'Unknown layout conversion: from \'{}\' to \'{}\''.format(
                src_layout, dst_layout))
    if inverse:
        inverse_axes = [0] * ndim
        for i, axis in enumerate(axes):
            inverse_axes[axis] = i
        axes = tuple(inverse_axes)
    return axes


def _expect_conversion(ndim, src_layout, dst_layout, other_layout):
    # A channel-last layout converts to and from the standard one only, for
    # arrays with a channel axis and at least one more after the batch axis.
    if ndim < 3 or other_layout is not None:
        raise AssertionError(
            'an array of {} axes cannot be converted from layout {} to '
            '{}'.format(ndim, src_layout, dst_layout))


def _transpose_shape(shape, src_layout, dst_layout):
    axes = _get_layout_transpose_axes(len(shape), src_layout, dst_layout)
    if axes is None:
        return shape
    return tuple([shape[i] for i in axes])


def _transpose_array(array, src_layout, dst_layout):
    axes = _get_layout_transpose_axes(array.ndim, src_layout, dst_layout)
    if axes is None:
        return array
    return array.transpose(*axes)


class AsLayout(function_node.FunctionNode):
    """Stores an array in another memory layout.

    The output holds the same semantic array as the input, its axes stored
    in the order of ``layout``; its gradient is converted back to the
    layout of the input.

    Args:
        layout: The layout of the output (``None``: the standard one).
    """

    axes = None
    in_layout = None

    def __init__(self, layout):
        self.out_layout = layout

    @property
    def label(self):
        return 'AsLayout'

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)

    def check_layout_forward(self, inputs):
        x, = inputs
        self.in_layout = x.layout
        self.axes = _get_layout_transpose_axes(
            x.ndim, x.layout, self.out_layout)

    def forward_chainerx(self, inputs):
        raise RuntimeError(
            'Non-standard memory layouts are not supported for chainerx.')

    def forward(self, inputs):
        x, = inputs
        if self._input_layouts is None:
            # The input has the standard layout (check_layout_forward runs
            # for the other ones).
            self.axes = _get_layout_transpose_axes(
                x.ndim, None, self.out_layout)
        self.output_layouts = (self.out_layout,)
        if self.axes is None:
            return x,
        return x.transpose(self.axes),

    def backward(self, indexes, grad_outputs):
        return AsLayout(self.in_layout).apply(grad_outputs)
