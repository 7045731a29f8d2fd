import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.functions.math import exponential
from chainer.functions.math import sum as sum_mod
from chainer.utils import cache


def _random_choice(xp, n_classes, size, p):
    """Draws class indices; ``p`` off 1 by rounding only is renormalised.

    NumPy rejects probabilities whose sum is not 1 to its float64 tolerance,
    which float32 parameters may miss; as Chainer does, they are accepted
    if they sum to 1 within the square root of their epsilon, and drawn
    again after normalisation.
    """
    try:
        return xp.random.choice(n_classes, size, p=p)
    except ValueError:
        tolerance = xp.finfo(p.dtype).eps ** 0.5
        p = p.astype(xp.float64)
        xp.testing.assert_allclose(p.sum(), 1, rtol=0, atol=tolerance)
        return xp.random.choice(n_classes, size, p=p / p.sum())


class OneHotCategorical(_distribution.Distribution):

    """Categorical distribution whose values are one-hot vectors.

    The last axis of ``p`` is the event axis: a sample is ``e_i`` (the
    ``i``-th unit vector) with probability ``p_i``.

    Args:
        p (:class:`~chainer.Variable` or :ref:`ndarray`): Probabilities.
    """

    def __init__(self, p):
        self.__p = p

    @cache.cached_property
    def p(self):
        """~chainer.Variable: The probabilities of the categories (last axis).
        """
        return chainer.as_variable(self.__p)

    @cache.cached_property
    def log_p(self):
        """~chainer.Variable: The logarithms of :attr:`p`."""
        return exponential.log(self.p)

    @property
    def batch_shape(self):
        return self.p.shape[:-1]

    @property
    def event_shape(self):
        return self.p.shape[-1:]

    def log_prob(self, x):
        return sum_mod.sum(self.log_p * x, axis=-1)

    @cache.cached_property
    def mean(self):
        return self.p

    @property
    def params(self):
        return {'p': self.p}

    def sample_n(self, n):
        xp = backend.get_array_module(self.p)
        n_classes, = self.event_shape
        rows = self.p.array.reshape(-1, n_classes)
        indices = xp.stack(
            [_random_choice(xp, n_classes, (n,), row) for row in rows],
            axis=1)
        indices = indices.reshape((n,) + self.batch_shape)
        return chainer.Variable(xp.eye(n_classes, dtype=self.p.dtype)[indices])

    @cache.cached_property
    def variance(self):
        return self.p * (1. - self.p)


@_distribution.register_kl(OneHotCategorical, OneHotCategorical)
def _kl_one_hot_categorical_one_hot_categorical(dist1, dist2):
    return sum_mod.sum(dist1.p * (dist1.log_p - dist2.log_p), axis=-1)
