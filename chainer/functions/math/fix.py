"""Element-wise rounding toward zero, outside the computational graph."""

from chainer.functions.math import _outside_graph


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
    return _outside_graph.apply('trunc', x)
