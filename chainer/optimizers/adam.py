"""Adam and its variants: AdamW, AMSGrad, AdaBound and AMSBound."""

import math
import warnings

import numpy

from chainer.backends import cuda
from chainer import optimizer
from chainer.optimizers import _elementwise


_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.alpha = 0.001
_default_hyperparam.beta1 = 0.9
_default_hyperparam.beta2 = 0.999
_default_hyperparam.eps = 1e-8
_default_hyperparam.eta = 1.0
_default_hyperparam.weight_decay_rate = 0
_default_hyperparam.amsgrad = False
_default_hyperparam.adabound = False
_default_hyperparam.final_lr = 0.1
_default_hyperparam.gamma = 1e-3


def _learning_rate(hp, t):
    if t == 0:
        raise RuntimeError(
            'Can\'t determine the learning rate of Adam optimizer '
            'because the update steps have not been started.')
    fix1 = 1. - math.pow(hp.beta1, t)
    fix2 = 1. - math.pow(hp.beta2, t)
    return hp.alpha * math.sqrt(fix2) / fix1


def _intermediate_dtype(dtype):
    # float16 parameters are updated in float32 arithmetic.
    if dtype == numpy.float16:
        return numpy.dtype(numpy.float32)
    return dtype


def _kernel_code(amsgrad, adabound):
    # The body of the fused GPU update for the four variants.
    code = '''T grad_ = static_cast<T>(grad);
              T m_ = static_cast<T>(m);
              T v_ = static_cast<T>(v);
              m_ += one_minus_beta1 * (grad_ - m_);
              v_ += one_minus_beta2 * (grad_ * grad_ - v_);
              m = static_cast<P>(m_);
              v = static_cast<P>(v_);
           '''
    denom = 'sqrt(v_) + eps'
    if amsgrad:
        code += '''T vhat_ = max(static_cast<T>(vhat), v_);
                   vhat = static_cast<P>(vhat_);
                '''
        denom = 'sqrt(vhat_) + eps'
    step = 'alpha_t / ({})'.format(denom)
    if adabound:
        step = 'max(min({}, upper), lower)'.format(step)
    code += '''param -= eta * ({} * m_ +
                                 weight_decay_rate * param);'''.format(step)
    return code


class AdamRule(optimizer.UpdateRule):
    """Update rule of Adam and its variants.

    With the running means ``m`` and ``v`` of the gradients and of their
    squares, at step ``t``::

        m += (1 - beta1) * (grad - m)
        v += (1 - beta2) * (grad ** 2 - v)
        alpha_t = alpha * sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
        step = alpha_t / (sqrt(v) + eps)
        param -= eta * (step * m + weight_decay_rate * param)

    With ``amsgrad``, ``v`` in ``step`` is replaced by its running maximum
    ``vhat``; with ``adabound``, ``step`` is clipped into
    :attr:`bounds`. The state holds ``m``, ``v`` (and ``vhat``). float16
    parameters are updated in float32 arithmetic. See
    :class:`~chainer.optimizers.Adam`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): The
            hyperparameter to fall back to.
        alpha (float): Step size, before the bias correction.
        beta1 (float): Decay rate of the running mean of the gradients.
        beta2 (float): Decay rate of the running mean of the squared
            gradients.
        eps (float): Small constant keeping the denominator away from
            zero.
        eta (float): Schedule multiplier, for learning rate schedules.
        weight_decay_rate (float): Weight decay rate (decoupled from the
            gradient, as in AdamW).
        amsgrad (bool): Whether to use AMSGrad.
        adabound (bool): Whether to use AdaBound.
        final_lr (float): Learning rate that the AdaBound bounds close in
            on, as SGD would use.
        gamma (float): Convergence speed of the AdaBound bounds.
    """

    is_elementwise = True

    _dummy = None

    def __init__(self, parent_hyperparam=None,
                 alpha=None, beta1=None, beta2=None, eps=None,
                 eta=None, weight_decay_rate=None, amsgrad=None,
                 adabound=None, final_lr=None, gamma=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        hp = self.hyperparam
        _elementwise.set_hyperparams(
            hp, alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
            weight_decay_rate=weight_decay_rate, amsgrad=amsgrad,
            adabound=adabound, final_lr=final_lr, gamma=gamma)
        if hp.adabound:
            self.initial_alpha = hp.alpha

    def init_state(self, param):
        xp = param.device.xp
        with param.device.create_context():
            self.state['m'] = xp.zeros_like(param.array)
            self.state['v'] = xp.zeros_like(param.array)
            if self.hyperparam.amsgrad:
                self.state['vhat'] = xp.zeros_like(param.array)

    def _check_eps(self, dtype):
        hp = self.hyperparam
        if hp.eps != 0 and dtype.type(hp.eps) == 0:
            raise ValueError(
                'eps of Adam optimizer is too small for {} ({})'.format(
                    dtype.name, hp.eps))

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        dtype = _intermediate_dtype(param.dtype)
        self._check_eps(dtype)
        state = self.state
        m, v = state['m'], state['v']
        vhat = state['vhat'] if hp.amsgrad else None
        if m.ndim == 0:
            self._update_0d(param.array, grad.astype(dtype, copy=False),
                            m, v, vhat, dtype)
            return
        if _elementwise.update_in_place(
                lambda k: k.adam_update(
                    param.array, numpy.asarray(grad, order='C'), m, v, vhat,
                    self.alpha_t, hp.beta1, hp.beta2, hp.eps, hp.eta,
                    1.0 - hp.eta * hp.weight_decay_rate,
                    self.bounds if hp.adabound else None),
                grad, param.array, m, v, vhat):
            return
        grad = grad.astype(dtype, copy=False)

        work = numpy.subtract(
            grad, m, dtype=dtype, out=numpy.empty_like(grad, dtype=dtype))
        work *= 1.0 - hp.beta1
        m += work
        numpy.multiply(grad, grad, out=work)
        work -= v
        work *= 1.0 - hp.beta2
        v += work
        if hp.amsgrad:
            vhat = state['vhat']
            numpy.maximum(vhat, v, out=vhat)
        else:
            vhat = v

        # work = alpha_t / (sqrt(vhat) + eps), the step per unit of m.
        numpy.sqrt(vhat, out=work, dtype=dtype)
        work += hp.eps
        numpy.divide(self.alpha_t, work, out=work)
        if hp.adabound:
            lower, upper = self.bounds
            numpy.clip(work, lower, upper, out=work)
        work *= m
        if hp.eta != 1:
            work *= hp.eta
        p = param.array
        decay = 1.0 - hp.eta * hp.weight_decay_rate
        if decay != 1:
            p *= decay
        p -= work

    def _update_0d(self, p, grad, m, v, vhat, dtype):
        # As Chainer 7.8 on NumPy 1: see _elementwise.numpy1_scalars.
        hp = self.hyperparam
        beta1, beta2, eps, eta, alpha_t = _elementwise.numpy1_scalars(
            hp.beta1, hp.beta2, hp.eps, hp.eta, self.alpha_t)
        m += (1 - beta1) * (grad - m)
        v += (1 - beta2) * (grad * grad - v)
        if hp.amsgrad:
            numpy.maximum(vhat, v, out=vhat)
        else:
            vhat = v
        step = alpha_t / (numpy.sqrt(vhat.astype(dtype, copy=False)) + eps)
        if hp.adabound:
            step = numpy.clip(step, *self.bounds)
        decay, = _elementwise.numpy1_scalars(
            1.0 - hp.eta * hp.weight_decay_rate)
        if decay == 1:
            p -= eta * (step * m)
        else:
            p[...] = decay * p - eta * (step * m)

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        dtype = _intermediate_dtype(param.dtype)
        self._check_eps(dtype)
        if self._dummy is None or self._dummy.dtype != dtype:
            self._dummy = cuda.cupy.empty((0,), dtype=dtype)
        lower, upper = self.bounds if hp.adabound else (0, 0)
        outputs = 'P param, P m, P v'
        arrays = [param.array, self.state['m'], self.state['v']]
        if hp.amsgrad:
            outputs += ', P vhat'
            arrays.append(self.state['vhat'])
        kernel = cuda.elementwise(
            'P grad, T alpha_t, T one_minus_beta1, T one_minus_beta2, '
            'T lower, T upper, T eps, T eta, T weight_decay_rate, '
            'raw T dummy',
            outputs, _kernel_code(hp.amsgrad, hp.adabound), 'adam')
        kernel(grad, self.alpha_t, 1 - hp.beta1, 1 - hp.beta2, lower, upper,
               hp.eps, hp.eta, hp.weight_decay_rate, self._dummy, *arrays)

    @property
    def alpha_t(self):
        """The bias-corrected learning rate of the current step."""
        return _learning_rate(self.hyperparam, self.t)

    @property
    def lr(self):
        """Deprecated alias of :attr:`alpha_t`."""
        warnings.warn(
            'AdamRule.lr has been renamed to AdamRule.alpha_t. '
            'Use of AdamRule.lr is deprecated in Chainer v6.',
            DeprecationWarning)
        return self.alpha_t

    @property
    def bounds(self):
        """The ``(lower, upper)`` bounds of the AdaBound step at step t.

        They converge to ``final_lr`` (scaled by how ``alpha`` changed
        since the rule was made) as ``t`` grows.
        """
        if self.t == 0:
            raise RuntimeError(
                'Can\'t determine the bounds of AdaBound optimizer '
                'because the update steps have not been started.')
        hp = self.hyperparam
        final_lr = hp.final_lr * hp.alpha / self.initial_alpha
        lower = final_lr * (1.0 - 1.0 / (hp.gamma * self.t + 1))
        upper = final_lr * (1.0 + 1.0 / (hp.gamma * self.t))
        return lower, upper


class Adam(optimizer.GradientMethod):
    """Adam (Kingma and Ba, 2015), with its AdamW, AMSGrad and AdaBound
    options.

    Args:
        alpha (float): Step size, before the bias correction.
        beta1 (float): Decay rate of the running mean of the gradients.
        beta2 (float): Decay rate of the running mean of the squared
            gradients.
        eps (float): Small constant keeping the denominator away from
            zero.
        eta (float): Schedule multiplier, for learning rate schedules.
        weight_decay_rate (float): Decoupled weight decay rate
            (Loshchilov and Hutter, "Decoupled Weight Decay
            Regularization").
        amsgrad (bool): Whether to use AMSGrad (Reddi et al., 2018).
        adabound (bool): Whether to use AdaBound (Luo et al., 2019).
        final_lr (float): Learning rate that the AdaBound bounds close in
            on, as SGD would use.
        gamma (float): Convergence speed of the AdaBound bounds.

    Example:
        >>> model = L.Linear(3, 2)
        >>> optimizer = chainer.optimizers.Adam(alpha=1e-3).setup(model)
    """

    def __init__(self,
                 alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate,
                 amsgrad=_default_hyperparam.amsgrad,
                 adabound=_default_hyperparam.adabound,
                 final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma):
        super().__init__()
        hp = self.hyperparam
        hp.alpha = alpha
        hp.beta1 = beta1
        hp.beta2 = beta2
        hp.eps = eps
        hp.eta = eta
        hp.weight_decay_rate = weight_decay_rate
        hp.amsgrad = amsgrad
        hp.adabound = adabound
        hp.final_lr = final_lr
        hp.gamma = gamma

    alpha = optimizer.HyperparameterProxy('alpha')
    beta1 = optimizer.HyperparameterProxy('beta1')
    beta2 = optimizer.HyperparameterProxy('beta2')
    eps = optimizer.HyperparameterProxy('eps')
    eta = optimizer.HyperparameterProxy('eta')
    weight_decay_rate = optimizer.HyperparameterProxy('weight_decay_rate')
    amsgrad = optimizer.HyperparameterProxy('amsgrad')
    adabound = optimizer.HyperparameterProxy('adabound')
    final_lr = optimizer.HyperparameterProxy('final_lr')
    gamma = optimizer.HyperparameterProxy('gamma')

    def create_update_rule(self):
        return AdamRule(self.hyperparam)

    @property
    def alpha_t(self):
        """The bias-corrected learning rate at the optimizer's step."""
        return _learning_rate(self.hyperparam, self.t)

    @property
    def lr(self):
        """Deprecated alias of :attr:`alpha_t`."""
        warnings.warn(
            'Adam.lr has been renamed to AdamRule.alpha_t. '
            'Use of Adam.lr is deprecated in Chainer v6.',
            DeprecationWarning)
        return self.alpha_t


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov and Hutter).

    The same as :class:`Adam` with ``weight_decay_rate`` (which defaults
    to 0 here too).

    Args:
        alpha (float): Step size, before the bias correction.
        beta1 (float): Decay rate of the running mean of the gradients.
        beta2 (float): Decay rate of the running mean of the squared
            gradients.
        eps (float): Small constant keeping the denominator away from
            zero.
        eta (float): Schedule multiplier.
        weight_decay_rate (float): Weight decay rate.
    """

    def __init__(self,
                 alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__(
            alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
            weight_decay_rate=weight_decay_rate)


class AMSGrad(Adam):
    """AMSGrad (Reddi et al., 2018): Adam with ``amsgrad=True``.

    Args:
        alpha (float): Step size, before the bias correction.
        beta1 (float): Decay rate of the running mean of the gradients.
        beta2 (float): Decay rate of the running mean of the squared
            gradients.
        eps (float): Small constant keeping the denominator away from
            zero.
        eta (float): Schedule multiplier.
    """

    def __init__(self,
                 alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta):
        super().__init__(
            alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
            amsgrad=True)


class _BoundedAdam(Adam):
    # AdaBound and AMSBound: Adam with adabound=True, and with or
    # without AMSGrad; both take the same arguments.

    _amsgrad = False

    def __init__(self,
                 alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma,
                 eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta):
        super().__init__(
            alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
            amsgrad=self._amsgrad, adabound=True, final_lr=final_lr,
            gamma=gamma)


class AdaBound(_BoundedAdam):
    """AdaBound (Luo et al., 2019): Adam with ``adabound=True``.

    Args:
        alpha (float): Step size, before the bias correction.
        beta1 (float): Decay rate of the running mean of the gradients.
        beta2 (float): Decay rate of the running mean of the squared
            gradients.
        final_lr (float): Final (SGD) learning rate.
        gamma (float): Convergence speed of the bounds.
        eps (float): Small constant keeping the denominator away from
            zero.
        eta (float): Schedule multiplier.
    """


class AMSBound(_BoundedAdam):
    """AMSBound (Luo et al., 2019): Adam with ``amsgrad=True`` and
    ``adabound=True``.

    Args:
        alpha (float): Step size, before the bias correction.
        beta1 (float): Decay rate of the running mean of the gradients.
        beta2 (float): Decay rate of the running mean of the squared
            gradients.
        final_lr (float): Final (SGD) learning rate.
        gamma (float): Convergence speed of the bounds.
        eps (float): Small constant keeping the denominator away from
            zero.
        eta (float): Schedule multiplier.
    """

    _amsgrad = True
