import math

from chainer.functions.activation import softplus
from chainer.functions.loss import _reduce_option
from chainer.functions.math import average
from chainer.functions.math import exponential
from chainer.functions.math import sum as sum_module


def _reduce(loss, reduce):
    if reduce == 'sum':
        return sum_module.sum(loss)
    if reduce == 'mean':
        return average.average(loss)
    return loss


def gaussian_kl_divergence(mean, ln_var, reduce='sum'):
    """KL divergence of a diagonal Gaussian from the standard Gaussian.

    With ``mean`` holding :math:`\\mu` and ``ln_var`` holding
    :math:`\\log(\\sigma^2)`, it computes, element by element,

    .. math::

       D_{\\mathbf{KL}}(N(\\mu, S) \\| N(0, I)) =
       \\frac{1}{2} \\left( \\mu^2 + \\sigma^2 - \\log(\\sigma^2) - 1
       \\right),

    where :math:`S` is the diagonal matrix with :math:`S_{ii} =
    \\sigma_i^2`.

    Args:
        mean (:class:`~chainer.Variable` or :ref:`ndarray`): The mean
            :math:`\\mu` of the Gaussian.
        ln_var (:class:`~chainer.Variable` or :ref:`ndarray`): The log of
            its variance, :math:`\\log(\\sigma^2)`, of the shape of
            ``mean``.
        reduce (str): ``'sum'`` (default) or ``'mean'`` sums or averages the
            element-wise divergences; ``'no'`` keeps them. Any other value
            raises :class:`ValueError`.

    Returns:
        ~chainer.Variable: A scalar, or the element-wise divergences of the
        shape of ``mean`` when ``reduce`` is ``'no'``.

    .. admonition:: Example

        >>> mean = np.array([0., 1.], np.float32)
        >>> ln_var = np.zeros(2, np.float32)
        >>> F.gaussian_kl_divergence(mean, ln_var, reduce='no').array
        array([0. , 0.5], dtype=float32)

    """
    _reduce_option.check(reduce, ('sum', 'mean', 'no'))
    loss = (mean * mean + exponential.exp(ln_var) - ln_var - 1) * 0.5
    return _reduce(loss, reduce)


def bernoulli_nll(x, y, reduce='sum'):
    """Negative log-likelihood of a Bernoulli distribution.

    With :math:`p = \\sigma(y)` for the sigmoid function :math:`\\sigma`,

    .. math::

        -\\log B(x; p) = -\\sum_i \\{x_i \\log(p_i) + \\
        (1 - x_i)\\log(1 - p_i)\\},

    computed element by element from :math:`y` directly, so that the output
    of a linear layer can be given as it is.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The observations.
        y (:class:`~chainer.Variable` or :ref:`ndarray`): The parameters of
            the Bernoulli distribution, before the sigmoid; of the shape of
            ``x``.
        reduce (str): ``'sum'`` (default) or ``'mean'`` sums or averages the
            element-wise values; ``'no'`` keeps them. Any other value raises
            :class:`ValueError`.

    Returns:
        ~chainer.Variable: A scalar, or the element-wise negative
        log-likelihoods of the shape of ``x`` when ``reduce`` is ``'no'``.

    .. admonition:: Example

        >>> x = np.array([1., 0.], np.float32)
        >>> y = np.zeros(2, np.float32)
        >>> F.bernoulli_nll(x, y)
        variable(1.3862944)

    """
    _reduce_option.check(reduce, ('sum', 'mean', 'no'))
    loss = softplus.softplus(y) - x * y
    return _reduce(loss, reduce)


def gaussian_nll(x, mean, ln_var, reduce='sum'):
    """Negative log-likelihood of a diagonal Gaussian distribution.

    With ``mean`` holding :math:`\\mu` and ``ln_var`` holding
    :math:`\\log(\\sigma^2)`, it computes, element by element,

    .. math::

        -\\log N(x; \\mu, \\sigma^2) =
        \\frac{1}{2} \\log(2 \\pi \\sigma^2) +
        \\frac{(x - \\mu)^2}{2 \\sigma^2},

    whose sum is the negative log-likelihood of :math:`x` under the
    Gaussian :math:`N(\\mu, S)` with the diagonal covariance :math:`S_{ii}
    = \\sigma_i^2`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The observations.
        mean (:class:`~chainer.Variable` or :ref:`ndarray`): The mean
            :math:`\\mu` of the Gaussian, of the shape of ``x``.
        ln_var (:class:`~chainer.Variable` or :ref:`ndarray`): The log of
            its variance, :math:`\\log(\\sigma^2)`, of the shape of ``x``.
        reduce (str): ``'sum'`` (default) or ``'mean'`` sums or averages the
            element-wise values; ``'no'`` keeps them. Any other value raises
            :class:`ValueError`.

    Returns:
        ~chainer.Variable: A scalar, or the element-wise negative
        log-likelihoods of the shape of ``x`` when ``reduce`` is ``'no'``.

    .. admonition:: Example

        >>> x = np.array([0., 2.], np.float32)
        >>> mean = np.zeros(2, np.float32)
        >>> ln_var = np.zeros(2, np.float32)
        >>> F.gaussian_nll(x, mean, ln_var, reduce='no').array
        array([0.9189385, 2.9189386], dtype=float32)

    """
    _reduce_option.check(reduce, ('sum', 'mean', 'no'))
    diff = x - mean
    half_inv_var = exponential.exp(-ln_var) * 0.5
    loss = (ln_var + math.log(2 * math.pi)) * 0.5 + diff * diff * half_inv_var
    return _reduce(loss, reduce)
