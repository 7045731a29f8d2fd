"""L1 regularization as an optimizer hook."""

import numpy

from chainer.backends import cuda


class Lasso:
    """Adds ``rate * sign(param)`` to the gradient of each parameter.

    This is the (sub)gradient of the L1 penalty ``rate * ||param||_1``.

    Args:
        rate (float): Coefficient of the penalty.

    Attributes:
        rate (float): Coefficient of the penalty.
        timing (str): ``'pre'``: called before the update.
        call_for_each_param (bool): ``True``: called for each parameter.
    """

    name = 'Lasso'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate):
        self.rate = rate

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        if isinstance(p, cuda.ndarray):
            with p.device:
                cuda.elementwise(
                    'T s, T decay', 'T g', 'g += decay * s',
                    'lasso')(cuda.cupy.sign(p), self.rate, g)
        else:
            g += self.rate * numpy.sign(p)
