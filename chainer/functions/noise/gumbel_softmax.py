from chainer import backend
from chainer.functions.activation import softmax
from chainer import variable


def gumbel_softmax(log_pi, tau=0.1, axis=1):
    """Gumbel-Softmax sampling.

    It draws :math:`g_i` from the Gumbel distribution :math:`Gumbel(0, 1)`
    and returns

    .. math::
        y_i = {\\exp((g_i + \\log\\pi_i)/\\tau)
        \\over \\sum_{j}\\exp((g_j + \\log\\pi_j)/\\tau)},

    a differentiable relaxation of a sample of the categorical
    distribution :math:`\\pi`, where :math:`\\tau` is the temperature. See
    `Jang et al. <https://arxiv.org/abs/1611.01144>`_.

    Args:
        log_pi (:class:`~chainer.Variable` or :ref:`ndarray`): The
            unnormalised log-probabilities :math:`\\log\\pi`.
        tau (float or :class:`~chainer.Variable` or :ref:`ndarray`): The
            temperature :math:`\\tau`.
        axis (int): The axis of the categories.

    Returns:
        ~chainer.Variable: Output variable of the shape of ``log_pi``. A
        zero-dimensional ``log_pi`` gives a constant one.

    """
    xp = backend.get_array_module(log_pi)
    if log_pi.ndim < 1:
        return variable.Variable(xp.ones((), log_pi.dtype))
    dtype = log_pi.dtype
    g = xp.random.gumbel(size=log_pi.shape).astype(dtype)
    return softmax.softmax((log_pi + g) / tau, axis=axis)
