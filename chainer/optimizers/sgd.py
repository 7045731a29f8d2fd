"""Stochastic gradient descent."""

import numpy

from chainer.backends import cuda
from chainer import optimizer
from chainer.optimizers import _elementwise


_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01


class SGDRule(optimizer.UpdateRule):
    """Update rule of plain SGD: ``param -= lr * grad``.

    See :class:`~chainer.optimizers.SGD`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): The
            hyperparameter to fall back to.
        lr (float): Learning rate.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        if param.array.ndim == 0:
            # As Chainer 7.8 on NumPy 1: see _elementwise.numpy1_scalars.
            lr, = _elementwise.numpy1_scalars(self.hyperparam.lr)
            param.array -= lr * grad
            return
        if _elementwise.update_in_place(
                lambda k: k.sgd_update(
                    param.array, numpy.asarray(grad, order='C'),
                    self.hyperparam.lr),
                grad, param.array):
            return
        step = numpy.multiply(grad, self.hyperparam.lr)
        param.array -= step

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        cuda.elementwise(
            'T grad, T lr', 'T param', 'param -= lr * grad',
            'sgd')(grad, self.hyperparam.lr, param.array)


class SGD(optimizer.GradientMethod):
    """Stochastic gradient descent.

    Args:
        lr (float): Learning rate.

    Example:
        >>> model = L.Linear(3, 2)
        >>> optimizer = chainer.optimizers.SGD(lr=0.1).setup(model)
    """

    def __init__(self, lr=_default_hyperparam.lr):
        super().__init__()
        self.hyperparam.lr = lr

    lr = optimizer.HyperparameterProxy('lr')

    def create_update_rule(self):
        return SGDRule(self.hyperparam)
