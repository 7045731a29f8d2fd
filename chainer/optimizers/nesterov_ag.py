"""Nesterov's accelerated gradient."""

import numpy

from chainer.backends import cuda
from chainer import optimizer


_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class NesterovAGRule(optimizer.UpdateRule):
    """Update rule of Nesterov's accelerated gradient.

    ``v = momentum * v - lr * grad;
    param += momentum ** 2 * v - (1 + momentum) * lr * grad``.
    The state holds ``v``. See :class:`~chainer.optimizers.NesterovAG`.

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
        lr, momentum = self.hyperparam.lr, self.hyperparam.momentum
        v = self.state['v']
        p = param.array
        v *= momentum
        v -= numpy.multiply(grad, lr)
        work = numpy.multiply(
            v, momentum * momentum, out=numpy.empty_like(v))
        p += work
        numpy.multiply(grad, (1 + momentum) * lr, out=work)
        p -= work

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        cuda.elementwise(
            'T grad, T lr, T momentum', 'T param, T v',
            '''v = v * momentum - lr * grad;
               param += momentum * momentum * v - (1 + momentum) * lr * grad;
            ''',
            'nesterov_ag')(grad, hp.lr, hp.momentum, param.array,
                           self.state['v'])


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
