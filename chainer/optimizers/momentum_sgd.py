"""Stochastic gradient descent with momentum."""

import numpy

from chainer.backends import cuda
from chainer import optimizer


_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class MomentumSGDRule(optimizer.UpdateRule):
    """Update rule of momentum SGD.

    ``v = momentum * v - lr * grad; param += v``. The state holds ``v``.
    See :class:`~chainer.optimizers.MomentumSGD`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): The
            hyperparameter to fall back to.
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if momentum is not None:
            self.hyperparam.momentum = momentum

    def init_state(self, param):
        xp = param.device.xp
        with param.device.create_context():
            self.state['v'] = xp.zeros_like(param.array)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        v = self.state['v']
        v *= hp.momentum
        v -= numpy.multiply(grad, hp.lr)
        param.array += v

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        cuda.elementwise(
            'T grad, T lr, T momentum', 'T param, T v',
            '''v = momentum * v - lr * grad;
               param += v;''',
            'momentum_sgd')(grad, hp.lr, hp.momentum, param.array,
                            self.state['v'])


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
