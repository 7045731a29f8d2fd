"""CUDA source of the N-dimensional average pooling kernels."""

from chainer.functions.pooling import pooling_nd_kernel


class AveragePoolingNDKernelForward(pooling_nd_kernel.PoolingNDKernelForward):

    """Forward kernel: the sum over each window times ``coeff``.

    It takes the scalar (or element-wise) ``coeff`` after the sizes: the
    inverse of the window size, or of the number of its elements within
    the input.
    """

    def name(self):
        return 'avg'

    def in_params(self):
        return ['T coeff']

    def before(self):
        return 'T val = 0;'

    def main(self, offset, xs):
        return 'val = val + in[{}];'.format(offset)

    def after(self, out_xs):
        return 'out = val * coeff;'


class AveragePoolingNDKernelBackward(
        pooling_nd_kernel.PoolingNDKernelBackward):

    """Backward kernel: each input element sums the gradients of the
    windows that hold it (``gy`` is scaled beforehand)."""

    def name(self):
        return 'avg'

    def before(self):
        return 'T val = 0;'

    def main(self, offset, xs, out_xs):
        return 'val = val + gy[{}];'.format(offset)

    def after(self, xs):
        return 'gx = val;'
