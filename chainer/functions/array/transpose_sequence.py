import numpy

from chainer import backend
from chainer import function_node
from chainer.utils import type_check


def _transpose(xs, length):
    # ``xs`` are sequences sorted by decreasing length. Output ``t``
    # holds the ``t``-th element of every sequence longer than ``t``.
    xp = backend.get_array_module(*xs)
    in_lengths = numpy.array([len(x) for x in xs])
    starts = numpy.concatenate(([0], numpy.cumsum(in_lengths)[:-1]))
    times = numpy.arange(length)[:, None]
    present = in_lengths[None, :] > times
    out_lengths = present.sum(axis=1)
    # Position of the element at time t of sequence i in the
    # concatenation of ``xs``, in the order of the outputs.
    rows = (starts[None, :] + times)[present]
    if xp is not numpy:
        rows = xp.asarray(rows)
    ys = xp.concatenate(xs).take(rows, axis=0)
    return tuple(xp.split(ys, numpy.cumsum(out_lengths)[:-1].tolist()))


class TransposeSequence(function_node.FunctionNode):

    """Transposes a list of sequences between batch-major and time-major.

    Applied twice, it gives back the list it started from.
    """

    def __init__(self, length):
        self._length = length

    def check_type_forward(self, xs_type):
        for x_type in xs_type:
            type_check.expect(x_type.ndim >= 1)
        for p, n in zip(xs_type, xs_type[1:]):
            type_check.expect(
                p.shape[0] >= n.shape[0],
                p.shape[1:] == n.shape[1:],
                p.dtype == n.dtype,
            )

    def forward(self, xs):
        if not xs or self._length == 0:
            return ()
        ys = _transpose(xs, self._length)
        self._out_shapes = [y.shape for y in ys]
        return ys

    def backward(self, indexes, grad_outputs):
        gys = list(grad_outputs)
        if any(gy is None for gy in gys):
            xp = backend.get_array_module(
                *[gy for gy in gys if gy is not None])
            dtype = self.inputs[0].dtype
            gys = [xp.zeros(shape, dtype) if gy is None else gy
                   for gy, shape in zip(gys, self._out_shapes)]
        return TransposeSequence(len(self.inputs)).apply(gys)


def transpose_sequence(xs):
    """Transposes a list of sequences between batch-major and time-major.

    Given sequences sorted by decreasing length, the ``t``-th output holds
    the ``t``-th elements of all sequences longer than ``t``, stacked in
    the order of ``xs``. It is the layout that recurrent networks read
    one time step at a time. Applying the function twice gives back
    ``xs``.

    Args:
        xs (list of :class:`~chainer.Variable` or :ref:`ndarray`): The
            sequences, sorted by decreasing length along the first axis.
            They must have the same dtype and the same shape except along
            the first axis.

    Returns:
        tuple of ~chainer.Variable: As many variables as the length of
        ``xs[0]``; the ``t``-th has as many rows as there are sequences
        longer than ``t``.

    .. admonition:: Example

        >>> xs = [np.array([1, 2, 3]), np.array([4, 5]), np.array([6])]
        >>> [y.array for y in F.transpose_sequence(xs)]
        [array([1, 4, 6]), array([2, 5]), array([3])]

    """
    if not xs:
        return ()
    return TransposeSequence(len(xs[0])).apply(xs)
