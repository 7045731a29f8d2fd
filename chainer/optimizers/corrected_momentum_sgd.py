"""Momentum SGD whose velocity does not depend on the learning rate."""

import numpy

from chainer.backends import cuda
from chainer import optimizer


_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class CorrectedMomentumSGDRule(optimizer.UpdateRule):
    """Update rule of corrected momentum SGD.

    ``v = momentum * v - grad; param += lr * v``. The state holds ``v``.
    See :class:`~chainer.optimizers.CorrectedMomentumSGD`.

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
        v -= grad
        param.array += numpy.multiply(v, hp.lr)

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        cuda.elementwise(
            'T grad, T lr, T momentum', 'T param, T v',
            '''v = momentum * v - grad;
               param += lr * v;''',
            'corrected_momentum_sgd')(grad, hp.lr, hp.momentum,
                                      param.array, self.state['v'])


class CorrectedMomentumSGD(optimizer.GradientMethod):
    """Momentum SGD with the learning rate applied after the momentum.

    The velocity accumulates raw gradients, so changing the learning rate
    during training takes effect at once (Goyal et al., 2017, "Accurate,
    Large Minibatch SGD").

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
        return CorrectedMomentumSGDRule(self.hyperparam)
