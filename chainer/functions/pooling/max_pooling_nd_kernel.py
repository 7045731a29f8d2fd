"""CUDA source of the N-dimensional max pooling kernels.

The position of the maximum of a window is kept as its flat index within
the kernel (``indexes``, of an integer type ``S``), counted on the padded
input, as Chainer's max pooling does.
"""

from chainer.functions.pooling import pooling_nd_kernel
from chainer.utils import conv_nd_kernel


class MaxPoolingNDKernelForward(pooling_nd_kernel.PoolingNDKernelForward):

    """Forward kernel: the maximum of each window and its position.

    It writes ``out`` and ``indexes``; the first maximum wins.
    """

    def name(self):
        return 'max'

    def out_params(self):
        return ['S indexes']

    def before(self):
        self.argmaxs = conv_nd_kernel.vars('argmax', self.ndim)
        return '\n'.join(['T maxval = (T)(-1.0 / 0.0);'] + [
            'int {} = 0;'.format(argmax) for argmax in self.argmaxs])

    def main(self, offset, xs):
        w = conv_nd_kernel.Writer()
        w.write('T v = in[{}];'.format(offset))
        w.write('if (maxval < v) {', 'inc')
        w.write('maxval = v;')
        for argmax, x in zip(self.argmaxs, xs):
            w.write('{} = {};'.format(argmax, x))
        w.write('}', 'dec')
        return w.get()

    def after(self, out_xs):
        # The position of the maximum within the window, on each axis.
        in_window = conv_nd_kernel.vars('argmax_k', self.ndim)
        lines = ['out = maxval;']
        for name, argmax, p, out_x, s in zip(
                in_window, self.argmaxs, self.ps, out_xs, self.ss):
            lines.append('int {} = {} + {} - {} * {};'.format(
                name, argmax, p, out_x, s))
        lines.append('indexes = {};'.format(conv_nd_kernel.muladdexp(
            self.ks[1:], in_window[1:], in_window[0])))
        return '\n'.join(lines)


class MaxPoolingNDKernelBackward(pooling_nd_kernel.PoolingNDKernelBackward):

    """Backward kernel: each input element sums the gradients of the
    windows whose maximum it is.

    It takes the ``indexes`` of the forward kernel right after ``gy``.
    """

    def name(self):
        return 'max'

    def in_params(self):
        return ['raw S indexes'], []

    def before(self):
        return 'T val = 0;'

    def main(self, offset, xs, out_xs):
        in_window = ['({} - {} * {})'.format(x, out_x, s)
                     for x, out_x, s in zip(xs, out_xs, self.ss)]
        w = conv_nd_kernel.Writer()
        w.write('int kx = {};'.format(conv_nd_kernel.muladdexp(
            self.ks[1:], in_window[1:], in_window[0])))
        w.write('if (indexes[{}] == kx) {{'.format(offset), 'inc')
        w.write('val = val + gy[{}];'.format(offset))
        w.write('}', 'dec')
        return w.get()

    def after(self, xs):
        return 'gx = val;'


def _flat_input_index(coordinates, ds):
    # The flat index in ``in`` of the input coordinates, of image and
    # channel c0.
    return conv_nd_kernel.muladdexp(ds, coordinates, 'c0')


class MaxPoolingNDKernelForwardWithIndexes(
        pooling_nd_kernel.PoolingNDKernelForward):

    """Kernel reading ``in`` at the maxima given by ``indexes``.

    It takes, after the sizes, the ``indexes`` of
    :class:`MaxPoolingNDKernelForward`, and writes for each window the
    element of ``in`` at its maximum: the max pooling of another array
    with the same windows. A position out of the input (that of a window
    of padding only) is clamped into it.
    """

    def name(self):
        return 'max_index'

    def in_params(self):
        return ['raw S indexes']

    def _operation(self):
        decls, out_xs = self._index_decls()
        in_window = conv_nd_kernel.vars('index_k', self.ndim)
        maxs = conv_nd_kernel.vars('max', self.ndim)
        decls.append('int index = indexes[i];')
        decls += conv_nd_kernel.coordinate_decls(
            in_window, self.ks, index='index')
        for max_x, d, out_x, s, p, k in zip(
                maxs, self.ds, out_xs, self.ss, self.ps, in_window):
            decls.append('int {} = min({} - 1, max(0, {} * {} - {} + {}));'
                         .format(max_x, d, out_x, s, p, k))
        decls.append('out = in[{}];'.format(
            _flat_input_index(maxs, self.ds)))
        return '\n'.join(decls)


class MaxPoolingNDKernelForwardWithIndexes1(MaxPoolingNDKernelForward):

    """Kernel reading ``ggx`` at the maxima of the windows of ``in``.

    It takes ``ggx``, shaped as ``in``, after the sizes, finds the maximum
    of each window of ``in`` as :class:`MaxPoolingNDKernelForward` does,
    and writes the element of ``ggx`` there: the double backward of max
    pooling.
    """

    def name(self):
        return 'max_index1'

    def in_params(self):
        return ['raw T ggx']

    def out_params(self):
        return []

    def after(self, out_xs):
        return 'out = ggx[{}];'.format(
            _flat_input_index(self.argmaxs, self.ds))
