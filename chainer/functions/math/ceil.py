"""Element-wise ceiling, outside the computational graph."""

from chainer.functions.math import _outside_graph


def ceil(x):
    """Element-wise ceiling function, :math:`y_i = \\lceil x_i \\rceil`.

    The result is a new variable with no creator: the computational graph
    ends here.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return _outside_graph.apply('ceil', x)
