import numpy

import chainer
from chainer import _kernels
from chainer import backend
from chainer.backends import cuda
from chainer.functions import _numerics
from chainer.functions.activation import log_softmax
from chainer.functions.array import broadcast
from chainer.functions.array import cast
from chainer.functions.array import reshape
from chainer.functions.array import rollaxis
from chainer.functions.array import select_item
from chainer.functions.loss import _labels
from chainer.functions.loss import _reduce_option
from chainer.functions.math import sum as sum_module
from chainer import function_node
from chainer.utils import type_check
from chainer import variable


def _check_class_weight_option(class_weight):
    if class_weight is not None:
        if class_weight.ndim != 1:
            raise ValueError('class_weight.ndim should be 1')
        if class_weight.dtype.kind != 'f':
            raise ValueError('The dtype of class_weight should be \'f\'')
        if isinstance(class_weight, variable.Variable):
            raise ValueError('class_weight should be a numpy.ndarray or '
                             'cupy.ndarray, not a chainer.Variable')


def _check_soft_target_loss_option(soft_target_loss):
    if soft_target_loss not in ('cross-entropy', 'kl-divergence'):
        raise ValueError('soft_target_loss must be \'cross-entropy\' or '
                         '\'kl-divergence\'.')


def _check_input_values(x, t, ignore_label, index_error=False):
    # Each label must be a class of x or ignore_label. With index_error, a
    # label beyond the class axis raises IndexError, as indexing it does.
    if isinstance(x, variable.Variable):
        x = x.array
    if isinstance(t, variable.Variable):
        t = t.array
    _labels.check_labels(
        t, x.shape[1], 't', ignore_label, axis=0 if index_error else None,
        message='Each label `t` need to satisfy '
        '`0 <= t < x.shape[1] or t == %d`' % ignore_label)


def _reduction_dtype(dtype):
    # Sums of half precision values are accumulated in float32.
    if dtype == numpy.float16:
        return numpy.dtype(numpy.float32)
    return dtype


def _class_weight_on(class_weight, xp):
    if xp is numpy:
        return backend.CpuDevice().send(class_weight)
    return cuda.to_gpu(class_weight)


def _weight_of_each_class(class_weight, x_shape):
    # class_weight holds one weight per class of x, or a single one for all
    # of them; other lengths raise ValueError, as broadcasting the weights
    # along the class axis does.
    xp = backend.get_array_module(class_weight)
    shape = [1] * len(x_shape)
    shape[1] = -1
    xp.broadcast_to(class_weight.reshape(shape), x_shape)
    return xp.broadcast_to(class_weight, x_shape[1:2])


def _target_index(t, n_class):
    # Flat indexes of the entries t[n, ...] of the class axis in a
    # C-contiguous array of shape (N, n_class, ...).
    xp = backend.get_array_module(t)
    n = len(t)
    if t.ndim == 1:
        index = t.astype(numpy.intp)
        index += xp.arange(0, n * n_class, n_class, dtype=numpy.intp)
        return index
    m = t.size // n
    index = t.reshape(n, m).astype(numpy.intp)
    index *= m
    index += xp.arange(m, dtype=numpy.intp)
    index += xp.arange(0, n * n_class * m, n_class * m,
                       dtype=numpy.intp)[:, None]
    return index.ravel()


class SoftmaxCrossEntropy(function_node.FunctionNode):

    """Cross entropy of class scores, with the softmax built in."""

    normalize = True
    # 1 / (the count the mean divides by); set by forward for 'mean'
    _coeff = None
    soft_target = False
    eps = 1e-7
    # flat indexes and weights of the labels; set by forward
    _index = None
    _weight = None

    def __init__(self, normalize=True, cache_score=True, class_weight=None,
                 ignore_label=-1, reduce='mean',
                 soft_target_loss='cross-entropy'):
        self.normalize = normalize
        self.cache_score = cache_score
        _check_class_weight_option(class_weight)
        self.class_weight = class_weight
        self.ignore_label = ignore_label
        _reduce_option.check(reduce, ('mean', 'no'))
        self.reduce = reduce
        _check_soft_target_loss_option(soft_target_loss)
        self.soft_target_loss = soft_target_loss
        # exp(x - max(x)) and its sum, kept for backward if cache_score
        self._exp_x = None
        self._sum_exp = None

    @property
    def y(self):
        """The softmax of ``x`` kept for backward, or ``None``.

        It is kept by forward if ``cache_score`` is ``True``, until backward
        has used it.
        """
        if self._exp_x is None:
            return None
        return self._exp_x / self._sum_exp.astype(
            self._exp_x.dtype, copy=False)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= 2,
        )
        if type_check.eval(t_type.dtype.kind) == 'i':
            type_check.expect(t_type.ndim == x_type.ndim - 1)
            type_check.expect(
                x_type.shape[0] == t_type.shape[0],
                x_type.shape[2:] == t_type.shape[1:],
            )
        else:
            # t holds soft targets: a distribution over the classes
            type_check.expect(
                t_type.dtype.kind == 'f',
                x_type.shape == t_type.shape,
            )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, t = inputs
        xp = backend.get_array_module(x)
        self.soft_target = t.dtype.kind == 'f'
        if self.soft_target:
            loss_shape = t.shape[:1] + t.shape[2:]
        else:
            loss_shape = t.shape
            _check_input_values(
                x, t, self.ignore_label, index_error=not chainer.is_debug())
        if x.size == 0:
            if self.reduce == 'mean':
                return xp.zeros((), x.dtype),
            return xp.zeros(loss_shape, x.dtype),
        loss = self._forward_kernel(x, t)
        if loss is not None:
            return loss,

        # log softmax(x) = x - log_z, log_z = max + log(sum(exp(x - max)))
        exp_x, sum_exp, max_x = _numerics.exp_shifted(
            x, 1, _reduction_dtype(x.dtype))
        if self.cache_score:
            self._exp_x = exp_x
            self._sum_exp = sum_exp
        log_z = _numerics.log_of_shifted_sum(sum_exp, max_x)
        if self.soft_target:
            return self._soft_target_loss(xp, x, t, log_z)

        valid = t != self.ignore_label
        t_index = xp.where(valid, t, 0)
        self._index = _target_index(t_index, x.shape[1])
        if x.flags.c_contiguous:
            x_t = x.ravel()[self._index]
        else:
            x_t = xp.take_along_axis(
                x, xp.expand_dims(t_index, 1), axis=1).ravel()
        log_p = x_t - log_z.ravel()

        # weight of each label in the loss (and in its gradient)
        weight = valid.ravel()
        if self.class_weight is not None:
            class_weight = _weight_of_each_class(
                _class_weight_on(self.class_weight, xp), x.shape)
            weight = class_weight[t_index.ravel()] * weight
        self._weight = weight
        log_p *= weight

        if self.reduce == 'mean':
            if not self.normalize:
                self._coeff = 1. / max(len(x), 1)
            elif xp is numpy:
                self._coeff = 1. / max(int(valid.sum()), 1)
            else:
                # no synchronization with the device
                self._coeff = 1. / xp.maximum(valid.sum(), 1)
            loss = log_p.sum(dtype=_reduction_dtype(x.dtype))
            loss = loss * -self._coeff
            return xp.asarray(loss, x.dtype),
        return (-log_p).astype(x.dtype, copy=False).reshape(t.shape),

    def _forward_kernel(self, x, t):
        # The fused kernel for (N, C) scores and int32 labels without class
        # weights; it leaves the state the NumPy forward would. None where
        # it does not apply.
        if (self.soft_target or x.ndim != 2 or t.dtype != numpy.int32
                or self.class_weight is not None
                or not isinstance(self.ignore_label, int)):
            return None
        results = _kernels.call(
            (x,), _kernels.FLOATS, lambda k: k.softmax_cross_entropy_forward(
                numpy.ascontiguousarray(x), numpy.ascontiguousarray(t),
                self.ignore_label, self.reduce == 'mean', self.normalize,
                self.cache_score))
        if results is None:
            return None
        loss, exp_x, sum_exp, self._index, self._weight, coeff = results
        if self.cache_score:
            self._exp_x = exp_x
            self._sum_exp = sum_exp
        if coeff is not None:
            self._coeff = coeff
        return loss

    def _soft_target_loss(self, xp, x, t, log_z):
        log_y = x - log_z
        if self.soft_target_loss == 'kl-divergence':
            loss = (t * (xp.log(t + self.eps) - log_y)).sum(axis=1)
        else:
            loss = -(t * log_y).sum(axis=1)
        if self.reduce == 'mean':
            self._coeff = x.shape[1] / x.size
            loss = loss.sum() * self._coeff
        return xp.asarray(loss, x.dtype),

    def backward(self, input_indexes, grad_outputs):
        grad = _SoftmaxCrossEntropyGrad_NoDoubleBackprop(self)
        self._exp_x = None
        self._sum_exp = None
        gx, = grad.apply(self.get_retained_inputs() + grad_outputs)
        return gx, None


class _SoftmaxCrossEntropyGrad_NoDoubleBackprop(function_node.FunctionNode):

    # Gradient of SoftmaxCrossEntropy with respect to x, on arrays only.
    # Inputs are (x, t, gloss).

    def __init__(self, loss_func):
        self.reduce = loss_func.reduce
        self.soft_target = loss_func.soft_target
        self.coeff = loss_func._coeff
        self.exp_x = loss_func._exp_x
        self.sum_exp = loss_func._sum_exp
        self.index = loss_func._index
        self.weight = loss_func._weight

    def forward(self, inputs):
        x, t, gloss = inputs
        xp = backend.get_array_module(x)
        dtype = x.dtype
        if x.size == 0:
            return xp.zeros_like(x),
        gx = self._backward_kernel(x, gloss)
        if gx is not None:
            return gx,
        exp_x, sum_exp = self.exp_x, self.sum_exp
        if exp_x is None:
            exp_x, sum_exp, _ = _numerics.exp_shifted(
                x, 1, _reduction_dtype(dtype))
        if self.coeff is not None:
            gloss = gloss * self.coeff

        if self.soft_target:
            # (softmax(x) - t) * gloss
            gx = exp_x / sum_exp.astype(dtype, copy=False)
            gx -= t
            if self.reduce == 'mean':
                gx *= gloss.astype(dtype, copy=False)
            else:
                gx *= xp.expand_dims(gloss, 1)
            return gx,

        # (softmax(x) - onehot(t)) * r, with r the weight of each label
        # times its gradient
        if self.reduce == 'mean':
            r = self.weight * gloss
        else:
            r = self.weight * gloss.ravel()
        r = r.astype(dtype, copy=False)
        scale = r.reshape(sum_exp.shape) / sum_exp
        gx = exp_x * scale.astype(dtype, copy=False)
        if gx.flags.c_contiguous:
            gx.ravel()[self.index] -= r
        else:
            # gx keeps the layout of x, where ravel() would be a copy.
            gx[xp.unravel_index(self.index, gx.shape)] -= r
        return gx,

    def _backward_kernel(self, x, gloss):
        # The fused kernel for (N, C) scores whose labels have no class
        # weights, or None.
        if self.soft_target or x.ndim != 2 or self.weight.dtype != bool:
            return None
        exp_x = self.exp_x
        return _kernels.call(
            (x, gloss, exp_x), _kernels.FLOATS,
            lambda k: k.softmax_cross_entropy_backward(
                numpy.ascontiguousarray(x), self.index, self.weight,
                numpy.ascontiguousarray(gloss), self.coeff,
                None if exp_x is None else numpy.ascontiguousarray(exp_x),
                self.sum_exp))

    def backward(self, input_indexes, grad_outputs):
        raise RuntimeError(
            'F.softmax_cross_entropy was called with '
            '\'enable_double_backprop=False\' argument, but double-backprop '
            'is actually being performed. Please specify '
            '\'enable_double_backprop=True\' explicitly.')


def _double_backward_softmax_cross_entropy(
        x, t, normalize, class_weight, ignore_label, reduce,
        soft_target_loss):
    # The loss built from differentiable functions, so that it can be
    # differentiated more than once.
    if isinstance(t, variable.Variable):
        t = t.array
    _check_class_weight_option(class_weight)
    _reduce_option.check(reduce, ('mean', 'no'))
    _check_soft_target_loss_option(soft_target_loss)

    log_y = log_softmax.log_softmax(x)
    dtype = log_y.dtype
    reduction_dtype = _reduction_dtype(dtype)
    if t.dtype.kind == 'f':
        if t.shape != x.shape:
            raise type_check.InvalidType(
                'x.shape == t.shape', 'x.shape: {}, t.shape: {}'.format(
                    x.shape, t.shape))
        loss = -sum_module.sum(log_y * t, axis=1)
        if soft_target_loss == 'kl-divergence':
            xp = backend.get_array_module(t)
            entropy = (t * xp.log(t + SoftmaxCrossEntropy.eps)).sum(axis=1)
            loss = loss + entropy.astype(dtype, copy=False)
        if reduce == 'mean':
            count = max(x.size // max(x.shape[1], 1), 1)
            loss = _scaled_sum(loss, 1. / count, reduction_dtype)
        return loss

    # Labels are clipped into the classes below: a bad one must not pass.
    _check_input_values(x, t, ignore_label)
    loss = -log_y
    if class_weight is not None:
        shape = [1] * loss.ndim
        shape[1] = -1
        xp = backend.get_array_module(t)
        class_weight = _class_weight_on(class_weight, xp).reshape(shape)
        loss = loss * broadcast.broadcast_to(class_weight, loss.shape)

    in_use = (t != ignore_label).astype(dtype)
    loss = rollaxis.rollaxis(loss, 1, loss.ndim)
    loss = reshape.reshape(loss, (-1, loss.shape[-1]))
    # Ignored labels are replaced by valid ones, whose losses are masked.
    t = t.clip(0, loss.shape[1] - 1)
    loss = select_item.select_item(loss, t.ravel())
    loss = reshape.reshape(loss, t.shape) * in_use

    if reduce == 'mean':
        if normalize:
            count = in_use.sum(dtype=reduction_dtype)
        else:
            count = len(x)
        count = max(float(count), 1.)
        loss = _scaled_sum(loss, 1. / count, reduction_dtype)
    return loss


def _scaled_sum(x, scale, dtype):
    # scale times the sum of all elements of x, computed in dtype
    if x.dtype == dtype:
        return sum_module.sum(x) * scale
    return cast.cast(sum_module.sum(cast.cast(x, dtype)) * scale, x.dtype)


def softmax_cross_entropy(
        x, t, normalize=True, cache_score=True, class_weight=None,
        ignore_label=-1, reduce='mean', enable_double_backprop=False,
        soft_target_loss='cross-entropy'):
    """Cross entropy between class scores, taken through a softmax, and
    labels.

    The softmax over axis 1 of ``x`` is the predicted distribution over the
    classes; the loss is its cross entropy with the labels ``t``. With
    more than two dimensions, each position of the axes after the class
    axis is one more sample (a replicated softmax).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The unnormalized
            log probabilities, a float array of shape :math:`(N, C, ...)`:
            the first axis is the batch, the second the classes.
        t (:class:`~chainer.Variable` or :ref:`ndarray`): The labels, a
            signed integer array of shape :math:`(N, ...)` (``x.shape``
            without axis 1); samples whose label is ``ignore_label`` are
            ignored. Any other label must be in :math:`[0, C)`: one that no
            index of the :math:`C` classes reaches raises
            :class:`IndexError`, another negative one :class:`ValueError`
            (with ``enable_double_backprop`` or in debug mode, every bad
            label raises :class:`ValueError`). A float array of the shape
            of ``x`` is taken as soft
            targets instead: distributions over the classes, compared with
            the prediction as ``soft_target_loss`` says.
        normalize (bool): With ``reduce='mean'`` and integer labels, divide
            the summed loss by the number of labels that are not ignored if
            ``True`` (default), or by the batch size if ``False``.
        cache_score (bool): If ``True`` (default), keep the softmax of the
            forward computation for backward: faster, but uses more memory.
            It is off when ``enable_double_backprop`` is ``True``.
        class_weight (:ref:`ndarray`): Constant weights of the classes, of
            shape :math:`(C,)` (or :math:`(1,)`, one weight for all): the
            log-softmax of class :math:`i` is multiplied by
            ``class_weight[i]`` before the loss is taken. Another length
            raises :class:`ValueError`
            (:class:`~chainer.utils.type_check.InvalidType` with
            ``enable_double_backprop``).
        ignore_label (int): The label of samples to ignore (``-1`` by
            default).
        reduce (str): ``'mean'`` (default) sums the losses and normalizes
            the sum as ``normalize`` says; ``'no'`` keeps one loss per
            sample, zero for ignored ones (``normalize`` is then unused).
            Any other value raises :class:`ValueError`.
        enable_double_backprop (bool): If ``True``, the loss is built from
            differentiable functions, so that it can be differentiated
            twice or more. The default ``False`` uses a faster node that can
            be differentiated once only.
        soft_target_loss (str): How soft targets are compared with the
            prediction: ``'cross-entropy'`` (default) or
            ``'kl-divergence'``.

    Returns:
        ~chainer.Variable: A scalar loss when ``reduce`` is ``'mean'``, else
        the losses of the samples, of the shape of integer ``t``.

    .. note::

       Gradients flow to ``x`` alone.

    .. admonition:: Example

        >>> x = np.array([[-1., 0., 1., 2.], [2., 0., 1., -1.]], np.float32)
        >>> t = np.array([3, 0], np.int32)
        >>> y = F.softmax_cross_entropy(x, t)
        >>> y
        variable(0.440189...)
        >>> expected = -F.log_softmax(x).array[[0, 1], t].mean()
        >>> bool(abs(y.array - expected) < 1e-6)
        True
        >>> F.softmax_cross_entropy(x, np.array([3, -1], np.int32),
        ...                         reduce='no').array
        array([0.4401896, 0.       ], dtype=float32)

    """
    _check_soft_target_loss_option(soft_target_loss)
    if enable_double_backprop:
        return _double_backward_softmax_cross_entropy(
            x, t, normalize, class_weight, ignore_label, reduce,
            soft_target_loss)
    func = SoftmaxCrossEntropy(
        normalize, cache_score, class_weight, ignore_label, reduce,
        soft_target_loss)
    loss, = func.apply((x, t))
    return loss
