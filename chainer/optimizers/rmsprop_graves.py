"""Alex Graves's variant of RMSprop."""

import numpy

from chainer.backends import cuda
from chainer import optimizer
from chainer.optimizers import _elementwise


_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 1e-4
_default_hyperparam.alpha = 0.95
_default_hyperparam.momentum = 0.9
_default_hyperparam.eps = 1e-4


class RMSpropGravesRule(optimizer.UpdateRule):
    """Update rule of Graves's RMSprop.

    With ``n`` and ``g`` the running means of the squared gradients and of
    the gradients::

        n = alpha * n + (1 - alpha) * grad ** 2
        g = alpha * g + (1 - alpha) * grad
        delta = momentum * delta - lr * grad / sqrt(n - g ** 2 + eps)
        param += delta

    See :class:`~chainer.optimizers.RMSpropGraves`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): The
            hyperparameter to fall back to.
        lr (float): Learning rate.
        alpha (float): Exponential decay rate of the running means.
        momentum (float): Exponential decay rate of ``delta``.
        eps (float): Small constant keeping the denominator away from
            zero.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None,
                 lr=None, alpha=None, momentum=None, eps=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if alpha is not None:
            self.hyperparam.alpha = alpha
        if momentum is not None:
            self.hyperparam.momentum = momentum
        if eps is not None:
            self.hyperparam.eps = eps

    def init_state(self, param):
        xp = param.device.xp
        with param.device.create_context():
            self.state['n'] = xp.zeros_like(param.array)
            self.state['g'] = xp.zeros_like(param.array)
            self.state['delta'] = xp.zeros_like(param.array)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        n, g, delta = self.state['n'], self.state['g'], self.state['delta']
        if n.ndim == 0:
            # As Chainer 7.8 on NumPy 1: see _elementwise.numpy1_scalars.
            alpha, momentum, lr, eps = _elementwise.numpy1_scalars(
                hp.alpha, hp.momentum, hp.lr, hp.eps)
            n *= alpha
            n += (1 - alpha) * grad * grad
            g *= alpha
            g += (1 - alpha) * grad
            delta *= momentum
            delta -= lr * grad / numpy.sqrt(n - g * g + eps)
            param.array += delta
            return
        n *= hp.alpha
        work = numpy.multiply(
            grad, 1 - hp.alpha, out=numpy.empty_like(grad))
        g *= hp.alpha
        g += work
        work *= grad
        n += work
        numpy.multiply(g, g, out=work)
        numpy.subtract(n, work, out=work)
        work += hp.eps
        numpy.sqrt(work, out=work)
        numpy.divide(numpy.multiply(grad, hp.lr), work, out=work)
        delta *= hp.momentum
        delta -= work
        param.array += delta

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        cuda.elementwise(
            'T grad, T lr, T alpha, T momentum, T eps',
            'T param, T avg_n, T avg_g, T delta',
            '''avg_n = alpha * avg_n + (1 - alpha) * grad * grad;
               avg_g = alpha * avg_g + (1 - alpha) * grad;
               delta = delta * momentum -
                   lr * grad * rsqrt(avg_n - avg_g * avg_g + eps);
               param += delta;''',
            'rmsprop_graves')(grad, hp.lr, hp.alpha, hp.momentum, hp.eps,
                              param.array, self.state['n'],
                              self.state['g'], self.state['delta'])


class RMSpropGraves(optimizer.GradientMethod):
    """RMSprop as in Graves, "Generating Sequences With Recurrent Neural
    Networks" (2013).

    Args:
        lr (float): Learning rate.
        alpha (float): Exponential decay rate of the running means.
        momentum (float): Exponential decay rate of the step.
        eps (float): Small constant keeping the denominator away from
            zero.
    """

    def __init__(self, lr=_default_hyperparam.lr,
                 alpha=_default_hyperparam.alpha,
                 momentum=_default_hyperparam.momentum,
                 eps=_default_hyperparam.eps):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.alpha = alpha
        self.hyperparam.momentum = momentum
        self.hyperparam.eps = eps

    lr = optimizer.HyperparameterProxy('lr')
    alpha = optimizer.HyperparameterProxy('alpha')
    momentum = optimizer.HyperparameterProxy('momentum')
    eps = optimizer.HyperparameterProxy('eps')

    def create_update_rule(self):
        return RMSpropGravesRule(self.hyperparam)
