"""Clipping of the global gradient norm as an optimizer hook."""

import math

import numpy


def _sum_sqnorm_grads(params):
    # The squared global norm: one partial sum per device, added on the
    # device for GPUs (no synchronization) and in float64 on the CPU.
    by_device = {}
    for param in params:
        if param.grad is not None:
            device = param.device
            by_device.setdefault(device.name, (device, []))[1].append(param)
    sums = []
    for device, group in by_device.values():
        with device.create_context():
            total = 0.0
            for param in group:
                g = param.grad.ravel()
                dot = g.dot(g)
                total = total + (float(dot) if device.xp is numpy else dot)
            sums.append((device, total))
    if len(sums) == 1:
        device, total = sums[0]
        return total, device
    return sum(float(total) for _, total in sums), None


class GradientClipping:
    """Rescales the gradients so that their global L2 norm is at most
    ``threshold``.

    The norm is taken over the gradients of all initialized parameters
    together; if it exceeds the threshold, every gradient is multiplied by
    ``threshold / norm``.

    Args:
        threshold (float): The largest allowed norm.

    Attributes:
        threshold (float): The largest allowed norm.
        timing (str): ``'pre'``: called before the update.
    """

    name = 'GradientClipping'
    timing = 'pre'

    def __init__(self, threshold):
        self.threshold = threshold

    def __call__(self, opt):
        params = list(opt.target.params(False))
        sqnorm, device = _sum_sqnorm_grads(params)
        if device is None or device.xp is numpy:
            norm = math.sqrt(sqnorm)
            if norm == 0:
                return
            rate = self.threshold / norm
            if rate >= 1:
                return
        else:
            with device.create_context():
                # Stays on the device: no synchronization for the test.
                rate = (self.threshold / device.xp.sqrt(sqnorm)).clip(
                    None, 1)
        for param in params:
            grad = param.grad
            if grad is None:
                continue
            if isinstance(grad, numpy.ndarray):
                grad *= grad.dtype.type(rate)
            else:
                with param.device.create_context():
                    grad *= rate
