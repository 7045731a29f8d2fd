import numpy

from chainer import backend
from chainer.functions.array import broadcast
from chainer.functions.array import reshape
from chainer.functions.array import transpose
from chainer.functions.math import matmul
from chainer.functions.math import sum as sum_module
from chainer import function_node
from chainer.utils import argument
from chainer.utils import type_check


def _compute_dtype(dtype):
    # float16 is not supported by eigh and too coarse for the covariance.
    return numpy.promote_types(dtype, numpy.float32)


def _to_groups(x, groups, dtype):
    # (b, c, ...) -> (groups, c // groups, b * prod(...)), a new C-contiguous
    # array of the given dtype whose last axis runs over the batch and the
    # spatial positions.
    b, c = x.shape[:2]
    view = x.reshape(b, groups, c // groups, -1).transpose(1, 2, 0, 3)
    return view.astype(dtype, order='C').reshape(groups, c // groups, -1)


def _from_groups(y, shape):
    # The inverse of _to_groups, as a view of y.
    spatial_axes = tuple(range(2, len(shape)))
    return y.reshape((shape[1], shape[0]) + shape[2:]).transpose(
        (1, 0) + spatial_axes)


def _to_groups_var(x, groups):
    # _to_groups on a variable, differentiably.
    b, c = x.shape[:2]
    x = reshape.reshape(x, (b, groups, c // groups, -1))
    x = transpose.transpose(x, (1, 2, 0, 3))
    return reshape.reshape(x, (groups, c // groups, -1))


def _from_groups_var(y, shape):
    g, C = y.shape[:2]
    y = reshape.reshape(y, (g, C, shape[0], -1))
    y = transpose.transpose(y, (2, 0, 1, 3))
    return reshape.reshape(y, shape)


def _check_input(x_type, groups):
    type_check.expect(
        x_type.dtype.kind == 'f',
        x_type.ndim >= 2,
    )
    type_check.expect(x_type.shape[1] % groups == 0)


class DecorrelatedBatchNormalization(function_node.FunctionNode):

    """Decorrelated batch normalization (ZCA whitening of channel groups).

    The channels are split into ``groups``; each group is centered and
    multiplied by the inverse square root of its covariance matrix (plus
    ``eps`` times the identity). When given, ``mean`` and ``projection``
    (the running statistics) are updated in place.
    """

    def __init__(self, groups=16, eps=2e-5, mean=None, projection=None,
                 decay=0.9):
        self.groups = groups
        self.running_mean = mean
        self.running_projection = projection
        self.eps = eps
        self.decay = decay
        self.axis = None

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        _check_input(in_types[0], self.groups)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        dtype = _compute_dtype(x.dtype)
        groups = self.groups
        C = x.shape[1] // groups

        x_c = _to_groups(x, groups, dtype)
        m = x_c.shape[2]
        mean = x_c.mean(axis=2, keepdims=True)
        x_c -= mean
        cov = xp.matmul(x_c, x_c.transpose(0, 2, 1))
        cov *= dtype.type(1. / m)
        cov += self.eps * xp.eye(C, dtype=dtype)
        eigvals, eigvectors = xp.linalg.eigh(cov)
        # The projection V diag(eigvals ** -0.5) V^T whitens x_c.
        projection = xp.matmul(
            eigvectors * (eigvals ** -0.5)[:, None, :],
            eigvectors.transpose(0, 2, 1))
        y = xp.matmul(projection, x_c)
        y = _from_groups(y.astype(x.dtype, copy=False), x.shape)

        self.mean = mean[:, :, 0]
        self.eigvals = eigvals
        self.eigvectors = eigvectors
        decay = self.decay
        if self.running_mean is not None:
            self.running_mean *= decay
            self.running_mean += (1 - decay) * self.mean
        if self.running_projection is not None:
            adjust = m / max(m - 1., 1.)  # unbiased estimation
            self.running_projection *= decay
            self.running_projection += (1 - decay) * adjust * projection
        return y,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        f = DecorrelatedBatchNormalizationGrad(
            self.groups, x.array, self.mean, self.eigvals, self.eigvectors)
        return f.apply(grad_outputs)


class DecorrelatedBatchNormalizationGrad(function_node.FunctionNode):

    """Gradient of :class:`DecorrelatedBatchNormalization` with respect to
    its input, for the statistics of the forward pass."""

    def __init__(self, groups, x, mean, eigvals, eigvectors):
        self.groups = groups
        self.x = x
        self.mean = mean
        self.eigvals = eigvals
        self.eigvectors = eigvectors

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        x = self.x
        self.x = None
        dtype = self.eigvals.dtype
        v = self.eigvectors
        vt = v.transpose(0, 2, 1)
        s = xp.sqrt(self.eigvals)

        # With y = W x_c, W = cov ** -0.5 = V diag(1 / s) V^T, and
        # cov = x_c x_c^T / m + eps I:
        #   gx = W center(gy) + (2 / m) K x_c,
        # where K = dL/dcov = V (F o sym(V^T gy x_c^T V)) V^T and, by the
        # derivative of the inverse square root on the eigenvalues,
        # F_ij = -1 / (s_i s_j (s_i + s_j)).
        g = _to_groups(gy, self.groups, dtype)
        x_c = _to_groups(x, self.groups, dtype)
        x_c -= self.mean[:, :, None]
        m = x_c.shape[2]
        h = xp.matmul(vt, xp.matmul(xp.matmul(g, x_c.transpose(0, 2, 1)), v))
        h += h.transpose(0, 2, 1)
        h *= dtype.type(1. / m)  # (2 / m) sym(.)
        h /= -(s[:, :, None] * s[:, None, :] * (s[:, :, None] + s[:, None, :]))
        k = xp.matmul(xp.matmul(v, h), vt)
        g -= g.mean(axis=2, keepdims=True)
        w = xp.matmul(v / s[:, None, :], vt)
        gx = xp.matmul(w, g)
        gx += xp.matmul(k, x_c)
        return _from_groups(gx.astype(gy.dtype, copy=False), gy.shape),

    def backward(self, indexes, grad_outputs):
        raise NotImplementedError(
            'Double backward is not implemented for'
            ' decorrelated batch normalization.')


class FixedDecorrelatedBatchNormalization(function_node.FunctionNode):

    """Decorrelated batch normalization with given ``mean`` and
    ``projection``."""

    def __init__(self, groups):
        self.groups = groups

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'mean', 'projection'))
        x_type, mean_type, projection_type = in_types
        _check_input(x_type, self.groups)
        C = type_check.eval(x_type.shape[1]) // self.groups
        groups = type_check.make_variable(self.groups, 'groups')
        channels = type_check.make_variable(C, 'channels // groups')
        type_check.expect(
            mean_type.dtype == x_type.dtype,
            projection_type.dtype == x_type.dtype,
            mean_type.ndim == 2,
            projection_type.ndim == 3,
        )
        type_check.expect(
            mean_type.shape[0] == groups,
            mean_type.shape[1] == channels,
            projection_type.shape[0] == groups,
            projection_type.shape[1] == channels,
            projection_type.shape[2] == channels,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x, mean, projection = inputs
        xp = backend.get_array_module(x)
        x_c = _to_groups(x, self.groups, x.dtype)
        x_c -= mean[:, :, None]
        y = xp.matmul(projection, x_c)
        return _from_groups(y, x.shape),

    def backward(self, indexes, grad_outputs):
        x, mean, projection = self.get_retained_inputs()
        f = FixedDecorrelatedBatchNormalizationGrad(self.groups)
        return f.apply((x, mean, projection, grad_outputs[0]))


class FixedDecorrelatedBatchNormalizationGrad(function_node.FunctionNode):

    """Gradients of :class:`FixedDecorrelatedBatchNormalization`:
    ``(x, mean, projection, gy)`` to ``(gx, gmean, gprojection)``."""

    def __init__(self, groups):
        self.groups = groups

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2, 3))
        x, mean, projection, gy = inputs
        xp = backend.get_array_module(x)
        g = _to_groups(gy, self.groups, gy.dtype)
        gx = xp.matmul(projection.transpose(0, 2, 1), g)
        gmean = -gx.sum(axis=2)
        x_c = _to_groups(x, self.groups, x.dtype)
        x_c -= mean[:, :, None]
        gprojection = xp.matmul(g, x_c.transpose(0, 2, 1))
        return _from_groups(gx, x.shape), gmean, gprojection

    def backward(self, indexes, grad_outputs):
        x, mean, projection, gy = self.get_retained_inputs()
        ggx, ggmean, ggprojection = grad_outputs
        groups = self.groups
        g = _to_groups_var(gy, groups)
        shape = g.shape

        # The loss sum(a gx) + sum(b gmean) + sum(c gprojection) is
        # <P^T G, A - b> + <c, G x_c^T> in the group layout.
        a_b = None
        if ggx is not None:
            a_b = _to_groups_var(ggx, groups)
        if ggmean is not None:
            b = broadcast.broadcast_to(
                reshape.reshape(ggmean, shape[:2] + (1,)), shape)
            a_b = -b if a_b is None else a_b - b
        g_x = g_mean = g_projection = g_gy = None
        if a_b is not None:
            g_gy = matmul.matmul(projection, a_b)
            g_projection = matmul.matmul(g, a_b, transb=True)
        if ggprojection is not None:
            x_c = _to_groups_var(x, groups) - broadcast.broadcast_to(
                reshape.reshape(mean, shape[:2] + (1,)), shape)
            cg = matmul.matmul(ggprojection, x_c)
            g_gy = cg if g_gy is None else g_gy + cg
            g_xc = matmul.matmul(ggprojection, g, transa=True)
            g_x = _from_groups_var(g_xc, x.shape)
            g_mean = -sum_module.sum(g_xc, axis=2)
        if g_gy is not None:
            g_gy = _from_groups_var(g_gy, gy.shape)
        return g_x, g_mean, g_projection, g_gy


def decorrelated_batch_normalization(x, **kwargs):
    """decorrelated_batch_normalization(x, *, groups=16, eps=2e-5, \
running_mean=None, running_projection=None, decay=0.9)

    Decorrelated batch normalization function.

    Normalizes ``x`` with the statistics of the batch so that the output
    is zero-mean and decorrelated: the channels are split into ``groups``
    groups, and each group is centered and whitened (ZCA) by the inverse
    square root of its covariance matrix over the batch and spatial
    positions.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            shape ``(N, C, ...)``; ``C`` must be divisible by ``groups``.
        groups (int): Number of groups to whiten separately.
        eps (float): Added to the diagonal of the covariance matrices for
            numerical stability.
        running_mean (:ref:`ndarray`): Running average of the mean, of
            shape ``(groups, C // groups)``, updated in place; ``None`` to
            keep no average.
        running_projection (:ref:`ndarray`): Running average of the
            whitening matrices, of shape
            ``(groups, C // groups, C // groups)``, updated in place;
            ``None`` to keep no average.
        decay (float): Decay rate of the running averages.

    Returns:
        ~chainer.Variable: The result, shaped like ``x``.

    See: `Decorrelated Batch Normalization
    <https://arxiv.org/abs/1804.08450>`_

    .. seealso:: :class:`~chainer.links.DecorrelatedBatchNormalization`

    """
    groups, eps, running_mean, running_projection, decay = \
        argument.parse_kwargs(
            kwargs, ('groups', 16), ('eps', 2e-5), ('running_mean', None),
            ('running_projection', None), ('decay', 0.9))
    f = DecorrelatedBatchNormalization(
        groups, eps, running_mean, running_projection, decay)
    return f.apply((x,))[0]


def fixed_decorrelated_batch_normalization(x, mean, projection, groups=16):
    """Decorrelated batch normalization that uses the statistics given.

    Normalizes ``x`` with given statistics instead of those of the batch,
    as in the test mode of
    :class:`~chainer.links.DecorrelatedBatchNormalization`: each group of
    channels is centered by ``mean`` and multiplied by ``projection``.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            shape ``(N, C, ...)``; ``C`` must be divisible by ``groups``.
        mean (:class:`~chainer.Variable` or :ref:`ndarray`): Mean of shape
            ``(groups, C // groups)``.
        projection (:class:`~chainer.Variable` or :ref:`ndarray`):
            Whitening matrices of shape
            ``(groups, C // groups, C // groups)``.
        groups (int): Number of groups.

    Returns:
        ~chainer.Variable: The result, shaped like ``x``.

    .. seealso::

        :func:`~chainer.functions.decorrelated_batch_normalization`,
        :class:`~chainer.links.DecorrelatedBatchNormalization`

    """
    f = FixedDecorrelatedBatchNormalization(groups)
    return f.apply((x, mean, projection))[0]
