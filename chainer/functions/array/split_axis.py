import collections.abc

import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


def _parse_indices_or_sections(indices_or_sections):
    # Returns (indices, None) for a sequence of split points and
    # (None, sections) for a number of equal parts.
    ios = indices_or_sections
    if isinstance(ios, numpy.ndarray):
        if ios.dtype.kind != 'i' and ios.size > 0:
            raise TypeError('indices_or_sections must be integers')
        if ios.ndim >= 2:
            raise TypeError('indices_or_sections must be 1-D sequence')
        if ios.ndim == 0:
            return None, int(ios)
    elif isinstance(ios, collections.abc.Sequence):
        ios = list(ios)
    elif isinstance(ios, (int, numpy.integer)):
        return None, ios
    else:
        raise TypeError(
            'indices_or_sections must be integer or 1-D array.\n'
            'Actual: {}'.format(type(indices_or_sections)))
    if chainer.is_debug():
        if any(p > n for p, n in zip(ios[:-1], ios[1:])):
            raise ValueError('indices_or_sections must be sorted')
    return ios, None


class SplitAxis(function_node.FunctionNode):

    """Splits an array into views along an axis."""

    def __init__(self, indices_or_sections, axis):
        self.indices, self.sections = _parse_indices_or_sections(
            indices_or_sections)
        self.axis = axis

    @property
    def indices_or_sections(self):
        """The split points, or the number of equal sections."""
        if self.indices is not None:
            return self.indices
        return self.sections

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        axis = type_check.make_variable(self.axis, 'axis')
        type_check.expect(-x_type.ndim <= axis, axis < x_type.ndim)
        if self.indices is not None:
            if len(self.indices) > 0:
                max_index = type_check.make_variable(
                    self.indices[-1], 'max_index')
                type_check.expect(x_type.shape[self.axis] >= max_index)
        else:
            sections = type_check.make_variable(self.sections, 'sections')
            type_check.expect(x_type.shape[self.axis] % sections == 0)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        ys = tuple(xp.split(x, self.indices_or_sections, self.axis))
        self._shapes = [y.shape for y in ys]
        return ys

    def backward(self, indexes, grad_outputs):
        dtype = self.inputs[0].dtype
        xp = None
        gys = []
        for gy, shape in zip(grad_outputs, self._shapes):
            if gy is None:
                if xp is None:
                    xp = backend.get_array_module(
                        *[g for g in grad_outputs if g is not None])
                gy = xp.zeros(shape, dtype)
            gys.append(gy)
        return chainer.functions.concat(gys, self.axis),


def split_axis(x, indices_or_sections, axis, force_tuple=True):
    """Splits a variable into views along an axis.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The array cut
            into pieces.
        indices_or_sections (int or 1-D array or sequence of int): An
            integer ``n`` splits ``x`` into ``n`` equal parts (the length
            along ``axis`` must be divisible by ``n``). A sorted sequence
            of integers gives the points where ``x`` is cut, as in
            :func:`numpy.split`.
        axis (int): The axis along which ``x`` is split.
        force_tuple (bool): If ``True`` (default), a tuple is returned even
            when there is only one part. If ``False``, a single part is
            returned as a variable.

    Returns:
        tuple of ~chainer.Variable or ~chainer.Variable: The parts, which
        are views of ``x``.

    .. note::
        Indices beyond the length of ``x`` along ``axis`` give empty
        parts, as in :func:`numpy.split`.

    .. admonition:: Example

        >>> x = np.arange(12, dtype=np.float32).reshape(2, 6)
        >>> a, b, c = F.split_axis(x, 3, axis=1)
        >>> b.array
        array([[2., 3.],
               [8., 9.]], dtype=float32)
        >>> [y.shape for y in F.split_axis(x, [1, 4], axis=1)]
        [(2, 1), (2, 3), (2, 2)]

    """
    ys = SplitAxis(indices_or_sections, axis).apply((x,))
    if force_tuple or len(ys) != 1:
        return ys
    return ys[0]
