"""Element-wise floor, outside the computational graph."""

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
    return variable.as_variable(utils.force_array(xp.floor(x), x.dtype))
