"""M-SVAG: momentum with stochastic variance-adapted gradients."""

import numpy

from chainer.backends import cuda
from chainer import optimizer
from chainer.optimizers import _elementwise
from chainer import serializer as serializer_module


_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.1
_default_hyperparam.beta = 0.9
_default_hyperparam.eta = 1.0
_default_hyperparam.weight_decay_rate = 0


class MSVAGRule(optimizer.UpdateRule):
    """Update rule of M-SVAG.

    With ``m`` and ``v`` the running means of the gradients and of their
    squares, bias-corrected into ``mt`` and ``vt`` at step ``t``, and
    ``rho`` the variance factor of the running mean at that step (at most
    0.9999)::

        s = (vt - mt ** 2) / (1 - rho)
        factor = clip(mt ** 2 / (mt ** 2 + rho * s), 0, 1)  # 0 if NaN
        param -= eta * (lr * mt * factor + weight_decay_rate * param)

    The bias correction uses ``beta ** t``, so it is restored exactly when
    the rule's ``t`` is loaded from a snapshot. See
    :class:`~chainer.optimizers.MSVAG`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): The
            hyperparameter to fall back to.
        lr (float): Learning rate.
        beta (float): Exponential decay rate of the running means.
        eta (float): Schedule multiplier.
        weight_decay_rate (float): Weight decay rate.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None,
                 lr=None, beta=None, eta=None, weight_decay_rate=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if beta is not None:
            self.hyperparam.beta = beta
        if eta is not None:
            self.hyperparam.eta = eta
        if weight_decay_rate is not None:
            self.hyperparam.weight_decay_rate = weight_decay_rate
        # A running product of the betas of the updates, as in Chainer.
        self.beta_power = self.hyperparam.beta

    def init_state(self, param):
        xp = param.device.xp
        with param.device.create_context():
            self.state['m'] = xp.zeros_like(param.array)
            self.state['v'] = xp.zeros_like(param.array)

    def serialize(self, serializer):
        """Saves or loads :attr:`t` and the state of the rule.

        :attr:`beta_power` is not saved (as in Chainer); a loaded rule takes
        ``beta ** (t + 1)``, its value after ``t`` updates at one beta,
        where Chainer starts again from ``beta``, so that a resumed run
        equals the uninterrupted one.
        """
        super().serialize(serializer)
        if isinstance(serializer, serializer_module.Deserializer):
            self.beta_power = self.hyperparam.beta ** (self.t + 1)

    def _factors(self):
        # (beta_power, rho) of the current step.
        beta = self.hyperparam.beta
        beta_power = self.beta_power
        rho = (((1.0 - beta) ** 2) * (1.0 - beta_power ** 2)
               / (((1.0 - beta_power) ** 2) * (1.0 - beta ** 2)))
        return beta_power, min(rho, 0.9999)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        beta_power, rho = self._factors()
        m, v = self.state['m'], self.state['v']
        p = param.array
        if p.ndim == 0:
            self._update_0d(p, grad, m, v, beta_power, rho)
            return
        work = numpy.subtract(grad, m, out=numpy.empty_like(grad))
        work *= 1 - hp.beta
        m += work
        numpy.multiply(grad, grad, out=work)
        work -= v
        work *= 1 - hp.beta
        v += work
        mt = numpy.divide(m, 1 - beta_power, out=numpy.empty_like(m))
        mt2 = numpy.square(mt)
        numpy.divide(v, 1 - beta_power, out=work)
        work -= mt2
        work /= 1 - rho
        work *= rho
        work += mt2
        factor = numpy.divide(mt2, work, out=work)
        numpy.clip(factor, 0, 1, out=factor)
        factor[numpy.isnan(factor)] = 0
        mt *= hp.lr
        mt *= factor
        if hp.weight_decay_rate != 0:
            mt += numpy.multiply(p, hp.weight_decay_rate)
        mt *= hp.eta
        p -= mt
        self.beta_power *= hp.beta

    def _update_0d(self, p, grad, m, v, beta_power, rho):
        # As Chainer 7.8 on NumPy 1: see _elementwise.numpy1_scalars.
        hp = self.hyperparam
        beta, lr, eta, weight_decay_rate, beta_power, rho = (
            _elementwise.numpy1_scalars(
                hp.beta, hp.lr, hp.eta, hp.weight_decay_rate, beta_power,
                rho))
        m += (1 - beta) * (grad - m)
        v += (1 - beta) * (grad * grad - v)
        mt = m / (1 - beta_power)
        mt2 = mt ** 2
        s = (v / (1 - beta_power) - mt2) / (1 - rho)
        factor = numpy.clip(mt2 / (mt2 + rho * s), 0, 1)
        if numpy.isnan(factor):
            factor = 0
        p -= eta * (lr * mt * factor + weight_decay_rate * p)
        self.beta_power *= hp.beta

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        beta_power, rho = self._factors()
        cuda.elementwise(
            'T grad, T lr, T one_minus_beta, T eta, T weight_decay_rate, '
            'T beta_power, T rho',
            'T param, T m, T v',
            '''m += one_minus_beta * (grad - m);
               v += one_minus_beta * (grad * grad - v);
               T mt = m / (1 - beta_power);
               T vt = v / (1 - beta_power);
               T mt2 = mt * mt;
               T s = (vt - mt2) / (1 - rho);
               T factor = (m == 0 && v == 0) ? T(0) :
                   min(T(1), max(T(0), mt2 / (mt2 + rho * s)));
               param -= eta * (lr * mt * factor + weight_decay_rate * param);
            ''',
            'msvag')(grad, hp.lr, 1 - hp.beta, hp.eta, hp.weight_decay_rate,
                     beta_power, rho, param.array, self.state['m'],
                     self.state['v'])
        self.beta_power *= hp.beta


class MSVAG(optimizer.GradientMethod):
    """M-SVAG (Balles and Hennig, 2018, "Dissecting Adam").

    Args:
        lr (float): Learning rate.
        beta (float): Exponential decay rate of the running means.
        eta (float): Schedule multiplier.
        weight_decay_rate (float): Weight decay rate.
    """

    def __init__(self, lr=_default_hyperparam.lr,
                 beta=_default_hyperparam.beta,
                 eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.beta = beta
        self.hyperparam.eta = eta
        self.hyperparam.weight_decay_rate = weight_decay_rate

    lr = optimizer.HyperparameterProxy('lr')
    beta = optimizer.HyperparameterProxy('beta')
    eta = optimizer.HyperparameterProxy('eta')
    weight_decay_rate = optimizer.HyperparameterProxy('weight_decay_rate')

    def create_update_rule(self):
        return MSVAGRule(self.hyperparam)
