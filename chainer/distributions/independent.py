from chainer import distribution as _distribution
from chainer.functions.array import broadcast
from chainer.functions.array import reshape
from chainer.functions.math import prod
from chainer.functions.math import sum as sum_mod
from chainer import utils
from chainer.utils import cache


class Independent(_distribution.Distribution):

    """Reinterprets rightmost batch axes of a distribution as event axes.

    The distributions along those axes are independent, so the probability
    of an event is the product over them (the log-probability the sum).

    Args:
        distribution (~chainer.Distribution): The base distribution.
        reinterpreted_batch_ndims (int): How many rightmost batch axes
            become event axes. ``None`` keeps only the first batch axis
            (if any) as batch axis.

    Raises:
        ValueError: If ``reinterpreted_batch_ndims`` exceeds the number of
            batch axes of ``distribution``.
    """

    def __init__(self, distribution, reinterpreted_batch_ndims=None):
        batch_ndim = len(distribution.batch_shape)
        if reinterpreted_batch_ndims is None:
            reinterpreted_batch_ndims = max(0, batch_ndim - 1)
        elif reinterpreted_batch_ndims > batch_ndim:
            raise ValueError(
                'reinterpreted_batch_ndims must be less than or equal to the '
                'number of dimensions of `distribution.batch_shape`.')
        self.__distribution = distribution
        self.__reinterpreted_batch_ndims = reinterpreted_batch_ndims
        kept = batch_ndim - reinterpreted_batch_ndims
        self.__batch_shape = distribution.batch_shape[:kept]
        self.__event_shape = (
            distribution.batch_shape[kept:] + distribution.event_shape)

    @property
    def distribution(self):
        """~chainer.Distribution: The base distribution."""
        return self.__distribution

    @property
    def reinterpreted_batch_ndims(self):
        """int: Number of batch axes of the base made event axes."""
        return self.__reinterpreted_batch_ndims

    @property
    def batch_shape(self):
        return self.__batch_shape

    @property
    def event_shape(self):
        return self.__event_shape

    @property
    def _n_blocks(self):
        inner = self.distribution.batch_shape[len(self.batch_shape):]
        return utils.size_of_shape(inner)

    @cache.cached_property
    def covariance(self):
        """The block-diagonal covariance of the flattened events.

        The blocks are the covariances of the independent base
        distributions, so the base must have :attr:`covariance`.

        Returns:
            ~chainer.Variable: Covariance of shape ``batch_shape + (n d,
            n d)`` for ``n`` reinterpreted distributions of event size
            ``d``.
        """
        n = self._n_blocks
        d = utils.size_of_shape(self.distribution.event_shape)
        cov = reshape.reshape(
            self.distribution.covariance, self.batch_shape + (n, d, 1, d))
        shape = self.batch_shape + (n, d, n, d)
        cov = broadcast.broadcast_to(cov, shape) * self.xp.broadcast_to(
            self._block_indicator, shape).astype(cov.dtype)
        return reshape.reshape(cov, self.batch_shape + (n * d, n * d))

    @property
    def _block_indicator(self):
        n = self._n_blocks
        return self.xp.eye(n).reshape(n, 1, n, 1)

    @property
    def entropy(self):
        return self._reduce(sum_mod.sum, self.distribution.entropy)

    def cdf(self, x):
        return self._reduce(prod.prod, self.distribution.cdf(x))

    def icdf(self, x):
        """Raises :class:`RuntimeError`: a multivariate CDF has no inverse.
        """
        raise RuntimeError(
            'Cumulative distribution function for multivariate variable '
            'is not invertible.')

    def log_cdf(self, x):
        return self._reduce(sum_mod.sum, self.distribution.log_cdf(x))

    def log_prob(self, x):
        return self._reduce(sum_mod.sum, self.distribution.log_prob(x))

    def log_survival_function(self, x):
        return self._reduce(
            sum_mod.sum, self.distribution.log_survival_function(x))

    @property
    def mean(self):
        return self.distribution.mean

    @property
    def mode(self):
        return self.distribution.mode

    @property
    def params(self):
        return self.distribution.params

    def perplexity(self, x):
        return self._reduce(prod.prod, self.distribution.perplexity(x))

    def prob(self, x):
        return self._reduce(prod.prod, self.distribution.prob(x))

    def sample_n(self, n):
        return self.distribution.sample_n(n)

    @property
    def stddev(self):
        return self.distribution.stddev

    @property
    def support(self):
        return self.distribution.support

    def survival_function(self, x):
        return self._reduce(prod.prod, self.distribution.survival_function(x))

    @property
    def variance(self):
        return self.distribution.variance

    @property
    def xp(self):
        return self.distribution.xp

    def _reduce(self, op, stat):
        axes = tuple(range(-self.reinterpreted_batch_ndims, 0))
        return op(stat, axis=axes)


@_distribution.register_kl(Independent, Independent)
def _kl_independent_independent(dist1, dist2):
    """KL divergence of two Independent distributions.

    The divergence of products of independent factors is the sum of the
    divergences of the factors, taken over the reinterpreted axes.

    Raises:
        ValueError: If the event shapes differ.
        NotImplementedError: If the base distributions have different event
            shapes.
    """
    p, q = dist1.distribution, dist2.distribution
    if dist1.event_shape != dist2.event_shape:
        raise ValueError('Event shapes do not match.')
    if p.event_shape != q.event_shape:
        raise NotImplementedError(
            'KL between Independents with different '
            'event shapes not supported.')
    n_axes = len(dist1.event_shape) - len(p.event_shape)
    axes = tuple(-i - 1 for i in range(n_axes))
    return sum_mod.sum(_distribution.kl_divergence(p, q), axis=axes)
