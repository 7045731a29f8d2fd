import numpy

import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.distributions import utils as dist_utils
from chainer.functions.activation import sigmoid
from chainer.functions.array import where
from chainer.functions.math import exponential
from chainer.functions.math import logarithm_1p
from chainer.functions.math import sum as sum_mod
from chainer import function_node
from chainer import utils
from chainer.utils import cache


class BernoulliLogProb(function_node.FunctionNode):

    """Log-probability of ``x`` under a Bernoulli of logit ``l``.

    ``log p(x) = l (x - 1) - log(1 + exp(-l))``; at ``l = +inf`` it is
    ``log(x)`` and at ``l = -inf`` ``log(1 - x)``. With ``binary_check``,
    an ``x`` other than 0 or 1 has log-probability ``-inf``. The gradient
    flows to the logit only (NaN where the logit is infinite or ``x`` is
    rejected).
    """

    def __init__(self, binary_check=False):
        self.binary_check = binary_check

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        logit, x = inputs
        xp = backend.get_array_module(x)
        y = utils.force_array(logit * (x - 1) - xp.log(xp.exp(-logit) + 1))
        infinite = xp.isinf(logit)
        self._logit_is_pinf = infinite & (logit > 0)
        self._logit_is_minf = infinite & (logit <= 0)
        with numpy.errstate(divide='ignore', invalid='raise'):
            y = xp.where(self._logit_is_pinf, xp.log(x), y)
            y = xp.where(self._logit_is_minf, xp.log(1 - x), y)
        if self.binary_check:
            self._invalid = utils.force_array((x != 0) & (x != 1))
            y[self._invalid] = -xp.inf
        return utils.force_array(y, logit.dtype),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        logit, x = self.get_retained_inputs()
        xp = backend.get_array_module(x)
        glogit = x - sigmoid.sigmoid(logit)
        nan = xp.array(xp.nan, glogit.dtype)
        undefined = self._logit_is_pinf | self._logit_is_minf
        if self.binary_check:
            undefined = undefined | self._invalid
        glogit = where.where(undefined, nan, glogit)
        return sum_mod.sum_to(gy * glogit, logit.shape), None


def _bernoulli_log_prob(logit, x, binary_check=False):
    y, = BernoulliLogProb(binary_check).apply((logit, x))
    return y


class Bernoulli(_distribution.Distribution):

    """Bernoulli distribution, ``P(x = 1) = p``, ``P(x = 0) = 1 - p``.

    Args:
        p (:class:`~chainer.Variable` or :ref:`ndarray`): Probability of
            ``1``. Give either ``p`` or ``logit``, not both.
        logit (:class:`~chainer.Variable` or :ref:`ndarray`):
            ``log(p / (1 - p))``.
        binary_check (bool): If ``True``, :meth:`log_prob` and :meth:`prob`
            give ``-inf`` and ``0`` to values other than 0 and 1.
    """

    def __init__(self, p=None, logit=None, binary_check=False):
        if (p is None) == (logit is None):
            raise ValueError(
                'Either `p` or `logit` (not both) must have a value.')
        self.__p = p
        self.__logit = logit
        self.binary_check = binary_check

    @cache.cached_property
    def p(self):
        """~chainer.Variable: The probability of ``1``, computed from ``logit``
        when only that was given."""
        if self.__p is None:
            return sigmoid.sigmoid(self.logit)
        return chainer.as_variable(self.__p)

    @cache.cached_property
    def logit(self):
        """~chainer.Variable: The log-odds ``log(p / (1 - p))``, computed from
        ``p`` when only that was given."""
        if self.__logit is None:
            return exponential.log(self.p) - logarithm_1p.log1p(-self.p)
        return chainer.as_variable(self.__logit)

    @property
    def batch_shape(self):
        return self.p.shape

    @property
    def event_shape(self):
        return ()

    @property
    def entropy(self):
        p = self.p
        q = p.dtype.type(1) - p
        return (- dist_utils._modified_xlogx(p)
                - dist_utils._modified_xlogx(q))

    def log_prob(self, x):
        return _bernoulli_log_prob(self.logit, x, self.binary_check)

    @cache.cached_property
    def mean(self):
        return self.p

    @property
    def params(self):
        return {'logit': self.logit}

    def prob(self, x):
        x = chainer.as_variable(x)
        prob = x * self.p + (1 - x) * (1 - self.p)
        if self.binary_check:
            prob *= (x.array == 0) | (x.array == 1)
        return prob

    def sample_n(self, n):
        xp = backend.get_array_module(self.p)
        p = self.p.array
        return chainer.Variable(xp.random.binomial(1, p, size=(n,) + p.shape))

    @cache.cached_property
    def stddev(self):
        return self.variance ** 0.5

    @property
    def support(self):
        return '{0, 1}'

    @cache.cached_property
    def variance(self):
        return self.p * (1 - self.p)


@_distribution.register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(dist1, dist2):
    return (
        (dist1.logit - dist2.logit) * (dist1.p - 1.)
        - exponential.log(exponential.exp(-dist1.logit) + 1)
        + exponential.log(exponential.exp(-dist2.logit) + 1))
