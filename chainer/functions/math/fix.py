"""Element-wise rounding toward zero, outside the computational graph."""

from chainer import backend
from chainer import utils
from chainer import variable


def fix(x):
    """Element-wise rounding toward zero (truncation).

    :math:`y_i` is the integer part of :math:`x_i`: ``fix(-1.5) == -1``
    and ``fix(1.5) == 1``. The result is a new variable with no creator:
    the computational graph ends here.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    if isinstance(x, variable.Variable):
        x = x.array
    xp = backend.get_array_module(x)
    return variable.as_variable(utils.force_array(xp.trunc(x), x.dtype))
