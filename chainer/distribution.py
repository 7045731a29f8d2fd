"""The interface of probability distributions and the KL-divergence registry.

A distribution holds parameters (arrays or Variables) and computes
probabilities, statistics and samples from them with differentiable
functions, so that gradients flow back to the parameters.

A sample has three parts of shape, outermost first: ``sample_shape``
(independent draws of the whole distribution), :attr:`batch_shape`
(independent distributions with their own parameters) and
:attr:`event_shape` (the values of one draw of one distribution, not
independent in general). A probability-like method takes points of shape
``sample_shape + batch_shape + event_shape`` and returns values of shape
``sample_shape + batch_shape``.
"""

import copy

from chainer import backend


class Distribution(object):

    """Base class of probability distributions.

    A subclass takes its parameters in ``__init__`` and overrides the
    members it can compute; the others raise :class:`NotImplementedError`,
    as in Chainer. To sample, override :meth:`sample_n`;
    :meth:`sample` reshapes its result.

    .. admonition:: Example

        >>> import chainer.distributions as D
        >>> loc = np.zeros((4, 3, 2), np.float32)
        >>> scale_tril = np.broadcast_to(
        ...     np.eye(2, dtype=np.float32), (4, 3, 2, 2))
        >>> dist = D.MultivariateNormal(loc, scale_tril=scale_tril)
        >>> dist.batch_shape, dist.event_shape
        ((4, 3), (2,))
        >>> dist.sample(sample_shape=(6, 5)).shape
        (6, 5, 4, 3, 2)
    """

    def _copy_to(self, target):
        target.__dict__ = copy.copy(self.__dict__)
        return target

    @property
    def batch_shape(self):
        """tuple: Shape of the independent, differently parameterised part.
        """
        raise NotImplementedError

    @property
    def event_shape(self):
        """tuple: Shape of one draw of one distribution of the batch."""
        raise NotImplementedError

    @property
    def params(self):
        """dict: The parameters of the distribution, by name."""
        raise NotImplementedError

    @property
    def support(self):
        """str: Description of the set the values lie in."""
        raise NotImplementedError

    @property
    def mean(self):
        """~chainer.Variable: Its expected value."""
        raise NotImplementedError

    @property
    def mode(self):
        """~chainer.Variable: Its most likely value."""
        raise NotImplementedError

    @property
    def variance(self):
        """~chainer.Variable: Its variance."""
        raise NotImplementedError

    @property
    def stddev(self):
        """~chainer.Variable: Its standard deviation."""
        raise NotImplementedError

    @property
    def covariance(self):
        """~chainer.Variable: Its covariance matrix."""
        raise NotImplementedError

    @property
    def entropy(self):
        """~chainer.Variable: Its entropy."""
        raise NotImplementedError

    def cdf(self, x):
        """Cumulative distribution function, ``P(X <= x)``.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Points of the
                domain.

        Returns:
            ~chainer.Variable: The function evaluated at ``x``.
        """
        raise NotImplementedError

    def icdf(self, x):
        """Inverse of the cumulative distribution function (quantiles).

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Probabilities.

        Returns:
            ~chainer.Variable: The points whose CDF is ``x``.
        """
        raise NotImplementedError

    def log_cdf(self, x):
        """Logarithm of :meth:`cdf`.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Points of the
                domain.

        Returns:
            ~chainer.Variable: ``log P(X <= x)``.
        """
        raise NotImplementedError

    def log_prob(self, x):
        """Logarithm of the probability density or mass at ``x``.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Points of the
                domain.

        Returns:
            ~chainer.Variable: The log-probability of each point.
        """
        raise NotImplementedError

    def log_survival_function(self, x):
        """Logarithm of :meth:`survival_function`.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Points of the
                domain.

        Returns:
            ~chainer.Variable: ``log P(X > x)``.
        """
        raise NotImplementedError

    def perplexity(self, x):
        """Perplexity at ``x``.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Points of the
                domain.

        Returns:
            ~chainer.Variable: The perplexity evaluated at ``x``.
        """
        raise NotImplementedError

    def prob(self, x):
        """Probability density or mass at ``x``.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Points of the
                domain.

        Returns:
            ~chainer.Variable: The probability of each point.
        """
        raise NotImplementedError

    def survival_function(self, x):
        """Survival function, ``P(X > x)``.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Points of the
                domain.

        Returns:
            ~chainer.Variable: The function evaluated at ``x``.
        """
        raise NotImplementedError

    def sample(self, sample_shape=()):
        """Draws random points of shape ``sample_shape + batch_shape +
        event_shape``.

        The draws come from :meth:`sample_n`; subclasses override that
        method, not this one.

        Args:
            sample_shape (int or tuple of ints): Shape of the independent
                draws.

        Returns:
            ~chainer.Variable: The sampled points.
        """
        shape = self.batch_shape + self.event_shape
        if isinstance(sample_shape, int):
            sample_shape = (sample_shape,)
        n = 1
        for size in sample_shape:
            n *= size
        return self.sample_n(n).reshape(tuple(sample_shape) + shape)

    def sample_n(self, n):
        """Draws ``n`` random points, of shape ``(n,) + batch_shape +
        event_shape``.

        Args:
            n (int): Number of draws.

        Returns:
            ~chainer.Variable: The sampled points.
        """
        raise NotImplementedError

    @property
    def xp(self):
        """module: The array module (:mod:`numpy` or :mod:`cupy`) of the
        parameters."""
        return backend.get_array_module(*self.params.values())


_KLDIVERGENCE = {}


def register_kl(Dist1, Dist2):
    """Decorator that registers the KL divergence of two distribution types.

    :func:`~chainer.kl_divergence` calls the decorated function for an
    instance of ``Dist1`` and an instance of ``Dist2`` (the exact types).

    Args:
        Dist1 (type): Class of the first (left) operand, a subclass of
            :class:`~chainer.Distribution`.
        Dist2 (type): Class of the second (right) operand.

    .. admonition:: Example

        .. code-block:: python

            @chainer.register_kl(MyDist, MyDist)
            def _kl_mydist_mydist(dist1, dist2):
                return ...  # a Variable of shape dist1.batch_shape
    """
    def register(kl):
        _KLDIVERGENCE[Dist1, Dist2] = kl
        return kl
    return register


def kl_divergence(dist1, dist2):
    """Kullback-Leibler divergence ``D_KL(p || q)`` of two distributions.

    ``D_KL(p || q) = E_p[log p(x) - log q(x)]``, computed by the function
    registered with :func:`~chainer.register_kl` for the types of the two
    distributions.

    Args:
        dist1 (~chainer.Distribution): ``p``, the first (left) operand.
        dist2 (~chainer.Distribution): ``q``, the second (right) operand.

    Returns:
        ~chainer.Variable: The divergence for each distribution of the
        batch.

    Raises:
        KeyError: If no function is registered for the two types.
    """
    key = type(dist1), type(dist2)
    if key not in _KLDIVERGENCE:
        raise KeyError(
            'no KL divergence is registered for {} and {}; register one '
            'with chainer.register_kl'.format(*(t.__name__ for t in key)))
    return _KLDIVERGENCE[key](dist1, dist2)


def cross_entropy(dist1, dist2):
    """Cross entropy ``H(p, q) = -E_p[log q(x)]`` of two distributions.

    It is the entropy of ``p`` plus :func:`~chainer.kl_divergence`, so the
    pair needs a registered KL divergence and ``p`` an entropy (the
    :attr:`~chainer.Distribution.entropy` property, or a method of that
    name in a user's distribution, which is called).

    Args:
        dist1 (~chainer.Distribution): ``p``, the first (left) operand.
        dist2 (~chainer.Distribution): ``q``, the second (right) operand.

    Returns:
        ~chainer.Variable: The cross entropy for each distribution of the
        batch.
    """
    entropy = dist1.entropy
    if callable(entropy):
        entropy = entropy()
    return entropy + kl_divergence(dist1, dist2)
