import numpy

from chainer import backend
from chainer import function_node
from chainer.utils import type_check


# Modes whose padding only copies elements of the input; the gradient
# flows back to the copied elements.
_COPY_MODES = ('edge', 'reflect', 'symmetric', 'wrap')


def _copies_elements(mode, keywords):
    return (mode in _COPY_MODES
            and keywords.get('reflect_type', 'even') == 'even')


class Pad(function_node.FunctionNode):

    """Pads an array as :func:`numpy.pad` does."""

    def __init__(self, pad_width, mode, **keywords):
        self.pad_width = pad_width
        self.mode = mode
        self.keywords = keywords

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.pad(x, self.pad_width, mode=self.mode, **self.keywords),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        in_shape = self.inputs[0].shape
        if _copies_elements(self.mode, self.keywords):
            return PadGrad(self, in_shape).apply(grad_outputs)
        before = numpy.broadcast_to(
            numpy.asarray(self.pad_width), (len(in_shape), 2))[:, 0]
        return gy[tuple(slice(b, b + n) for b, n in zip(before, in_shape))],


class PadGrad(function_node.FunctionNode):

    """Gradient of :class:`Pad` for the modes that copy input elements.

    Each element of the output gradient is added to the input element it
    was copied from.
    """

    def __init__(self, pad, in_shape):
        self.pad_width = pad.pad_width
        self.mode = pad.mode
        self.keywords = pad.keywords
        self.in_shape = in_shape

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        size = int(numpy.prod(self.in_shape, dtype=numpy.int64))
        # Padding the indices of the input tells where each output
        # element comes from.
        source = numpy.pad(
            numpy.arange(size).reshape(self.in_shape), self.pad_width,
            mode=self.mode, **self.keywords)
        if xp is not numpy:
            source = xp.asarray(source)
        gx = xp.bincount(source.ravel(), gy.ravel(), minlength=size)
        return gx.astype(gy.dtype, copy=False).reshape(self.in_shape),

    def backward(self, indexes, grad_outputs):
        return Pad(self.pad_width, self.mode, **self.keywords).apply(
            grad_outputs)


def pad(x, pad_width, mode, **keywords):
    """Pads a variable as :func:`numpy.pad` does.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Float input.
        pad_width (int or array-like): The number of elements added before
            and after each axis: an int for all of them, a pair
            ``(before, after)`` for all axes, or one pair per axis.
        mode (str): How the new elements are filled, as in
            :func:`numpy.pad`; ``'constant'`` fills them with
            ``constant_values`` (0 by default).
        **keywords: Further options of :func:`numpy.pad`, such as
            ``constant_values``.

    Returns:
        ~chainer.Variable: The padded variable.

    .. note::
        With ``'edge'``, ``'reflect'`` (even reflection), ``'symmetric'``
        and ``'wrap'``, the gradient of each padded element goes to the
        input element it copies. With the other modes, it flows through
        the unpadded part only.

    .. admonition:: Example

        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.pad(x, 1, 'constant').array
        array([[0., 0., 0., 0.],
               [0., 1., 2., 0.],
               [0., 3., 4., 0.],
               [0., 0., 0., 0.]], dtype=float32)
        >>> F.pad(x, ((0, 0), (1, 2)), 'constant', constant_values=-1).array
        array([[-1.,  1.,  2., -1., -1.],
               [-1.,  3.,  4., -1., -1.]], dtype=float32)

    """
    return Pad(pad_width, mode, **keywords).apply((x,))[0]
