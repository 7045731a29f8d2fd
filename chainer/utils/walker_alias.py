"""Walker's alias method: O(1) sampling from a discrete distribution."""

import numpy

from chainer import backend
from chainer.backends import cuda
from chainer import device_resident


class WalkerAlias(device_resident.DeviceResident):
    """Samples integers ``i`` with probability proportional to
    ``probs[i]``.

    The table is built once in O(n): each of the ``n`` buckets holds a
    threshold and two values; a sample picks a bucket uniformly and one of
    its two values by comparing the fractional part of the draw with the
    threshold. Move the sampler to a GPU with :meth:`to_gpu` to sample
    there.

    Args:
        probs (array-like): Non-negative weights of the values
            ``0, ..., n - 1``; they need not sum to one.

    Attributes:
        threshold (ndarray): ``float32`` thresholds of the buckets.
        values (ndarray): ``int32`` pairs of values of the buckets,
            flattened to length ``2 * n``.
    """

    def __init__(self, probs):
        super().__init__()
        n = len(probs)
        prob = numpy.array(probs, numpy.float32)
        prob /= numpy.sum(prob)
        threshold = numpy.empty(n, numpy.float32)
        values = numpy.zeros(n * 2, numpy.int32)
        # Walk the values by increasing probability: bucket ``filled``
        # takes each value as its first entry, and a value whose scaled
        # probability exceeds one also tops up the earlier buckets
        # ``donated`` .. ``filled - 1`` as their second entry. The scaled
        # probabilities are tracked in double precision.
        filled = donated = 0
        for p, i in sorted(zip(prob, range(n))):
            p = float(p) * n
            while p > 1 and donated < filled:
                values[donated * 2 + 1] = i
                p -= 1.0 - float(threshold[donated])
                donated += 1
            threshold[filled] = p
            values[filled * 2] = i
            filled += 1
        self.threshold = threshold
        self.values = values

    @property
    def use_gpu(self):
        """Whether the table lives on a GPU."""
        xp = self.device.xp
        if xp is numpy:
            return False
        if xp is cuda.cupy:
            return True
        raise RuntimeError(
            'WalkerAlias.use_gpu attribute is only applicable for numpy or '
            'cupy devices. Use WalkerAlias.device attribute for general '
            'devices.')

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.threshold = visitor.visit_array(self.threshold)
        self.values = visitor.visit_array(self.values)

    def sample(self, shape):
        """Draws an ``int32`` array of samples.

        Args:
            shape (tuple of int): Shape of the result.

        Returns:
            ndarray: The samples, on the device of the table.
        """
        device = self.device
        with backend.using_device(device):
            if device.xp is numpy:
                return self.sample_xp(numpy, shape)
            return self.sample_gpu(shape)

    def sample_xp(self, xp, shape):
        """Draws samples with the array module ``xp``.

        Args:
            xp (module): ``numpy`` or ``cupy``, matching the table.
            shape (tuple of int): Shape of the result.
        """
        thr_dtype = self.threshold.dtype
        pb = xp.random.uniform(0, len(self.threshold), shape)
        index = pb.astype(numpy.int32)
        right = self.threshold[index] < (
            pb.astype(thr_dtype) - index.astype(thr_dtype))
        return self.values[index * 2 + right.astype(numpy.int32)]

    def sample_gpu(self, shape):
        """Draws samples on the GPU with one element-wise kernel.

        Args:
            shape (tuple of int): Shape of the result.
        """
        ps = cuda.cupy.random.uniform(size=shape, dtype=numpy.float32)
        return cuda.elementwise(
            'T ps, raw T threshold, raw S values, int32 b', 'int32 vs',
            '''
            T pb = ps * b;
            int index = __float2int_rd(pb);
            // the uniform draw may be exactly 1.0
            if (index >= b) {
              index = 0;
            }
            int right = threshold[index] < pb - index;
            vs = values[index * 2 + right];
            ''',
            'walker_alias_sample',
        )(ps, self.threshold, self.values, len(self.threshold))
