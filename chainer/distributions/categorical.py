import numpy

import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.distributions import utils as dist_utils
from chainer.functions.activation import log_softmax
from chainer.functions.math import exponential
from chainer.functions.math import sum as sum_mod
from chainer.utils import argument
from chainer.utils import cache


class Categorical(_distribution.Distribution):

    """Categorical distribution over ``{0, ..., K-1}``, ``P(x = i) = p_i``.

    The last axis of the parameter holds the ``K`` classes.

    Args:
        p (:class:`~chainer.Variable` or :ref:`ndarray`): Probabilities.
            Give either ``p`` or ``logit``, not both.
        logit (:class:`~chainer.Variable` or :ref:`ndarray`): Unnormalised
            log-probabilities, ``log(p) + C``.
    """

    def __init__(self, p=None, **kwargs):
        logit, = argument.parse_kwargs(kwargs, ('logit', None))
        if (p is None) == (logit is None):
            raise ValueError(
                'Either `p` or `logit` (not both) must have a value.')
        self.__p = p
        self.__logit = logit

    @cache.cached_property
    def p(self):
        """~chainer.Variable: The probabilities of the categories (last axis),
        computed from ``logit`` when only that was given."""
        if self.__p is None:
            return exponential.exp(self.log_p)
        return chainer.as_variable(self.__p)

    @cache.cached_property
    def log_p(self):
        """~chainer.Variable: The log-probabilities of the categories:
        ``log(p)``, or the log-softmax of ``logit`` when that was given."""
        if self.__p is None:
            return log_softmax.log_softmax(self.__logit, axis=-1)
        return exponential.log(self.__p)

    @property
    def batch_shape(self):
        return self.p.shape[:-1]

    @property
    def event_shape(self):
        return ()

    @cache.cached_property
    def entropy(self):
        return - sum_mod.sum(dist_utils._modified_xlogx(self.p), axis=-1)

    def log_prob(self, x):
        if isinstance(x, chainer.Variable):
            x = x.array
        batch_index = numpy.meshgrid(
            *(range(size) for size in self.batch_shape), indexing='ij')
        return self.log_p[tuple(batch_index) + (x.astype(numpy.int32),)]

    @property
    def params(self):
        return {'p': self.p}

    def sample_n(self, n):
        xp = backend.get_array_module(self.p)
        n_classes = self.p.shape[-1]
        rows = self.p.array.reshape(-1, n_classes)
        eps = [xp.random.choice(n_classes, size=(n,), p=row) for row in rows]
        eps = xp.vstack(eps).T.reshape((n,) + self.batch_shape)
        return chainer.Variable(eps)


@_distribution.register_kl(Categorical, Categorical)
def _kl_categorical_categorical(dist1, dist2):
    return sum_mod.sum(dist1.p * (dist1.log_p - dist2.log_p), axis=-1)
