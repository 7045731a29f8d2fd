"""Layer-wise adaptive rate scaling (LARS) as an optimizer hook."""

import numpy

from chainer.backends import cuda


class GradientLARS:
    """Scales each gradient by a layer-wise trust ratio (You et al., 2017).

    For a parameter ``p`` with gradient ``g``, the weight decay term is
    added first, ``g += weight_decay * p``, and then ``g`` is multiplied by

    ``||p|| / (eps + ||g|| + weight_decay * ||p||)`` if
    ``||p|| > threshold``, else by 1 (the norms are those before the
    decay is added).

    Args:
        threshold (float): Parameters of norm at most this are not scaled.
        weight_decay (float): Factor of the parameter added to its gradient.
        eps (float): Small constant keeping the denominator away from
            zero.

    Attributes:
        threshold (float): See above.
        weight_decay (float): See above.
        eps (float): See above.
        timing (str): ``'pre'``: called before the update.
        call_for_each_param (bool): ``True``: called for each parameter.
    """

    name = 'GradientLARS'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, threshold=1e-2, weight_decay=0.0, eps=1e-9):
        self.threshold = threshold
        self.weight_decay = weight_decay
        self.eps = eps

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        if isinstance(p, numpy.ndarray):
            p_norm = float(numpy.linalg.norm(p))
            g_norm = float(numpy.linalg.norm(g))
            rate = 1.0
            if p_norm > self.threshold:
                rate = p_norm / (
                    self.eps + g_norm + self.weight_decay * p_norm)
            g += self.weight_decay * p
            g *= g.dtype.type(rate)
            return
        cupy = cuda.cupy
        with param.device.create_context():
            p_norm = cupy.linalg.norm(p)
            g_norm = cupy.linalg.norm(g)
            local_rate = p_norm / (
                self.eps + g_norm + self.weight_decay * p_norm)
            rate = cupy.where(p_norm > self.threshold, local_rate, 1.0)
            cuda.elementwise(
                'T p, T rate, T weight_decay', 'T g',
                'g += weight_decay * p; g *= rate;',
                'lars')(p, rate.astype(p.dtype, copy=False),
                        self.weight_decay, g)
