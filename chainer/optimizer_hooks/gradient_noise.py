"""Gaussian noise added to the gradients as an optimizer hook."""

import numpy


def exponential_decay_noise(xp, shape, dtype, hook, opt):
    """Returns Gaussian noise whose variance decays with the update count.

    The standard deviation is ``sqrt(hook.eta / (1 + t) ** 0.55)``, where
    ``t`` is the update count of ``opt`` (Neelakantan et al., 2015).

    Args:
        xp: :mod:`numpy` or :mod:`cupy`.
        shape (tuple of int): Shape of the noise.
        dtype: Its data type.
        hook (GradientNoise): The hook, for ``eta``.
        opt: The update rule (or optimizer), for ``t``.

    Returns:
        The noise array.
    """
    std = numpy.sqrt(hook.eta / numpy.power(1 + opt.t, 0.55))
    return xp.random.normal(0, std, shape).astype(dtype)


class GradientNoise:
    """Adds random noise to each gradient.

    Args:
        eta (float): Scale of the noise; see
            :func:`exponential_decay_noise`.
        noise_func (callable): Called as
            ``noise_func(xp, shape, dtype, hook, rule)``, it returns the
            noise to add.

    Attributes:
        eta (float): Scale of the noise.
        noise_func (callable): Makes the noise.
        timing (str): ``'pre'``: called before the update.
        call_for_each_param (bool): ``True``: called for each parameter.
    """

    name = 'GradientNoise'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, eta, noise_func=exponential_decay_noise):
        self.eta = eta
        self.noise_func = noise_func

    def __call__(self, rule, param):
        g = param.grad
        if g is None:
            return
        device = param.device
        with device.create_context():
            noise = self.noise_func(device.xp, g.shape, g.dtype, self, rule)
            g += noise
