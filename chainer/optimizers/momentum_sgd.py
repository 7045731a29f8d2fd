"""Stochastic gradient descent with momentum."""

import numpy

from chainer import optimizer
from chainer.optimizers import _elementwise


_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class MomentumSGDRule(_elementwise.ElementwiseRule):
    """Update rule of momentum SGD.

    ``v = momentum * v - lr * grad; param += v``. The state holds ``v``.
    See :class:`~chainer.optimizers.MomentumSGD`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): The
            hyperparameter to fall back to.
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    _default_hyperparam = _default_hyperparam
    _state_fills = (('v', 0),)
    _kernel_hyperparams = ('lr', 'momentum')
    _kernel_code = '''v = momentum * v - lr * grad;
                      param += v;'''
    _kernel_name = 'momentum_sgd'

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam, lr=lr, momentum=momentum)

    def _update_cpu(self, p, grad, hp):
        v = self.state['v']
        if _elementwise.update_in_place(
                lambda k: k.momentum_sgd_update(
                    p, numpy.asarray(grad, order='C'), v, hp.lr,
                    hp.momentum),
                grad, p, v):
            return
        v *= hp.momentum
        v -= numpy.multiply(grad, hp.lr)
        p += v

    def _update_0d(self, p, grad, hp):
        lr, momentum = _elementwise.numpy1_scalars(hp.lr, hp.momentum)
        v = self.state['v']
        v *= momentum
        v -= lr * grad
        p += v


class MomentumSGD(optimizer.GradientMethod):
    """Stochastic gradient descent with momentum.

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    def __init__(self, lr=_default_hyperparam.lr,
                 momentum=_default_hyperparam.momentum):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.momentum = momentum

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')

    def create_update_rule(self):
        return MomentumSGDRule(self.hyperparam)
