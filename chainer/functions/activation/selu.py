from chainer.functions.activation import elu


def selu(x,
         alpha=1.6732632423543772848170429916717,
         scale=1.0507009873554804934193349852946):
    """Scaled exponential linear unit.

    For parameters :math:`\\alpha` and :math:`\\lambda` it computes

    .. math::
        f(x) = \\lambda \\left \\{ \\begin{array}{ll}
        x & {\\rm if}~ x > 0 \\\\
        \\alpha (\\exp(x) - 1) & {\\rm if}~ x \\le 0,
        \\end{array} \\right.

    that is, :math:`\\lambda` times :func:`~chainer.functions.elu`. The
    default parameters are those of `Klambauer et al.
    <https://arxiv.org/abs/1706.02515>`_, which keep activations
    normalised.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype and any shape.
        alpha (float): The parameter :math:`\\alpha`.
        scale (float): The parameter :math:`\\lambda`.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([-1., 0., 1.], np.float32)
        >>> F.selu(x).array
        array([-1.1113307,  0.       ,  1.050701 ], dtype=float32)

    """
    return scale * elu.elu(x, alpha=alpha)
