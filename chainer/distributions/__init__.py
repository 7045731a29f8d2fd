"""Probability distributions whose statistics and samples are
differentiable with respect to their parameters.

Each distribution is a :class:`~chainer.Distribution`;
:func:`~chainer.kl_divergence` and :func:`~chainer.cross_entropy` work for
the pairs registered with :func:`~chainer.register_kl` (each distribution
with itself here). Samples are drawn from the global random generator of
NumPy (or CuPy), so ``numpy.random.seed`` makes them reproducible.
"""

from chainer.distributions.bernoulli import Bernoulli  # NOQA
from chainer.distributions.beta import Beta  # NOQA
from chainer.distributions.categorical import Categorical  # NOQA
from chainer.distributions.cauchy import Cauchy  # NOQA
from chainer.distributions.chisquare import Chisquare  # NOQA
from chainer.distributions.dirichlet import Dirichlet  # NOQA
from chainer.distributions.exponential import Exponential  # NOQA
from chainer.distributions.gamma import Gamma  # NOQA
from chainer.distributions.geometric import Geometric  # NOQA
from chainer.distributions.gumbel import Gumbel  # NOQA
from chainer.distributions.independent import Independent  # NOQA
from chainer.distributions.laplace import Laplace  # NOQA
from chainer.distributions.log_normal import LogNormal  # NOQA
from chainer.distributions.multivariate_normal import MultivariateNormal  # NOQA
from chainer.distributions.normal import Normal  # NOQA
from chainer.distributions.one_hot_categorical import OneHotCategorical  # NOQA
from chainer.distributions.pareto import Pareto  # NOQA
from chainer.distributions.poisson import Poisson  # NOQA
from chainer.distributions.uniform import Uniform  # NOQA
