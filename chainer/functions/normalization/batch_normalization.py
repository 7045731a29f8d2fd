import collections.abc
import warnings

import numpy

from chainer import _kernels
from chainer import backend
from chainer.backends import cuda
from chainer.functions.array import broadcast
from chainer.functions.array import cast as cast_module
from chainer.functions.math import sum as sum_module
from chainer.functions.normalization import _standardize
from chainer import function_node
from chainer import memory_layouts
from chainer import utils
from chainer.utils import argument
from chainer.utils import type_check


def _normalize_axis(axis):
    # The `axis` argument as a tuple (or None); unsorted axes are an error.
    if isinstance(axis, collections.abc.Sequence):
        for i in range(1, len(axis)):
            if axis[i - 1] >= axis[i]:
                raise RuntimeError(
                    'numbers in axis must be sorted in ascending order')
        return tuple(axis)
    if isinstance(axis, int):
        return axis,
    if axis is not None:
        raise RuntimeError('axis must be int, tuple of int or None')
    return None


def _compute_axis(x_ndim, gamma_ndim, axis):
    # The axes to aggregate over: by default the first one and those after
    # the channel axes.
    if axis is not None:
        return axis
    return (0,) + tuple(range(gamma_ndim + 1, x_ndim))


def _stat_shape(x_shape, axis):
    # The shape of the statistics with kept dims: x's shape, 1 along axis.
    return tuple([1 if i in axis else n for i, n in enumerate(x_shape)])


def _compute_dtype(x_dtype, gamma_dtype):
    # Statistics and intermediates are at least float32, as float16 sums
    # lose too much.
    return numpy.promote_types(
        numpy.promote_types(x_dtype, gamma_dtype), numpy.float32)


def _check_channel_shape(x_type, gamma_type, axis):
    x_ndim = type_check.eval(x_type.ndim)
    gamma_ndim = type_check.eval(gamma_type.ndim)
    axis = _compute_axis(x_ndim, gamma_ndim, axis)
    type_check.expect(x_type.ndim >= len(axis))
    if axis:
        type_check.expect(
            type_check.make_variable(axis[0], 'axis[0]') >= 0,
            x_type.ndim > axis[-1])
    key_axis = [i for i in range(x_ndim) if i not in axis]
    type_check.expect(gamma_type.ndim == len(key_axis))
    for i, k in enumerate(key_axis):
        type_check.expect(x_type.shape[k] == gamma_type.shape[i])


def _warn_single_sample(x_shape, axis):
    if all(x_shape[i] == 1 for i in axis):
        if 0 in axis:
            warnings.warn(
                'F.batch_normalization got a batch of at most one sample '
                'and outputs zeros for it. Check whether '
                'chainer.config.train is unintentionally True (e.g. during '
                'evaluation); the last batch of a non-repeating iterator '
                'may also be this small.', UserWarning)
        else:
            warnings.warn(
                'F.batch_normalization got an input whose axes of '
                'aggregation all have length one, and outputs zeros for '
                'it.', UserWarning)


def _affine_normalize(x, mean, scale, beta, dtype):
    # (x - mean) * scale + beta, in dtype, as an array of x's dtype; the
    # other operands have kept dims.
    xp = backend.get_array_module(x)
    if xp is numpy:
        y = numpy.subtract(x, mean, dtype=dtype)
        y *= scale
        y += beta
        return y.astype(x.dtype, copy=False)
    return cuda.elementwise(
        'T x, U mean, U scale, U beta', 'T y',
        'y = (x - mean) * scale + beta',
        'chainer_batch_norm_affine')(x, mean, scale, beta.astype(dtype))


def _call_kernel(x, gamma, axis, arrays, run):
    # run(kernels) where the kernels compute this batch normalization:
    # NumPy arrays normalized per channel of axis 1 (the default
    # aggregation), in float32, or in float64 with spatial axes. None
    # elsewhere.
    if (gamma.ndim != 1 or not 2 <= x.ndim <= 5
            or tuple(axis) != (0,) + tuple(range(2, x.ndim))):
        return None
    return _kernels.call(
        arrays, _kernels.FLOATS if x.ndim > 2 else _kernels.FLOAT32, run)


def _contiguous(*arrays):
    return [numpy.ascontiguousarray(a) for a in arrays]


def _in_layout_of_x(func, inputs, compute):
    # compute(inputs) on the inputs in the semantic axis order, its first
    # output returned in the memory layout of x (the first input), which
    # the inputs of that layout (gy for the gradient) share; gamma, beta
    # and the other outputs have the standard layout.
    layouts = func._input_layouts
    x_layout = None if layouts is None else layouts[0]
    if x_layout is None:
        return compute(inputs)
    outputs = compute(tuple([
        memory_layouts._transpose_array(a, layout, None)
        for a, layout in zip(inputs, layouts)]))
    func.output_layouts = (x_layout,) + (None,) * (len(outputs) - 1)
    y = memory_layouts._transpose_array(outputs[0], None, x_layout)
    return (backend.get_array_module(y).ascontiguousarray(y),) + outputs[1:]


def _kernel_args(x, per_channel, gy=None):
    # x as the kernels take it (C-contiguous or channels-last), the
    # per-channel arrays C-contiguous, and gy, if given, in x's layout.
    x = _kernels.plain(x)
    args = [x] + _contiguous(*per_channel)
    if gy is not None:
        args.append(_kernels.in_layout_of(gy, x))
    return args


def _cast(v, dtype):
    if v is None or v.dtype == dtype:
        return v
    return cast_module.cast(v, dtype)


def _add(*terms):
    # Sum of the terms that are not None (None if all are).
    total = None
    for term in terms:
        if term is not None:
            total = term if total is None else total + term
    return total


class GeneralBatchNormalizationImpl:

    """How :class:`BatchNormalization` aggregates over the batch.

    The statistics of the batch and the gradients of ``gamma`` and ``beta``
    are reductions along the axes of aggregation. A subclass may override
    the two methods below to compute them otherwise, e.g. over the batches
    of several processes as ChainerMN does; the ``impl_selector`` argument
    of :class:`BatchNormalization` picks the object.
    """

    def get_mean_and_var(self, axis, gamma, x, xp, interm_dtype):
        """Returns the mean and the biased variance of ``x`` along ``axis``.

        Both have the shape of ``gamma``, in ``interm_dtype``.
        """
        mean = x.mean(axis=axis, dtype=interm_dtype)
        var = x.var(axis=axis, dtype=interm_dtype)
        return mean, var

    def get_ggamma_and_gbeta(self, axis, gamma, gy, x_hat, xp):
        """Returns ``sum(gy)`` and ``sum(gy * x_hat)`` along ``axis``.

        Both have the shape of ``gamma``, in the dtype of ``x_hat``.
        """
        gbeta = gy.sum(axis=axis, dtype=x_hat.dtype)
        ggamma = _standardize.sum_of_products(gy, x_hat, axis)
        return gbeta, ggamma


def _impl_selector(batch_norm_func, inputs):
    return GeneralBatchNormalizationImpl()


_default_get_mean_and_var = GeneralBatchNormalizationImpl.get_mean_and_var
_default_get_ggamma_and_gbeta = (
    GeneralBatchNormalizationImpl.get_ggamma_and_gbeta)


class BatchNormalization(function_node.FunctionNode):

    """Batch normalization with the statistics of the batch.

    The mean and variance of ``x`` along the axes of aggregation normalize
    ``x``, then ``gamma`` scales and ``beta`` shifts it. When given,
    ``mean`` and ``var`` (the running statistics) are updated in place.
    """

    mean = None
    inv_std = None

    def __init__(self, eps=2e-5, mean=None, var=None, decay=0.9, axis=None,
                 impl_selector=_impl_selector):
        self.running_mean = mean
        self.running_var = var
        self.eps = eps
        self.decay = decay
        self.axis = _normalize_axis(axis)
        self._impl_selector = impl_selector

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            gamma_type.dtype.kind == 'f',
            gamma_type.dtype == beta_type.dtype,
            gamma_type.shape == beta_type.shape,
        )
        _check_channel_shape(x_type, gamma_type, self.axis)

    def check_layout_forward(self, inputs):
        # x may have any memory layout (the axes are semantic ones).
        pass

    def forward(self, inputs):
        return _in_layout_of_x(self, inputs, self._forward)

    def _forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        axis = self.axis = _compute_axis(x.ndim, gamma.ndim, self.axis)
        _warn_single_sample(x.shape, axis)
        stat_shape = _stat_shape(x.shape, axis)
        dtype = _compute_dtype(x.dtype, gamma.dtype)

        impl = self._impl = self._impl_selector(self, inputs)
        y_kernel = self._forward_kernel(x, gamma, beta, axis, impl)
        if y_kernel is not None:
            y_kernel, mean, var = y_kernel
            mean = mean.reshape(stat_shape)
            var = var.reshape(stat_shape)
        elif (xp is numpy
                and type(impl).get_mean_and_var is _default_get_mean_and_var):
            # The centered x gives the variance and starts the output.
            mean = x.mean(axis=axis, dtype=dtype, keepdims=True)
            y = numpy.subtract(x, mean, dtype=dtype)
            var = _standardize.sum_of_products(y, y, axis).reshape(stat_shape)
            var *= dtype.type(gamma.size / max(x.size, 1))
        else:
            mean, var = impl.get_mean_and_var(axis, gamma, x, xp, dtype)
            mean = mean.reshape(stat_shape).astype(dtype, copy=False)
            var = var.reshape(stat_shape).astype(dtype, copy=False)
            y = None
        inv_std = var + self.eps
        xp.sqrt(inv_std, out=inv_std)
        xp.reciprocal(inv_std, out=inv_std)
        scale = gamma.reshape(stat_shape) * inv_std
        beta = beta.reshape(stat_shape)
        if y_kernel is not None:
            y = y_kernel
        elif y is None:
            y = _affine_normalize(x, mean, scale, beta, dtype)
        else:
            y *= scale
            y += beta
            y = y.astype(x.dtype, copy=False)

        if self.running_mean is not None or self.running_var is not None:
            self._update_running_statistics(
                mean.reshape(gamma.shape), var.reshape(gamma.shape),
                x.size // gamma.size)
        self.mean = mean
        self.inv_std = inv_std
        return y,

    def _forward_kernel(self, x, gamma, beta, axis, impl):
        # (y, mean, biased var) from the kernel, or None where it does
        # not apply.
        if type(impl).get_mean_and_var is not _default_get_mean_and_var:
            return None
        return _call_kernel(
            x, gamma, axis, (x, gamma, beta),
            lambda k: k.batch_normalization_forward(
                *_kernel_args(x, (gamma, beta)), self.eps))

    def _update_running_statistics(self, mean, var, m):
        decay = self.decay
        running_mean = self.running_mean
        if running_mean is not None:
            running_mean *= decay
            running_mean += (1 - decay) * mean
        running_var = self.running_var
        if running_var is not None:
            adjust = m / max(m - 1., 1.)  # unbiased variance
            running_var *= decay
            running_var += (1 - decay) * adjust * var

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        stats = _standardize.Statistics(self.mean, self.inv_std, self.axis)
        return BatchNormalizationGrad(stats, self._impl).apply(
            (x, gamma, grad_outputs[0]))


def _backward_kernel(x, gamma, gy, stats, global_stats):
    # (gx, ggamma, gbeta) from the kernel for the statistics of the
    # forward pass, or None where it does not apply.
    return _call_kernel(
        x, gamma, stats.axis, (x, gamma, gy, stats.mean, stats.inv_std),
        lambda k: k.batch_normalization_backward(
            *_kernel_args(x, (gamma, stats.mean.ravel(),
                              stats.inv_std.ravel()), gy), global_stats))


class BatchNormalizationGrad(function_node.FunctionNode):

    """Gradients of :class:`BatchNormalization`: ``(x, gamma, gy)`` to
    ``(gx, ggamma, gbeta)``, for the statistics of the forward pass."""

    def __init__(self, stats, impl):
        self.stats = stats
        self._impl = impl

    def check_layout_forward(self, inputs):
        # x and gy share a memory layout.
        pass

    def forward(self, inputs):
        return _in_layout_of_x(self, inputs, self._forward)

    def _forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        self.retain_outputs((0,))
        x, gamma, gy = inputs
        xp = backend.get_array_module(x)
        stats = self.stats
        axis = stats.axis
        stat_shape = stats.mean.shape
        dtype = stats.mean.dtype
        inv_m = dtype.type(gamma.size / max(x.size, 1))
        if type(self._impl).get_ggamma_and_gbeta is \
                _default_get_ggamma_and_gbeta:
            grads = _backward_kernel(x, gamma, gy, stats, False)
            if grads is not None:
                return grads

        x_hat = stats.x_hat(x)
        gbeta, ggamma = self._impl.get_ggamma_and_gbeta(
            axis, gamma, gy, x_hat, xp)
        coeff = gamma.reshape(stat_shape) * stats.inv_std
        if xp is numpy:
            x_hat *= (ggamma * inv_m).reshape(stat_shape)
            x_hat += (gbeta * inv_m).reshape(stat_shape)
            numpy.subtract(gy, x_hat, out=x_hat)
            x_hat *= coeff
            gx = x_hat.astype(x.dtype, copy=False)
        else:
            gx = cuda.elementwise(
                'T gy, U x_hat, U coeff, U ggamma, U gbeta, U inv_m', 'T gx',
                'gx = coeff * (gy - (x_hat * ggamma + gbeta) * inv_m)',
                'chainer_batch_norm_grad')(
                    gy, x_hat, coeff, ggamma.reshape(stat_shape),
                    gbeta.reshape(stat_shape), inv_m).astype(
                        x.dtype, copy=False)
        return (gx, utils.force_array(ggamma, gamma.dtype),
                utils.force_array(gbeta, gamma.dtype))

    def backward(self, indexes, grad_outputs):
        x, gamma, gy = self.get_retained_inputs()
        gx, = self.get_retained_outputs()
        ggx, gggamma, ggbeta = grad_outputs
        stats = self.stats
        dtype = stats.mean.dtype
        stat_shape = stats.mean.shape
        x_c = _cast(x, dtype)
        gy_c = _cast(gy, dtype)

        g_x = g_gamma = g_gy = None
        if ggx is not None:
            ggx_c = _cast(ggx, dtype)
            gamma_e = _standardize.reshape_to(_cast(gamma, dtype), stat_shape)
            # gx = gamma * inv_std * P(gy) is bilinear in gamma and gy, and
            # P is self-adjoint.
            p_ggx = _standardize.standardize_grad(stats, x_c, ggx_c)
            g_gy = p_ggx * gamma_e
            g_gamma = sum_module.sum(gy_c * p_ggx, axis=stats.axis)
            g_x = _standardize.grad_x_of_projection(
                stats, x_c, ggx_c * gamma_e, gy_c,
                stats.mean_of(ggx_c * _cast(gx, dtype)))
        if gggamma is not None:
            gggamma_e = _standardize.reshape_to(
                _cast(gggamma, dtype), stat_shape)
            x_hat, = _standardize.Standardize(stats).apply((x_c,))
            g_gy = _add(g_gy, gggamma_e * x_hat)
            g_x = _add(g_x, _standardize.standardize_grad(
                stats, x_c, gy_c * gggamma_e))
        if ggbeta is not None:
            ggbeta_e = _standardize.reshape_to(
                _cast(ggbeta, dtype), stat_shape)
            if g_gy is None:
                g_gy = broadcast.broadcast_to(ggbeta_e, x.shape)
            else:
                g_gy = g_gy + ggbeta_e
        return (_cast(g_x, x.dtype), _cast(g_gamma, gamma.dtype),
                _cast(g_gy, gy.dtype))


class FixedBatchNormalization(function_node.FunctionNode):

    """Batch normalization with given statistics ``mean`` and ``var``."""

    inv_std = None

    def __init__(self, eps=2e-5, axis=None):
        self.eps = eps
        self.axis = _normalize_axis(axis)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'gamma', 'beta', 'mean', 'var'))
        x_type, gamma_type, beta_type, mean_type, var_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            gamma_type.dtype.kind == 'f',
            beta_type.dtype == gamma_type.dtype,
            mean_type.dtype == gamma_type.dtype,
            var_type.dtype == gamma_type.dtype,
            beta_type.shape == gamma_type.shape,
            mean_type.shape == gamma_type.shape,
            var_type.shape == gamma_type.shape,
        )
        _check_channel_shape(x_type, gamma_type, self.axis)

    def forward(self, inputs):
        self.retain_inputs((0, 1, 3, 4))
        x, gamma, beta, mean, var = inputs
        xp = backend.get_array_module(x)
        axis = self.axis = _compute_axis(x.ndim, gamma.ndim, self.axis)
        stat_shape = _stat_shape(x.shape, axis)
        dtype = _compute_dtype(x.dtype, gamma.dtype)

        inv_std = var.reshape(stat_shape).astype(dtype)
        inv_std += self.eps
        xp.sqrt(inv_std, out=inv_std)
        xp.reciprocal(inv_std, out=inv_std)
        self.inv_std = inv_std
        y = _call_kernel(x, gamma, axis, inputs,
                         lambda k: k.fixed_batch_normalization_forward(
                             *_kernel_args(x, inputs[1:]), self.eps))
        if y is not None:
            return y,
        scale = gamma.reshape(stat_shape) * inv_std
        y = _affine_normalize(
            x, mean.reshape(stat_shape), scale, beta.reshape(stat_shape),
            dtype)
        return y,

    def backward(self, indexes, grad_outputs):
        x, gamma, mean, var = self.get_retained_inputs()
        f = FixedBatchNormalizationGrad(self.eps, self.axis, self.inv_std)
        return f.apply((x, gamma, mean, var, grad_outputs[0]))


class FixedBatchNormalizationGrad(function_node.FunctionNode):

    """Gradients of :class:`FixedBatchNormalization`: ``(x, gamma, mean,
    var, gy)`` to ``(gx, ggamma, gbeta, gmean, gvar)``."""

    def __init__(self, eps, axis, inv_std):
        self.eps = eps
        self.axis = axis
        self.inv_std = inv_std  # with kept dims, in the compute dtype

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2, 3, 4))
        self.retain_outputs((1, 2))
        x, gamma, mean, var, gy = inputs
        inv_std = self.inv_std
        stat_shape = inv_std.shape
        dtype = inv_std.dtype
        axis = self.axis

        grads = _backward_kernel(
            x, gamma, gy, _standardize.Statistics(mean, inv_std, axis), True)
        if grads is None:
            x_hat = backend.get_array_module(x).subtract(
                x, mean.reshape(stat_shape), dtype=dtype)
            x_hat *= inv_std
            gbeta = gy.sum(axis=axis, dtype=dtype)
            ggamma = _standardize.sum_of_products(gy, x_hat, axis)
            del x_hat
        else:
            gx, ggamma, gbeta = grads
        inv_std = inv_std.reshape(gamma.shape)
        gamma_s = gamma * inv_std
        if grads is None:
            gx = (gy * gamma_s.reshape(stat_shape)).astype(
                x.dtype, copy=False)
        gmean = -gamma_s * gbeta
        gvar = -0.5 * gamma_s * inv_std * ggamma
        pdtype = gamma.dtype
        return (gx, utils.force_array(ggamma, pdtype),
                utils.force_array(gbeta, pdtype),
                utils.force_array(gmean, pdtype),
                utils.force_array(gvar, pdtype))

    def backward(self, indexes, grad_outputs):
        x, gamma, mean, var, gy = self.get_retained_inputs()
        ggamma, gbeta = self.get_retained_outputs()
        dtype = self.inv_std.dtype
        stat_shape = self.inv_std.shape
        axis = self.axis
        ggx, gggamma, ggbeta, ggmean, ggvar = [
            _cast(g, dtype) for g in grad_outputs]
        gamma_c, var_c, gy_c, ggamma, gbeta = [
            _cast(v, dtype) for v in (gamma, var, gy, ggamma, gbeta)]

        def expand(v):
            return _standardize.reshape_to(v, stat_shape)

        # Upstream gradients (a, b, c, d, e) of (gx, ggamma, gbeta, gmean,
        # gvar) and s = inv_std make the loss
        #   L = sum(a * gamma * s * gy) + b * ggamma + c * gbeta
        #       - d * gamma * s * gbeta - e * gamma * s**2 * ggamma / 2
        # with ggamma = sum(gy * x_hat), gbeta = sum(gy), x_hat = (x-mean)*s.
        s = (var_c + self.eps) ** -0.5
        gamma_s = gamma_c * s
        # k: the coefficient of ggamma in L, with its s-dependence aside.
        k = _add(
            gggamma, None if ggvar is None else -0.5 * ggvar * gamma_s * s)
        # t: the coefficient of gamma * s in L.
        t = _add(
            None if ggx is None else sum_module.sum(ggx * gy_c, axis=axis),
            None if ggmean is None else -ggmean * gbeta)

        g_gy = g_x = g_mean = g_gamma = g_var = None
        a_minus_d = _add(
            ggx, None if ggmean is None else -expand(ggmean))
        if a_minus_d is not None:
            g_gy = expand(gamma_s) * a_minus_d
        if k is not None:
            x_hat = (_cast(x, dtype) - expand(_cast(mean, dtype))) * expand(s)
            g_gy = _add(g_gy, expand(k) * x_hat)
            ks = k * s
            g_x = expand(ks) * gy_c
            g_mean = -ks * gbeta
        if ggbeta is not None:
            if g_gy is None:
                g_gy = broadcast.broadcast_to(expand(ggbeta), gy.shape)
            else:
                g_gy = g_gy + expand(ggbeta)
        if t is not None:
            g_gamma = s * t
            g_var = gamma_s * t
        if ggvar is not None:
            g_gamma = _add(g_gamma, -0.5 * ggvar * s * s * ggamma)
            g_var = _add(g_var, -1.5 * ggvar * gamma_s * s * ggamma)
        if gggamma is not None:
            g_var = _add(g_var, gggamma * ggamma)
        if g_var is not None:
            g_var = -0.5 * s * s * g_var
        return (_cast(g_x, x.dtype), _cast(g_gamma, gamma.dtype),
                _cast(g_mean, mean.dtype), _cast(g_var, var.dtype),
                _cast(g_gy, gy.dtype))


def batch_normalization(x, gamma, beta, **kwargs):
    """batch_normalization(x, gamma, beta, eps=2e-5, running_mean=None, \
running_var=None, decay=0.9, axis=None)

    Batch normalization function.

    Normalizes ``x`` by the mean and variance of the batch along the axes
    of aggregation, then scales the result by ``gamma`` and shifts it by
    ``beta``:

    .. math::
        y = \\gamma \\frac{x - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} + \\beta.

    ``gamma`` and ``beta`` have the channel shape: the shape of ``x`` along
    the axes that are not aggregated. By default the aggregation axes are
    the first one (the batch) and every axis after the channel axes, so
    that an input of shape ``(N, C, H, W)`` with parameters of shape
    ``(C,)`` is normalized per channel over ``N * H * W`` values.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        gamma (:class:`~chainer.Variable` or :ref:`ndarray`): Per-channel scale
            applied after normalizing.
        beta (:class:`~chainer.Variable` or :ref:`ndarray`): Per-channel offset
            added after scaling.
        eps (float): Added to the variance for numerical stability.
        running_mean (:ref:`ndarray`): Running average of the mean, updated
            in place as ``decay * running_mean + (1 - decay) * mean``, or
            ``None`` to keep no average.
        running_var (:ref:`ndarray`): Running average of the variance,
            updated in place likewise with the unbiased variance of the
            batch, or ``None``.
        decay (float): Decay rate of the running averages.
        axis (int, tuple of int or None): The axes of aggregation, in
            ascending order; ``None`` chooses them from the dimensions of
            ``x`` and ``gamma`` as above. For example, with ``x`` of shape
            ``(N, C, H, W)`` and ``gamma`` of shape ``(C,)`` the axes are
            ``(0, 2, 3)``.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    See: `Batch Normalization: Accelerating Deep Network Training by
    Reducing Internal Covariate Shift <https://arxiv.org/abs/1502.03167>`_

    .. seealso::

        :class:`~chainer.links.BatchNormalization`, which holds the
        parameters and the running statistics.

    .. admonition:: Example

        >>> x = np.arange(12, dtype=np.float32).reshape(4, 3)
        >>> gamma = np.ones(3, np.float32)
        >>> beta = np.zeros(3, np.float32)
        >>> y = F.batch_normalization(x, gamma, beta)
        >>> np.round(y.array[:, 0], 3)
        array([-1.342, -0.447,  0.447,  1.342], dtype=float32)

    """
    eps, running_mean, running_var, decay, axis = argument.parse_kwargs(
        kwargs, ('eps', 2e-5), ('running_mean', None),
        ('running_var', None), ('decay', 0.9), ('axis', None),
        train='train argument is not supported anymore. '
        'Use chainer.using_config')
    return BatchNormalization(eps, running_mean, running_var, decay,
                              axis).apply((x, gamma, beta))[0]


def fixed_batch_normalization(x, gamma, beta, mean, var, eps=2e-5, axis=None):
    """Batch normalization that uses the mean and variance it is given.

    Normalizes ``x`` by given statistics instead of those of the batch, as
    in the test mode of :class:`~chainer.links.BatchNormalization`:

    .. math::
        y = \\gamma \\frac{x - \\mathrm{mean}}{\\sqrt{\\mathrm{var} +
        \\epsilon}} + \\beta.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        gamma (:class:`~chainer.Variable` or :ref:`ndarray`): Per-channel scale
            applied after normalizing.
        beta (:class:`~chainer.Variable` or :ref:`ndarray`): Per-channel offset
            added after scaling.
        mean (:class:`~chainer.Variable` or :ref:`ndarray`): Mean to
            subtract from the input.
        var (:class:`~chainer.Variable` or :ref:`ndarray`): Variance to
            divide the input by (after adding ``eps`` and taking the
            square root).
        eps (float): Added to the variance for numerical stability.
        axis (int, tuple of int or None): The axes of aggregation, as in
            :func:`~chainer.functions.batch_normalization`.

    Returns:
        ~chainer.Variable: Output variable of the shape and dtype of ``x``.

    .. seealso::

        :func:`~chainer.functions.batch_normalization`,
        :class:`~chainer.links.BatchNormalization`

    """
    return FixedBatchNormalization(eps, axis).apply(
        (x, gamma, beta, mean, var))[0]
