import numpy

from chainer import backend
from chainer.functions.array import reshape
from chainer.functions.array import where
from chainer.functions.math import _reduction
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class SelectorBase(function_node.FunctionNode):

    """Base of the functions that select one element over given axes.

    The gradient flows to every element equal to the selected one.
    """

    def __init__(self, axis=None, keepdims=False):
        self.axis = _reduction.normalize_axis(axis)
        self.keepdims = keepdims

    def _fwd(self, x, xp):
        raise NotImplementedError()

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        _reduction.check_axis(x_type, self.axis)

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(self._fwd(x, xp)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        y = y.array
        if self.axis is not None and not self.keepdims:
            shape = _reduction.keepdims_shape(x.shape, self.axis)
            y = y.reshape(shape)
            gy = reshape.reshape(gy, shape)
        selected = x.array == y
        zero = backend.get_array_module(y).zeros((), gy.dtype)
        return where.where(selected, gy, zero),


class Max(SelectorBase):

    """Largest element along some axes."""

    def _fwd(self, x, xp):
        return xp.amax(x, axis=self.axis, keepdims=self.keepdims)


class Min(SelectorBase):

    """Smallest element along some axes."""

    def _fwd(self, x, xp):
        return xp.amin(x, axis=self.axis, keepdims=self.keepdims)


def max(x, axis=None, keepdims=False):
    """Largest element along some axes.

    Where several elements share the maximum, each of them gets the whole
    gradient.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): A float array.
        axis (None, int, or tuple of int): The axes to take the maximum
            over. ``None`` (default) takes it over all the elements.
        keepdims (bool): If ``True``, the reduced axes stay in the output
            as axes of length one.

    Returns:
        ~chainer.Variable: Output variable.

    .. admonition:: Example

        >>> x = np.array([[1., 5., 3.], [4., 2., 6.]], np.float32)
        >>> F.max(x, axis=1).array
        array([5., 6.], dtype=float32)

    """
    y, = Max(axis, keepdims).apply((x,))
    return y


def min(x, axis=None, keepdims=False):
    """Smallest element along some axes.

    It takes the arguments of :func:`~chainer.functions.max`. Where several
    elements share the minimum, each of them gets the whole gradient.

    Returns:
        ~chainer.Variable: Output variable.

    .. admonition:: Example

        >>> x = np.array([[1., 5., 3.], [4., 2., 6.]], np.float32)
        >>> F.min(x, axis=0).array
        array([1., 2., 3.], dtype=float32)

    """
    y, = Min(axis, keepdims).apply((x,))
    return y


class IndexSelectorBase(function_node.FunctionNode):

    """Base of the functions that return the index of a selected element.

    They are not differentiable.
    """

    def __init__(self, axis=None):
        if axis is None or isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError('None or int are required')

    def _fwd(self, x, xp):
        raise NotImplementedError()

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == 'f')
        if self.axis is not None:
            _reduction.check_axis(x_type, (self.axis,))

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.asarray(self._fwd(x, xp), dtype=numpy.int32),

    def backward(self, indexes, grad_outputs):
        return None,


class ArgMin(IndexSelectorBase):

    """Index of the minimum over an axis."""

    def _fwd(self, x, xp):
        return xp.argmin(x, axis=self.axis)


class ArgMax(IndexSelectorBase):

    """Index of the maximum over an axis."""

    def _fwd(self, x, xp):
        return xp.argmax(x, axis=self.axis)


def argmin(x, axis=None):
    """Index of the minimum of array elements over an axis.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): A float array.
        axis (None or int): The axis to search along. ``None`` (default)
            searches the flattened array.

    Returns:
        ~chainer.Variable: The ``int32`` indices; not differentiable.

    .. admonition:: Example

        >>> x = np.array([[1., 5., 3.], [4., 2., 6.]], np.float32)
        >>> F.argmin(x, axis=1).array
        array([0, 1], dtype=int32)

    """
    y, = ArgMin(axis).apply((x,))
    return y


def argmax(x, axis=None):
    """Index of the maximum of array elements over an axis.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): A float array.
        axis (None or int): The axis to search along. ``None`` (default)
            searches the flattened array.

    Returns:
        ~chainer.Variable: The ``int32`` indices; not differentiable.

    .. admonition:: Example

        >>> x = np.array([[1., 5., 3.], [4., 2., 6.]], np.float32)
        >>> F.argmax(x).array
        array(5, dtype=int32)

    """
    y, = ArgMax(axis).apply((x,))
    return y
