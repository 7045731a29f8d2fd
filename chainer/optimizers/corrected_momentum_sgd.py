"""Momentum SGD whose velocity does not depend on the learning rate."""

import numpy

from chainer import optimizer
from chainer.optimizers import _elementwise


_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class CorrectedMomentumSGDRule(_elementwise.ElementwiseRule):
    """Rule for momentum SGD that scales the velocity, not the gradient,
    by the learning rate.

    ``v = momentum * v - grad; param += lr * v``. The state holds ``v``.
    See :class:`~chainer.optimizers.CorrectedMomentumSGD`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): The
            hyperparameter to fall back to.
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    _default_hyperparam = _default_hyperparam
    _state_fills = (('v', 0),)
    _kernel_hyperparams = ('lr', 'momentum')
    _kernel_code = '''v = momentum * v - grad;
                      param += lr * v;'''
    _kernel_name = 'corrected_momentum_sgd'

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam, lr=lr, momentum=momentum)

    def _update_cpu(self, p, grad, hp):
        v = self.state['v']
        v *= hp.momentum
        v -= grad
        p += numpy.multiply(v, hp.lr)

    def _update_0d(self, p, grad, hp):
        lr, momentum = _elementwise.numpy1_scalars(hp.lr, hp.momentum)
        v = self.state['v']
        v *= momentum
        v -= grad
        p += lr * v


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
