"""AdaGrad."""

import numpy

from chainer import optimizer
from chainer.optimizers import _elementwise


_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-8


class AdaGradRule(_elementwise.ElementwiseRule):
    """Update rule of AdaGrad.

    ``h += grad ** 2; param -= lr * grad / (sqrt(h) + eps)``. The state
    holds ``h``. See :class:`~chainer.optimizers.AdaGrad`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): The
            hyperparameter to fall back to.
        lr (float): Learning rate.
        eps (float): Small constant keeping the denominator away from
            zero.
    """

    _default_hyperparam = _default_hyperparam
    _state_fills = (('h', 0),)
    _kernel_hyperparams = ('lr', 'eps')
    _kernel_code = '''h += grad * grad;
                      param -= lr * grad / (sqrt(h) + eps);'''
    _kernel_name = 'adagrad'

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam, lr=lr, eps=eps)

    def _update_cpu(self, p, grad, hp):
        h = self.state['h']
        work = numpy.multiply(grad, grad, out=numpy.empty_like(grad))
        h += work
        numpy.sqrt(h, out=work)
        work += hp.eps
        numpy.divide(numpy.multiply(grad, hp.lr), work, out=work)
        p -= work

    def _update_0d(self, p, grad, hp):
        lr, eps = _elementwise.numpy1_scalars(hp.lr, hp.eps)
        h = self.state['h']
        h += grad * grad
        p -= lr * grad / (numpy.sqrt(h) + eps)


class AdaGrad(optimizer.GradientMethod):
    """AdaGrad (Duchi et al., 2011).

    Args:
        lr (float): Learning rate.
        eps (float): Small constant keeping the denominator away from
            zero.
    """

    def __init__(self, lr=_default_hyperparam.lr, eps=_default_hyperparam.eps):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.eps = eps

    lr = optimizer.HyperparameterProxy('lr')
    eps = optimizer.HyperparameterProxy('eps')

    def create_update_rule(self):
        return AdaGradRule(self.hyperparam)
