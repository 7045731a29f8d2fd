"""Generators of the CUDA source of N-dimensional pooling kernels.

:class:`PoolingNDKernelForward` and :class:`PoolingNDKernelBackward` write
the loops over the pooling windows shared by every pooling; a subclass
fills them in through a few methods returning C source:

- ``name()``: the pooling's name in the kernel name
  (``<name>_pool_<N>d_fwd`` or ``..._bwd``);
- ``in_params()`` and ``out_params()``: the kernel's extra parameters, as
  lists of declarations; ``in_params()`` may instead return a pair of
  lists, the first placed right after the main input (raw arrays read by
  the kernel) and the second after the sizes;
- ``before()``, ``main(...)`` and ``after(...)``: the code before the
  loops, in their innermost body and after them.

The forward kernel runs over the output elements: it reads the raw input
``in`` of shape ``(n, c, d_0, ...)`` and writes ``out``. The backward
kernel runs over the elements of the input: it reads the raw output
gradient ``gy`` and writes ``gx``. Both take the sizes ``d``, ``out``,
``k``, ``s`` and ``p`` of each axis, named as in
:mod:`chainer.utils.conv_nd_kernel`. Generating the source needs neither
CuPy nor a GPU.
"""

from chainer.backends import cuda
from chainer.utils import conv_nd_kernel


def _write_block(w, code):
    # Writes lines of C source at the current indentation.
    for line in code.split('\n'):
        w.write(line)


def _split_in_params(in_params):
    # (raw arrays after the main input, parameters after the sizes).
    if type(in_params) is tuple:
        return in_params
    return [], in_params


class _PoolingNDKernel:

    # What the forward and the backward kernels share.

    _direction = None
    _main_input = None
    _main_output = None

    def name(self):
        """Returns the name of the pooling, as in the kernel name."""
        raise NotImplementedError()

    def in_params(self):
        """Returns the extra input parameters (a list, or a pair of
        lists)."""
        return []

    def out_params(self):
        """Returns the extra output parameters."""
        return []

    def before(self):
        """Returns the code before the loops over the window."""
        raise NotImplementedError()

    @classmethod
    @cuda.memoize()
    def generate(klass, ndim):
        """Returns ``(in_params, out_params, operation, name)`` for
        ``ndim`` spatial axes."""
        return klass()._generate(ndim)

    def _generate(self, ndim):
        self.ndim = ndim
        self.ds = conv_nd_kernel.vars('d', ndim)
        self.outs = conv_nd_kernel.vars('out', ndim)
        self.ks = conv_nd_kernel.vars('k', ndim)
        self.ss = conv_nd_kernel.vars('s', ndim)
        self.ps = conv_nd_kernel.vars('p', ndim)
        raws, scalars = _split_in_params(self.in_params())
        in_params = ', '.join(
            [self._main_input] + list(raws)
            + conv_nd_kernel.size_params(
                self.ds, self.outs, self.ks, self.ss, self.ps)
            + list(scalars))
        out_params = ', '.join([self._main_output] + list(self.out_params()))
        name = '{}_pool_{}d_{}'.format(self.name(), ndim, self._direction)
        return in_params, out_params, self._operation(), name

    def _loops(self, w, counters, lows, highs, sizes, outer, main):
        # Nested loops of the counters over [low, high), the innermost body
        # being ``main`` (lines of C); ``offset_<k>`` is the flat index of
        # the first k + 1 counters in an array of the axes ``sizes``, the
        # outer axes being ``outer``.
        offsets = conv_nd_kernel.vars('offset', self.ndim)
        previous = [outer] + offsets[:-1]
        for counter, low, high, offset, prev, size in zip(
                counters, lows, highs, offsets, previous, sizes):
            w.write('for (int {0} = {1}; {0} < {2}; ++{0}) {{'.format(
                counter, low, high), 'inc')
            w.write('int {} = {} + {} * {};'.format(offset, counter, size,
                                                    prev))
        _write_block(w, main(offsets[-1]))
        for _ in counters:
            w.write('}', 'dec')


class PoolingNDKernelForward(_PoolingNDKernel):

    """Source of the forward kernel of an N-dimensional pooling.

    The loop index ``i`` runs over the output elements; ``c0`` is the
    index of the image and channel, ``out_x_*`` the output coordinates.
    The loops run ``x_*`` over the input coordinates of the window (within
    the input), ``offset`` being their flat index in ``in``.

    Subclasses define ``name()``, ``before()``, ``main(offset, xs)`` (the
    names of the flat index and of the input coordinates) and
    ``after(out_xs)`` (the names of the output coordinates), and may add
    parameters to ``in_params()`` and ``out_params()``.
    """

    _direction = 'fwd'
    _main_input = 'raw T in'
    _main_output = 'T out'

    def main(self, offset, xs):
        """Returns the body of the loops."""
        raise NotImplementedError()

    def after(self, out_xs):
        """Returns the code after the loops."""
        raise NotImplementedError()

    def _index_decls(self):
        # c0 and the output coordinates of element i.
        out_xs = conv_nd_kernel.vars('out_x', self.ndim)
        return (['int c0 = i / ({});'.format(
            conv_nd_kernel.mulexp(self.outs))]
            + conv_nd_kernel.coordinate_decls(out_xs, self.outs)), out_xs

    def _operation(self):
        w = conv_nd_kernel.Writer()
        decls, out_xs = self._index_decls()
        xs = conv_nd_kernel.vars('x', self.ndim)
        lows = conv_nd_kernel.vars('in_x0', self.ndim)
        highs = conv_nd_kernel.vars('in_x1', self.ndim)
        for low, high, d, out_x, k, s, p in zip(
                lows, highs, self.ds, out_xs, self.ks, self.ss, self.ps):
            decls.append('int {} = max(0, {} * {} - {});'.format(
                low, out_x, s, p))
            decls.append('int {} = min({}, {} * {} + {} - {});'.format(
                high, d, out_x, s, k, p))
        _write_block(w, '\n'.join(decls + [self.before()]))
        self._loops(w, xs, lows, highs, self.ds, 'c0',
                    lambda offset: self.main(offset, xs))
        _write_block(w, self.after(out_xs))
        return w.get()


class PoolingNDKernelBackward(_PoolingNDKernel):

    """Source of the backward kernel of an N-dimensional pooling.

    The loop index ``i`` runs over the elements of the input gradient
    ``gx``; ``c0`` is the index of the image and channel, ``x_*`` the
    coordinates in the padded input. The loops run ``out_x_*`` over the
    output coordinates whose windows hold the element, ``offset`` being
    their flat index in ``gy``.

    Subclasses define ``name()``, ``before()``, ``main(offset, xs,
    out_xs)`` and ``after(xs)``, and may add parameters to ``in_params()``
    and ``out_params()``.
    """

    _direction = 'bwd'
    _main_input = 'raw T gy'
    _main_output = 'T gx'

    def main(self, offset, xs, out_xs):
        """Returns the body of the loops."""
        raise NotImplementedError()

    def after(self, xs):
        """Returns the code after the loops."""
        raise NotImplementedError()

    def _operation(self):
        w = conv_nd_kernel.Writer()
        xs = conv_nd_kernel.vars('x', self.ndim)
        out_xs = conv_nd_kernel.vars('out_x', self.ndim)
        lows = conv_nd_kernel.vars('out_x0', self.ndim)
        highs = conv_nd_kernel.vars('out_x1', self.ndim)
        decls = (['int c0 = i / ({});'.format(
            conv_nd_kernel.mulexp(self.ds))]
            + conv_nd_kernel.coordinate_decls(xs, self.ds, shifts=self.ps))
        # The windows [out_x * s, out_x * s + k) that hold x.
        for low, high, x, out, k, s in zip(
                lows, highs, xs, self.outs, self.ks, self.ss):
            decls.append('int {} = max(0, ({} - {} + {}) / {});'.format(
                low, x, k, s, s))
            decls.append('int {} = min({}, ({} + {}) / {});'.format(
                high, out, x, s, s))
        _write_block(w, '\n'.join(decls + [self.before()]))
        self._loops(w, out_xs, lows, highs, self.outs, 'c0',
                    lambda offset: self.main(offset, xs, out_xs))
        _write_block(w, self.after(xs))
        return w.get()
