"""Nesterov's accelerated gradient."""

import numpy

from chainer import optimizer
from chainer.optimizers import _elementwise


_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class NesterovAGRule(_elementwise.ElementwiseRule):
    """Rule stepping a parameter by Nesterov's accelerated gradient.

    ``v = momentum * v - lr * grad;
    param += momentum ** 2 * v - (1 + momentum) * lr * grad``.
    The state holds ``v``. See :class:`~chainer.optimizers.NesterovAG`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): The
            hyperparameter to fall back to.
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    _default_hyperparam = _default_hyperparam
    _state_fills = (('v', 0),)
    _kernel_hyperparams = ('lr', 'momentum')
    _kernel_code = '''v = v * momentum - lr * grad;
                      param += momentum * momentum * v
                               - (1 + momentum) * lr * grad;'''
    _kernel_name = 'nesterov_ag'

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam, lr=lr, momentum=momentum)

    def _update_cpu(self, p, grad, hp):
        lr, momentum = hp.lr, hp.momentum
        v = self.state['v']
        v *= momentum
        v -= numpy.multiply(grad, lr)
        work = numpy.multiply(
            v, momentum * momentum, out=numpy.empty_like(v))
        p += work
        numpy.multiply(grad, (1 + momentum) * lr, out=work)
        p -= work

    def _update_0d(self, p, grad, hp):
        lr, momentum = _elementwise.numpy1_scalars(hp.lr, hp.momentum)
        v = self.state['v']
        v *= momentum
        v -= lr * grad
        p += momentum * momentum * v
        p -= (1 + momentum) * lr * grad


class NesterovAG(optimizer.GradientMethod):
    """Nesterov's accelerated gradient (Sutskever et al., 2013).

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
        return NesterovAGRule(self.hyperparam)
