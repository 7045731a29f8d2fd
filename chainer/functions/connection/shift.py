from chainer import backend
from chainer.functions.connection import convolution_2d
from chainer import function_node
from chainer.utils import type_check


def _group_shifts(kh, kw, dy, dx):
    # The (vertical, horizontal) shift of each channel group: group i
    # takes the i-th offset of a kh x kw window in C order, except that the
    # centre (no shift) is moved to the last group, which also holds the
    # channels left over by the division into groups.
    n_groups = kh * kw
    center = (n_groups - 1) // 2
    order = list(range(n_groups))
    order[center], order[-1] = order[-1], order[center]
    return [((g // kw - kh // 2) * dy, (g % kw - kw // 2) * dx)
            for g in order]


def _span(length, shift):
    # Destination and source slices of a shift by `shift` along one axis.
    lo = min(max(shift, 0), length)
    hi = max(min(length + shift, length), 0)
    return slice(lo, hi), slice(lo - shift, hi - shift)


class Shift(function_node.FunctionNode):

    """Shifts each group of channels by its own offset, zero filled."""

    def __init__(self, ksize=3, dilate=1):
        self.kh, self.kw = convolution_2d._pair(ksize)
        if self.kh % 2 != 1:
            raise ValueError('kh must be odd')
        if self.kw % 2 != 1:
            raise ValueError('kw must be odd')
        self.dy, self.dx = convolution_2d._pair(dilate)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
        )
        type_check.expect(x_type.shape[1] >= self.kh * self.kw)

    def forward(self, inputs):
        x, = inputs
        h, w = x.shape[2:]
        xp = backend.get_array_module(x)
        y = xp.zeros_like(x)
        shifts = _group_shifts(self.kh, self.kw, self.dy, self.dx)
        group_size = x.shape[1] // len(shifts)
        for i, (shift_y, shift_x) in enumerate(shifts):
            last = i == len(shifts) - 1
            channels = slice(i * group_size,
                             None if last else (i + 1) * group_size)
            rows_to, rows_from = _span(h, shift_y)
            cols_to, cols_from = _span(w, shift_x)
            y[:, channels, rows_to, cols_to] = \
                x[:, channels, rows_from, cols_from]
        return y,

    def backward(self, indexes, grad_outputs):
        return shift(grad_outputs[0], ksize=(self.kh, self.kw),
                     dilate=(-self.dy, -self.dx)),


def shift(x, ksize=3, dilate=1):
    """Shift: spatial mixing with zero FLOPs and zero parameters.

    The channels are split into ``kh * kw`` groups, and each group is
    shifted in space by one of the offsets of a ``ksize`` window (scaled by
    ``dilate``), filling with zeros; the group of zero offset also takes
    the channels left over by the split.

    See: `Shift: A Zero FLOP, Zero Parameter Alternative to Spatial
    Convolutions <https://arxiv.org/abs/1711.08141>`_

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
            ``(n, c, h, w)`` with ``c >= kh * kw``.
        ksize (int or pair of ints): Window size ``(kh, kw)``; both odd.
        dilate (int or pair of ints): Scale ``(dy, dx)`` of the offsets.

    Returns:
        ~chainer.Variable: Output of the shape of ``x``.

    Raises:
        ValueError: If a window size is even.

    .. admonition:: Example

        >>> x = np.arange(9 * 9, dtype=np.float32).reshape(1, 9, 3, 3)
        >>> y = F.shift(x)
        >>> y.array[0, 0]
        array([[4., 5., 0.],
               [7., 8., 0.],
               [0., 0., 0.]], dtype=float32)

    """
    return Shift(ksize=ksize, dilate=dilate).apply((x,))[0]
