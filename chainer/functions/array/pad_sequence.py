import numpy

from chainer import backend
from chainer.functions.array import _join
from chainer.functions.array import separate
from chainer import function_node
from chainer.utils import type_check


_INT64 = numpy.iinfo(numpy.int64)
_UINT64 = numpy.iinfo(numpy.uint64)


def _padding_value(padding, dtype):
    # The padding as an array of ``dtype`` stores it. A Python number goes
    # into an integer dtype as Chainer stored it under NumPy 1: it is
    # truncated to an integer, which must fit a C long (or, for uint64, an
    # unsigned one), and then wraps around (-1 pads uint8 with 255) where
    # NumPy 2 raises OverflowError.
    if (dtype.kind not in 'iu' or isinstance(padding, (bool, numpy.generic))
            or not isinstance(padding, (int, float))):
        return padding
    value = int(padding)
    if dtype == numpy.uint64 and 0 <= value <= _UINT64.max:
        return numpy.uint64(value)
    if not _INT64.min <= value <= _INT64.max:
        raise OverflowError('Python int too large to convert to C long')
    return numpy.int64(value).astype(dtype)


class PadSequence(function_node.FunctionNode):

    """Pads arrays of different lengths into one array."""

    def __init__(self, length, padding):
        self.length = length
        self.padding = padding

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check._argname(in_types[:1], ('x0',))
        type_check.expect(in_types[0].ndim > 0)
        _join.check_join_types(in_types, 0, name_inputs=True)
        if self.length is not None:
            length = type_check.make_variable(self.length, 'length')
            for x in in_types:
                type_check.expect(x.shape[0] <= length)

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        lengths = [len(x) for x in xs]
        length = max(lengths) if self.length is None else self.length
        unit = xs[0].shape[1:]
        y = xp.empty((len(xs), length) + unit, xs[0].dtype)
        padding = _padding_value(self.padding, y.dtype)
        if xp is numpy:
            for i, x in enumerate(xs):
                n = lengths[i]
                y[i, :n] = x
                y[i, n:] = padding
        elif length > 0:
            # One scatter of all the rows instead of two copies per
            # sequence.
            y.fill(padding)
            rows = numpy.concatenate(
                [i * length + numpy.arange(n)
                 for i, n in enumerate(lengths)])
            y.reshape((-1,) + unit)[xp.asarray(rows)] = xp.concatenate(xs)
        return y,

    def backward(self, indexes, grad_outputs):
        gys = separate.separate(grad_outputs[0], 0)
        length = gys[0].shape[0]
        ret = []
        for i in indexes:
            n = self.inputs[i].shape[0]
            ret.append(gys[i] if n == length else gys[i][:n])
        return ret


def pad_sequence(xs, length=None, padding=0):
    """Pads sequences of different lengths into one variable.

    Args:
        xs (list of :class:`~chainer.Variable` or :ref:`ndarray`): The
            sequences, arrays whose first axis is the time axis. All must
            have the same dtype and the same shape except along the first
            axis.
        length (None or int): The length of the padded sequences; at least
            the length of the longest sequence. ``None`` (default) uses the
            length of the longest sequence.
        padding (int or float): The value of the added elements. In an
            integer dtype, an out-of-range integer wraps around (``-1``
            pads ``uint8`` sequences with ``255``).

    Returns:
        ~chainer.Variable: A variable of shape
        ``(len(xs), length) + xs[0].shape[1:]`` whose ``i``-th row is
        ``xs[i]`` followed by padding.

    .. admonition:: Example

        >>> xs = [np.array([1, 2, 3]), np.array([4]), np.array([5, 6])]
        >>> F.pad_sequence(xs, padding=-1).array
        array([[ 1,  2,  3],
               [ 4, -1, -1],
               [ 5,  6, -1]])

    """
    return PadSequence(length, padding).apply(xs)[0]
