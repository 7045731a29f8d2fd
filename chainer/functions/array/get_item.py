import numpy

import chainer
from chainer import backend
from chainer.functions import _numerics
from chainer.functions.array import _index
from chainer import function_node
from chainer import utils
from chainer.utils import type_check
from chainer import variable


def _is_basic_index(index):
    # Basic indices select each element at most once.
    if index is None or index is Ellipsis or isinstance(index, slice):
        return True
    return (isinstance(index, (int, numpy.integer))
            and not isinstance(index, bool))


class GetItem(function_node.FunctionNode):

    """Extracts elements of an array by NumPy indexing."""

    def __init__(self, slices):
        if isinstance(slices, list):
            if all(isinstance(s, int) for s in slices):
                slices = slices,
            slices = tuple(slices)
        elif not isinstance(slices, tuple):
            slices = slices,
        if chainer.is_debug():
            if len([s for s in slices if s is Ellipsis]) > 1:
                raise ValueError('Only one Ellipsis is allowed')
        self.slices = slices

    check_type_forward = type_check._argument_check(('x',))

    def forward(self, inputs):
        x, = inputs
        if not isinstance(x, numpy.ndarray):
            _index.check_array_indices(x.shape, self.slices)
        return utils.force_array(x[self.slices]),

    def backward(self, indexes, grad_outputs):
        return GetItemGrad(
            self.slices, self.inputs[0].shape).apply(grad_outputs)

    def _add_grad_into(self, index, grad_outputs, total):
        # A slice of a sequence taken step by step sends each gradient to
        # the running sum instead of to an array of zeros of its own.
        gy = grad_outputs[0]
        if gy is None:
            return False
        gy = gy.array
        if total is None:
            gx = backend.get_array_module(gy).zeros(self.inputs[0].shape,
                                                    gy.dtype)
            _scatter(gx, self.slices, gy)
            return gx
        if type(gy) is not type(total) or gy.dtype != total.dtype:
            return False
        _scatter(total, self.slices, gy)
        return True


def _scatter(gx, slices, gy):
    # gx[slices] += gy, an element selected twice receiving both.
    if all(_is_basic_index(s) for s in slices):
        gx[slices] += gy
    else:
        _numerics.add_at(gx, slices, gy)


class GetItemGrad(function_node.FunctionNode):

    """Gradient of :class:`GetItem`: scatters ``gy`` into zeros.

    Elements selected several times by advanced indexing accumulate.
    """

    def __init__(self, slices, in_shape):
        self.slices = slices
        self._in_shape = in_shape

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self._in_shape, gy.dtype)
        _scatter(gx, self.slices, gy)
        return gx,

    def backward(self, indexes, grad_outputs):
        return GetItem(self.slices).apply(grad_outputs)


def get_item(x, slices):
    """Extracts elements of an array by NumPy indexing.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The array to
            index.
        slices (int, slice, Ellipsis, None, integer array-like, boolean\
        array-like or tuple of them): The index, as for NumPy's
            ``x[slices]``.

    Returns:
        ~chainer.Variable: A variable holding the selected elements of ``x``.

    Raises:
        IndexError: If an index is out of bounds, on the GPU too (where
            CuPy alone would wrap it around).

    .. note::

        In the gradient, elements selected several times by an integer
        array accumulate. On the GPU this relies on CUDA's ``atomicAdd``,
        which does not support every dtype.

    .. admonition:: Example

        >>> x = np.arange(12).reshape((2, 2, 3))
        >>> F.get_item(x, (0, 0, slice(0, 2))).array  # x[0, 0, 0:2]
        array([0, 1])
        >>> F.get_item(x, (Ellipsis, 2)).array  # x[..., 2]
        array([[ 2,  5],
               [ 8, 11]])

    """
    return GetItem(slices).apply((x,))[0]


def install_variable_get_item():
    """Sets ``Variable.__getitem__`` to :func:`get_item`."""
    variable.Variable.__getitem__ = get_item
