"""RMSprop."""

import numpy

from chainer.backends import cuda
from chainer import optimizer
from chainer.optimizers import _elementwise


_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.alpha = 0.99
_default_hyperparam.eps = 1e-8
_default_hyperparam.eps_inside_sqrt = False


def _checked_eps(hp, dtype):
    eps = dtype.type(hp.eps)
    if hp.eps != 0 and eps == 0:
        raise ValueError(
            'eps of RMSprop optimizer is too small for {} ({})'.format(
                dtype.name, hp.eps))
    return eps


class RMSpropRule(optimizer.UpdateRule):
    """Update rule of RMSprop.

    ``ms = alpha * ms + (1 - alpha) * grad ** 2;
    param -= lr * grad / (sqrt(ms) + eps)`` (or ``sqrt(ms + eps)`` with
    ``eps_inside_sqrt``). The state holds ``ms``. See
    :class:`~chainer.optimizers.RMSprop`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): The
            hyperparameter to fall back to.
        lr (float): Learning rate.
        alpha (float): Decay rate of the running mean of the squared
            gradients.
        eps (float): Small constant keeping the denominator away from
            zero.
        eps_inside_sqrt (bool): Whether ``eps`` is added inside the square
            root.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None, eps=None,
                 eps_inside_sqrt=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if alpha is not None:
            self.hyperparam.alpha = alpha
        if eps is not None:
            self.hyperparam.eps = eps
        if eps_inside_sqrt is not None:
            self.hyperparam.eps_inside_sqrt = eps_inside_sqrt

    def init_state(self, param):
        xp = param.device.xp
        with param.device.create_context():
            self.state['ms'] = xp.zeros_like(param.array)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        eps = _checked_eps(hp, grad.dtype)
        ms = self.state['ms']
        if ms.ndim == 0:
            # As Chainer 7.8 on NumPy 1: see _elementwise.numpy1_scalars.
            alpha, lr = _elementwise.numpy1_scalars(hp.alpha, hp.lr)
            ms *= alpha
            ms += (1 - alpha) * grad * grad
            if hp.eps_inside_sqrt:
                denom = numpy.sqrt(ms + eps)
            else:
                denom = numpy.sqrt(ms) + eps
            param.array -= lr * grad / denom
            return
        ms *= hp.alpha
        work = numpy.multiply(
            grad, 1 - hp.alpha, out=numpy.empty_like(grad))
        work *= grad
        ms += work
        if hp.eps_inside_sqrt:
            numpy.add(ms, eps, out=work)
            numpy.sqrt(work, out=work)
        else:
            numpy.sqrt(ms, out=work)
            work += eps
        numpy.divide(numpy.multiply(grad, hp.lr), work, out=work)
        param.array -= work

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        eps = _checked_eps(hp, grad.dtype)
        denom = 'sqrt(ms + eps)' if hp.eps_inside_sqrt else 'sqrt(ms) + eps'
        cuda.elementwise(
            'T grad, T lr, T alpha, T eps', 'T param, T ms',
            '''ms = alpha * ms + (1 - alpha) * grad * grad;
               param -= lr * grad / ({});'''.format(denom),
            'rmsprop')(grad, hp.lr, hp.alpha, eps, param.array,
                       self.state['ms'])


class RMSprop(optimizer.GradientMethod):
    """RMSprop (Tieleman and Hinton, 2012).

    Args:
        lr (float): Learning rate.
        alpha (float): Decay rate of the running mean of the squared
            gradients.
        eps (float): Small constant keeping the denominator away from
            zero.
        eps_inside_sqrt (bool): Whether ``eps`` is added inside the square
            root (as in some other frameworks) rather than after it.
    """

    def __init__(self, lr=_default_hyperparam.lr,
                 alpha=_default_hyperparam.alpha, eps=_default_hyperparam.eps,
                 eps_inside_sqrt=_default_hyperparam.eps_inside_sqrt):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.alpha = alpha
        self.hyperparam.eps = eps
        self.hyperparam.eps_inside_sqrt = eps_inside_sqrt

    lr = optimizer.HyperparameterProxy('lr')
    alpha = optimizer.HyperparameterProxy('alpha')
    eps = optimizer.HyperparameterProxy('eps')
    eps_inside_sqrt = optimizer.HyperparameterProxy('eps_inside_sqrt')

    def create_update_rule(self):
        return RMSpropRule(self.hyperparam)
