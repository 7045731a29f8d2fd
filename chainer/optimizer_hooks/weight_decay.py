"""L2 regularization as an optimizer hook."""

from chainer.backends import cuda


class WeightDecay:
    """Adds ``rate * param`` to the gradient of each parameter.

    This is the gradient of the L2 penalty ``rate / 2 * ||param||^2``. The
    rate is multiplied by the loss scale of the gradient, if any, since the
    gradient is still scaled when the hook runs.

    Args:
        rate (float): Coefficient of the decay.

    Attributes:
        rate (float): Coefficient of the decay.
        timing (str): ``'pre'``: called before the update.
        call_for_each_param (bool): ``True``: called for each parameter.
    """

    name = 'WeightDecay'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate):
        self.rate = rate

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        rate = self.rate
        if param._loss_scale is not None:
            rate *= param._loss_scale
        if isinstance(p, cuda.ndarray):
            with p.device:
                cuda.elementwise(
                    'T p, T decay', 'T g', 'g += decay * p',
                    'weight_decay')(p, rate, g)
        else:
            g += rate * p
