"""Element-wise floor, outside the computational graph."""

import numpy

from chainer.functions.math import _outside_graph


def floor(x):
    """Element-wise floor function, :math:`y_i = \\lfloor x_i \\rfloor`.

    The result is a new variable with no creator: the computational graph
    ends here.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
            Integers are floored through float64 and cast back.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    # Integers go through float64, as in NumPy 1 (NumPy 2 returns them
    # unchanged).
    via = numpy.float64 if x.dtype.kind in 'iu' else None
    return _outside_graph.apply('floor', x, via=via)
