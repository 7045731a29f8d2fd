import collections.abc

import numpy

from chainer import backend
from chainer.functions.array import cast
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


def _grad_axes(g_labels, g_own, other_ndim, pairing):
    """Axes for the gradient of one operand of a tensor dot product.

    The gradient is ``tensordot(g, other)`` over the axes of ``g`` that
    came from ``other``, then transposed into the operand's axis order.

    Args:
        g_labels (list): For each axis of the output gradient ``g``, the
            pair ``(True, axis)`` if it comes from this operand, else
            ``(False, axis of the other operand)``.
        g_own (bool): Whether ``g`` comes first in the product.
        other_ndim (int): The number of axes of the other operand.
        pairing (dict): Maps each contracted axis of the other operand to
            the axis of this operand it was summed with.

    Returns:
        tuple: Contracted axes of the first factor, those of the second
        factor, and the transposition of the result.
    """
    g_axes = [j for j, (own, _) in enumerate(g_labels) if not own]
    o_axes = [g_labels[j][1] for j in g_axes]
    kept_g = [axis for own, axis in g_labels if own]
    kept_o = [pairing[k] for k in range(other_ndim) if k not in o_axes]
    labels = kept_g + kept_o if g_own else kept_o + kept_g
    c_axes = tuple(int(i) for i in numpy.argsort(labels))
    if g_own:
        return g_axes, o_axes, c_axes
    return o_axes, g_axes, c_axes


class TensorDot(function_node.FunctionNode):

    """Tensor dot product along given axes.

    Args:
        a_axes (list of int): Contracted axes of ``a``.
        b_axes (list of int): Contracted axes of ``b``, paired in order
            with ``a_axes``.
        c_axes (tuple of int or None): A transposition applied to the
            product, whose axes are first the free axes of ``a`` then
            those of ``b``.
    """

    def __init__(self, a_axes, b_axes, c_axes=None):
        self.a_axes = list(a_axes)
        self.b_axes = list(b_axes)
        self.c_axes = c_axes

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            b_type.dtype.kind == 'f',
        )
        for a_axis, b_axis in zip(self.a_axes, self.b_axes):
            type_check.expect(
                a_type.shape[a_axis] == b_type.shape[b_axis])

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        a, b = inputs
        xp = backend.get_array_module(a, b)
        y = xp.tensordot(a, b, axes=(self.a_axes, self.b_axes))
        if self.c_axes is not None:
            y = y.transpose(self.c_axes)
        return utils.force_array(y),

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        gc, = grad_outputs
        a_ndim = a.ndim
        b_ndim = b.ndim
        # Where each axis of the output comes from: (is from a, axis).
        labels = (
            [(True, i) for i in range(a_ndim) if i not in self.a_axes]
            + [(False, i) for i in range(b_ndim) if i not in self.b_axes])
        if self.c_axes is not None:
            labels = [labels[i] for i in self.c_axes]

        ret = []
        if 0 in indexes:
            pairing = dict(zip(self.b_axes, self.a_axes))
            x_axes, y_axes, c_axes = _grad_axes(
                labels, True, b_ndim, pairing)
            ga, = TensorDot(x_axes, y_axes, c_axes).apply((gc, b))
            if ga.dtype != a.dtype:
                ga = cast.cast(ga, a.dtype)
            ret.append(ga)
        if 1 in indexes:
            pairing = dict(zip(self.a_axes, self.b_axes))
            labels_b = [(not from_a, i) for from_a, i in labels]
            x_axes, y_axes, c_axes = _grad_axes(
                labels_b, False, a_ndim, pairing)
            gb, = TensorDot(x_axes, y_axes, c_axes).apply((a, gc))
            if gb.dtype != b.dtype:
                gb = cast.cast(gb, b.dtype)
            ret.append(gb)
        return ret


def tensordot(a, b, axes=2):
    """Tensor dot product of two arrays along given axes.

    The product sums over the given axes of ``a`` and ``b`` taken in pairs;
    the output has the other axes of ``a`` followed by those of ``b``.

    Args:
        a (:class:`~chainer.Variable` or :ref:`ndarray`): The first
            operand, of a float dtype.
        b (:class:`~chainer.Variable` or :ref:`ndarray`): The second
            operand, of a float dtype.
        axes (int or pair of sequences of int): An int ``n`` sums over the
            last ``n`` axes of ``a`` and the first ``n`` axes of ``b``. A
            pair ``(a_axes, b_axes)`` lists the axes of each operand to sum
            over, paired in order (an int stands for a list of one axis).

    Returns:
        ~chainer.Variable: The tensor dot product.

    .. admonition:: Example

        >>> a = np.ones((5, 3, 2), np.float32)
        >>> b = np.ones((3, 2, 4), np.float32)
        >>> F.tensordot(a, b, axes=2).shape
        (5, 4)
        >>> F.tensordot(a, b, axes=([1], [0])).shape
        (5, 2, 2, 4)

    .. seealso:: :func:`numpy.tensordot`

    """
    a_ndim = a.ndim
    b_ndim = b.ndim
    if isinstance(axes, collections.abc.Sequence):
        if len(axes) != 2:
            raise ValueError('axes must be a pair of sequence of integers '
                             'when it is a list or tuple.')
        a_axes, b_axes = axes
        if isinstance(a_axes, int):
            a_axes = [a_axes]
        if isinstance(b_axes, int):
            b_axes = [b_axes]
        a_axes = list(a_axes)
        b_axes = list(b_axes)
        if len(a_axes) != len(b_axes):
            raise ValueError('axes count mismatch')
        a_axes = [i % a_ndim if a_ndim else i for i in a_axes]
        b_axes = [i % b_ndim if b_ndim else i for i in b_axes]
    elif isinstance(axes, int):
        if axes > a_ndim or axes > b_ndim:
            raise ValueError('dimension of input tensors must be greater '
                             'equal to dot-axes count ({})'.format(axes))
        a_axes = list(range(a_ndim - axes, a_ndim))
        b_axes = list(range(axes))
    else:
        raise TypeError('axes must be a pair of sequence of integers or an '
                        'integer')
    for a_axis, b_axis in zip(a_axes, b_axes):
        if a.shape[a_axis] != b.shape[b_axis]:
            raise ValueError('shape mismatch')
    y, = TensorDot(a_axes, b_axes).apply((a, b))
    return y
