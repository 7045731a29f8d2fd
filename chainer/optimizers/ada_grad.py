"""AdaGrad."""

import numpy

from chainer.backends import cuda
from chainer import optimizer


_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-8


class AdaGradRule(optimizer.UpdateRule):
    """Update rule of AdaGrad.

    ``h += grad ** 2; param -= lr * grad / (sqrt(h) + eps)``. The state
    holds ``h``. See :class:`~chainer.optimizers.AdaGrad`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): The
            hyperparameter to fall back to.
        lr (float): Learning rate.
        eps (float): Small value for numerical stability.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if eps is not None:
            self.hyperparam.eps = eps

    def init_state(self, param):
        xp = param.device.xp
        with param.device.create_context():
            self.state['h'] = xp.zeros_like(param.array)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        h = self.state['h']
        work = numpy.multiply(grad, grad, out=numpy.empty_like(grad))
        h += work
        numpy.sqrt(h, out=work)
        work += hp.eps
        numpy.divide(numpy.multiply(grad, hp.lr), work, out=work)
        param.array -= work

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        cuda.elementwise(
            'T grad, T lr, T eps', 'T param, T h',
            '''h += grad * grad;
               param -= lr * grad / (sqrt(h) + eps);''',
            'adagrad')(grad, hp.lr, hp.eps, param.array, self.state['h'])


class AdaGrad(optimizer.GradientMethod):
    """AdaGrad (Duchi et al., 2011).

    Args:
        lr (float): Learning rate.
        eps (float): Small value for numerical stability.
    """

    def __init__(self, lr=_default_hyperparam.lr, eps=_default_hyperparam.eps):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.eps = eps

    lr = optimizer.HyperparameterProxy('lr')
    eps = optimizer.HyperparameterProxy('eps')

    def create_update_rule(self):
        return AdaGradRule(self.hyperparam)
