import importlib.util
import math

import numpy

import chainer
from chainer import backend
from chainer import distribution as _distribution
from chainer.distributions import utils as dist_utils
from chainer.functions.array import broadcast
from chainer.functions.array import diagonal
from chainer.functions.array import squeeze
from chainer.functions.array import swapaxes
from chainer.functions.array import where
from chainer.functions.math import exponential
from chainer.functions.math import matmul
from chainer.functions.math import sum as sum_mod
from chainer import function_node
from chainer.utils import argument
from chainer.utils import cache
from chainer.utils import type_check


#: Entropy of the standard normal, ``log(2 pi e) / 2``.
ENTROPYC = 0.5 * math.log(2 * math.pi * math.e)
#: Log-density of the standard normal at 0, ``-log(2 pi) / 2``.
LOGPROBC = - 0.5 * math.log(2 * math.pi)


def __getattr__(name):
    # ``available_cpu`` says whether SciPy, which the CPU forward of
    # TriangularInv needs, is installed; it is looked up without importing
    # SciPy, which is slow to import.
    if name == 'available_cpu':
        return importlib.util.find_spec('scipy') is not None
    raise AttributeError(
        'module {!r} has no attribute {!r}'.format(__name__, name))


def _solve_triangular_cpu():
    try:
        from scipy import linalg
    except ImportError as e:
        raise ImportError(
            'SciPy is not available. Forward computation of triangular_inv '
            'in CPU cannot be done without it; install SciPy '
            '(pip install scipy).') from e
    return linalg.solve_triangular


class TriangularInv(function_node.FunctionNode):

    """Inverse of triangular matrices (in the last two axes).

    The gradient ``-A^-T gy A^-T`` is kept to the triangle of ``A``.

    Args:
        lower (bool): Whether the matrices are lower (else upper)
            triangular.
    """

    def __init__(self, lower):
        self._lower = lower

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a',))
        a_type, = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            a_type.ndim >= 2,
            a_type.shape[-2] == a_type.shape[-1],
        )

    def forward(self, inputs):
        self.retain_outputs((0,))
        a, = inputs
        xp = backend.get_array_module(a)
        if xp is numpy:
            solve = _solve_triangular_cpu()
        else:
            from cupyx.scipy import linalg
            solve = linalg.solve_triangular
        d = a.shape[-1]
        inv = xp.empty_like(a)
        if d == 0:
            return inv,
        eye = xp.eye(d, dtype=a.dtype)
        for index in numpy.ndindex(a.shape[:-2]):
            inv[index] = solve(a[index], eye, lower=self._lower)
        return inv,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        inv, = self.get_retained_outputs()
        xp = backend.get_array_module(gy)
        d = inv.shape[-1]
        triangle = xp.tri(d, dtype=bool)
        if not self._lower:
            triangle = triangle.T
        inv_t = swapaxes.swapaxes(inv, -1, -2)
        ga = -matmul.matmul(matmul.matmul(inv_t, gy), inv_t)
        triangle = xp.broadcast_to(triangle, ga.shape)
        return where.where(triangle, ga, xp.zeros_like(ga.array)),


def _triangular_inv(x, lower=True):
    """Inverse of triangular matrices, differentiably."""
    y, = TriangularInv(lower).apply((x,))
    return y


def _triangular_logdet(x):
    """``log |det x|`` of triangular matrices, from their diagonals."""
    diag = diagonal.diagonal(x, axis1=-2, axis2=-1)
    return sum_mod.sum(exponential.log(abs(diag)), axis=-1)


class MultivariateNormal(_distribution.Distribution):

    """Multivariate normal distribution of mean ``loc`` and covariance
    ``L L^T``.

    ``p(x) = exp(-(x - mu)^T V^-1 (x - mu) / 2) / sqrt(det(2 pi V))``; the
    last axis of ``loc`` is the event axis. Samples are differentiable with
    respect to both parameters.

    Args:
        loc (:class:`~chainer.Variable` or :ref:`ndarray`): Mean ``mu``, of
            shape ``batch_shape + (d,)``.
        scale_tril (:class:`~chainer.Variable` or :ref:`ndarray`): Lower
            triangular ``L`` with ``V = L L^T`` (the Cholesky factor of the
            covariance), of shape ``batch_shape + (d, d)``. Required.
    """

    def __init__(self, loc, **kwargs):
        scale_tril, = argument.parse_kwargs(kwargs, ('scale_tril', None))
        if scale_tril is None:
            raise ValueError('`scale_tril` must have a value.')
        self.__loc = loc
        self.__scale_tril = scale_tril

    @cache.cached_property
    def loc(self):
        """~chainer.Variable: The mean, of shape ``batch_shape + (d,)``."""
        return chainer.as_variable(self.__loc)

    @cache.cached_property
    def scale_tril(self):
        """~chainer.Variable: The lower triangular Cholesky factor ``L`` of the
        covariance ``L L^T``, of shape ``batch_shape + (d, d)``."""
        return chainer.as_variable(self.__scale_tril)

    @cache.cached_property
    def _logdet_scale(self):
        return _triangular_logdet(self.scale_tril)

    @cache.cached_property
    def _scale_tril_inv(self):
        return _triangular_inv(self.scale_tril)

    @property
    def d(self):
        """int: Size of the event."""
        return self.scale_tril.shape[-1]

    def __copy__(self):
        return self._copy_to(MultivariateNormal(
            self.loc, scale_tril=self.scale_tril))

    @property
    def batch_shape(self):
        return self.loc.shape[:-1]

    @property
    def event_shape(self):
        return self.loc.shape[-1:]

    @property
    def covariance(self):
        return matmul.matmul(
            self.scale_tril, swapaxes.swapaxes(self.scale_tril, -1, -2))

    @cache.cached_property
    def entropy(self):
        return self._logdet_scale + ENTROPYC * self.d

    def log_prob(self, x):
        x = chainer.as_variable(x)
        shape = x.shape
        diff = x - broadcast.broadcast_to(self.loc, shape)
        inv = broadcast.broadcast_to(self._scale_tril_inv, shape + (self.d,))
        whitened = matmul.matmul(inv, diff.reshape(shape + (1,)))
        mahalanobis = squeeze.squeeze(
            matmul.matmul(swapaxes.swapaxes(whitened, -1, -2), whitened),
            axis=(-2, -1))
        log_z = LOGPROBC * self.d - self._logdet_scale
        return broadcast.broadcast_to(log_z, shape[:-1]) - 0.5 * mahalanobis

    @cache.cached_property
    def mean(self):
        return self.loc

    @property
    def params(self):
        return {'loc': self.loc, 'scale_tril': self.scale_tril}

    def sample_n(self, n):
        xp = backend.get_array_module(self.loc)
        # Chainer draws the CPU noise in float32 whatever the dtype.
        dtype = numpy.float32 if xp is numpy else self.loc.dtype
        eps = dist_utils._random_array(
            xp, 'standard_normal', (n,) + self.loc.shape + (1,), dtype)
        return self.loc + squeeze.squeeze(
            matmul.matmul(self.scale_tril, eps), axis=-1)

    @property
    def support(self):
        return 'real'


@_distribution.register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariatenormal_multivariatenormal(dist1, dist2):
    inv2 = dist2._scale_tril_inv
    trace = sum_mod.sum(
        matmul.matmul(inv2, dist1.scale_tril) ** 2, axis=(-2, -1))
    diff = dist1.loc - dist2.loc
    whitened = matmul.matmul(inv2, diff.reshape(diff.shape + (1,)))
    mahalanobis = sum_mod.sum(whitened ** 2, axis=(-2, -1))
    return (dist2._logdet_scale - dist1._logdet_scale
            + 0.5 * trace + 0.5 * mahalanobis - 0.5 * dist1.d)
