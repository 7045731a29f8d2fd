"""SMORMS3."""

import numpy

from chainer import optimizer
from chainer.optimizers import _elementwise


_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-16


class SMORMS3Rule(_elementwise.ElementwiseRule):
    """Update rule of SMORMS3.

    With a per-element memory ``mem`` (starting at 1) and running means
    ``g`` and ``g2`` of the gradients and of their squares::

        r = 1 / (mem + 1)
        g = (1 - r) * g + r * grad
        g2 = (1 - r) * g2 + r * grad ** 2
        x = g ** 2 / (g2 + eps)
        param -= grad * min(x, lr) / (sqrt(g2) + eps)
        mem = 1 + mem * (1 - x)

    See :class:`~chainer.optimizers.SMORMS3`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): The
            hyperparameter to fall back to.
        lr (float): Learning rate.
        eps (float): Small constant keeping the denominator away from
            zero.
    """

    _default_hyperparam = _default_hyperparam
    _state_fills = (('mem', 1), ('g', 0), ('g2', 0))
    _kernel_hyperparams = ('lr', 'eps')
    _kernel_code = '''T r = 1 / (mem + 1);
                      g = (1 - r) * g + r * grad;
                      g2 = (1 - r) * g2 + r * grad * grad;
                      T x = g * g / (g2 + eps);
                      param -= grad * min(lr, x) / (sqrt(g2) + eps);
                      mem = 1 + mem * (1 - x);'''
    _kernel_name = 'smorms3'

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam, lr=lr, eps=eps)

    def _update_cpu(self, p, grad, hp):
        lr, eps = hp.lr, hp.eps
        mem, g, g2 = self.state['mem'], self.state['g'], self.state['g2']
        r = numpy.add(mem, 1, out=numpy.empty_like(mem))
        numpy.divide(1, r, out=r)
        keep = numpy.subtract(1, r, out=numpy.empty_like(r))
        work = numpy.multiply(r, grad, out=numpy.empty_like(grad))
        g *= keep
        g += work
        work *= grad
        g2 *= keep
        g2 += work
        x = numpy.multiply(g, g, out=r)
        numpy.add(g2, eps, out=work)
        x /= work
        numpy.sqrt(g2, out=work)
        work += eps
        numpy.divide(numpy.multiply(grad, numpy.minimum(x, lr)), work,
                     out=work)
        p -= work
        numpy.subtract(1, x, out=keep)
        mem *= keep
        mem += 1

    def _update_0d(self, p, grad, hp):
        # As in the original, the states become NumPy float64 scalars.
        lr, eps, one = _elementwise.numpy1_scalars(hp.lr, hp.eps, 1)
        mem, g, g2 = self.state['mem'], self.state['g'], self.state['g2']
        r = one / (mem + one)
        g = (one - r) * g + r * grad
        g2 = (one - r) * g2 + r * grad * grad
        x = g * g / (g2 + eps)
        p -= grad * numpy.minimum(x, lr) / (numpy.sqrt(g2) + eps)
        self.state['mem'] = one + mem * (one - x)
        self.state['g'], self.state['g2'] = g, g2


class SMORMS3(optimizer.GradientMethod):
    """SMORMS3 (Simon Funk's "RMSprop loses to SMORMS3", 2015).

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
        return SMORMS3Rule(self.hyperparam)
