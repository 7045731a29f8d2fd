"""Element-wise sign, outside the computational graph."""

from chainer.functions.math import _outside_graph


def sign(x):
    """Element-wise sign function.

    .. math::

        \\mathrm{sgn}(x) = \\left \\{ \\begin{array}{cc}
        -1 & {\\rm if~x < 0} \\\\
        0 & {\\rm if~x = 0} \\\\
        1 & {\\rm if~x > 0} \\\\
        \\end{array} \\right.

    .. note::

        The gradient of this function is zero almost everywhere, so the
        result is a new variable with no creator: the computational graph
        ends here.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.

    .. admonition:: Example

        >>> F.sign(np.array([-2., 0., 3.], np.float32)).array
        array([-1.,  0.,  1.], dtype=float32)

    """
    return _outside_graph.apply('sign', x, keep_dtype=False)
