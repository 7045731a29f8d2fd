"""AdaDelta."""

import numpy

from chainer.backends import cuda
from chainer import optimizer
from chainer.optimizers import _elementwise


_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.rho = 0.95
_default_hyperparam.eps = 1e-6


class AdaDeltaRule(optimizer.UpdateRule):
    """Update rule of AdaDelta.

    With ``msg`` and ``msdx`` the running means of the squared gradients
    and of the squared steps::

        msg = rho * msg + (1 - rho) * grad ** 2
        dx = sqrt((msdx + eps) / (msg + eps)) * grad
        msdx = rho * msdx + (1 - rho) * dx ** 2
        param -= dx

    See :class:`~chainer.optimizers.AdaDelta`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): The
            hyperparameter to fall back to.
        rho (float): Exponential decay rate of the running means.
        eps (float): Small constant added under both square roots.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, rho=None, eps=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if rho is not None:
            self.hyperparam.rho = rho
        if eps is not None:
            self.hyperparam.eps = eps

    def init_state(self, param):
        xp = param.device.xp
        with param.device.create_context():
            self.state['msg'] = xp.zeros_like(param.array)
            self.state['msdx'] = xp.zeros_like(param.array)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        rho, eps = self.hyperparam.rho, self.hyperparam.eps
        msg, msdx = self.state['msg'], self.state['msdx']
        if param.array.ndim == 0:
            # As Chainer 7.8 on NumPy 1: see _elementwise.numpy1_scalars.
            rho, eps = _elementwise.numpy1_scalars(rho, eps)
            msg *= rho
            msg += (1 - rho) * grad * grad
            dx = numpy.sqrt((msdx + eps) / (msg + eps)) * grad
            msdx *= rho
            msdx += (1 - rho) * dx * dx
            param.array -= dx
            return
        msg *= rho
        work = numpy.multiply(grad, 1 - rho, out=numpy.empty_like(grad))
        work *= grad
        msg += work
        dx = numpy.add(msdx, eps, out=numpy.empty_like(msdx))
        numpy.add(msg, eps, out=work)
        dx /= work
        numpy.sqrt(dx, out=dx)
        dx *= grad
        msdx *= rho
        numpy.multiply(dx, 1 - rho, out=work)
        work *= dx
        msdx += work
        param.array -= dx

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        cuda.elementwise(
            'T grad, T one_minus_rho, T eps', 'T param, T msg, T msdx',
            '''msg = msg + one_minus_rho * (grad * grad - msg);
               T dx = sqrt((msdx + eps) / (msg + eps)) * grad;
               msdx += one_minus_rho * (dx * dx - msdx);
               param -= dx;''',
            'adadelta')(grad, 1 - hp.rho, hp.eps, param.array,
                        self.state['msg'], self.state['msdx'])


class AdaDelta(optimizer.GradientMethod):
    """AdaDelta (Zeiler, 2012).

    Args:
        rho (float): Exponential decay rate of the running means.
        eps (float): Small constant added under both square roots.
    """

    def __init__(self, rho=_default_hyperparam.rho,
                 eps=_default_hyperparam.eps):
        super().__init__()
        self.hyperparam.rho = rho
        self.hyperparam.eps = eps

    rho = optimizer.HyperparameterProxy('rho')
    eps = optimizer.HyperparameterProxy('eps')

    def create_update_rule(self):
        return AdaDeltaRule(self.hyperparam)
