"""Element-wise floor, outside the computational graph."""

import numpy

from chainer import backend
from chainer import utils
from chainer import variable


def floor(x):
    """Element-wise floor function, :math:`y_i = \\lfloor x_i \\rfloor`.

    The result is a new variable with no creator: the computational graph
    ends here.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    if isinstance(x, variable.Variable):
        x = x.array
    xp = backend.get_array_module(x)
    y = x
    if x.dtype.kind in 'iu':
        # The floor of an integer goes through float64, as in NumPy 1
        # (NumPy 2 returns the integers unchanged).
        y = x.astype(numpy.float64)
    return variable.as_variable(utils.force_array(xp.floor(y), x.dtype))
