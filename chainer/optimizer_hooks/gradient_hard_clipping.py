"""Element-wise clipping of gradients as an optimizer hook."""

from chainer import backend


class GradientHardClipping:
    """Clips each element of each gradient into ``[lower_bound, upper_bound]``.

    Args:
        lower_bound (float): The smallest allowed value.
        upper_bound (float): The largest allowed value.

    Attributes:
        lower_bound (float): The smallest allowed value.
        upper_bound (float): The largest allowed value.
        timing (str): ``'pre'``: called before the update.
        call_for_each_param (bool): ``True``: called for each parameter.
    """

    name = 'GradientHardClipping'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def __call__(self, rule, param):
        grad = param.grad
        if grad is None:
            return
        xp = backend.get_array_module(grad)
        with param.device.create_context():
            xp.clip(grad, self.lower_bound, self.upper_bound, out=grad)
