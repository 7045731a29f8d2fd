"""Generators of the CUDA source of N-dimensional im2col and col2im.

A generator returns, for a number ``ndim`` of spatial axes, the
``(in_params, out_params, operation, name)`` of a
:class:`cupy.ElementwiseKernel`, to be made by
:func:`chainer.backends.cuda.elementwise`; the kernel's loop index ``i``
runs over the output elements. The
sizes are scalar parameters named after their axis: ``d_0, d_1, ...`` (the
input), ``out_*`` (the output), ``k_*`` (the kernel), ``s_*`` (the
strides), ``p_*`` (the paddings) and ``di_*`` (the dilations). Generating
the source needs neither CuPy nor a GPU; the generated sources are
memoized with :func:`chainer.backends.cuda.memoize`.

The small helpers build C expressions and declarations from lists of
names; the N-dimensional pooling kernels
(:mod:`chainer.functions.pooling.pooling_nd_kernel`) use them too.
"""

from chainer.backends import cuda


def mulexp(xs, init=None):
    """The C product ``init * x_0 * x_1 * ...`` of the names ``xs``.

    Args:
        xs (list of str): The factors.
        init (str): A first factor, if not ``None``.

    Returns:
        str: The expression.
    """
    return ' * '.join(([] if init is None else [init]) + list(xs))


def andexp(xs, init=None):
    """The C conjunction ``init && x_0 && x_1 && ...`` of ``xs``.

    Args:
        xs (list of str): The conditions.
        init (str): A first condition, if not ``None``.

    Returns:
        str: The expression.
    """
    return ' && '.join(([] if init is None else [init]) + list(xs))


def muladdexp(xs, ys, init=None):
    """The Horner form ``(y_n + x_n * (... (y_0 + x_0 * init)))``.

    With ``xs`` the sizes of axes and ``ys`` coordinates along them, it is
    the flat index of an element in a C-contiguous array, the coordinates
    of the outer axes being folded in ``init``.

    Args:
        xs (list of str): The multipliers.
        ys (list of str): The terms.
        init (str): The innermost expression; if ``None``, the first term
            ``y_0`` is (and ``x_0`` is not used).

    Returns:
        str: The expression.
    """
    pairs = list(zip(xs, ys))
    if init is None:
        (_, init), pairs = pairs[0], pairs[1:]
    expression = init
    for x, y in pairs:
        expression = '({} + {} * {})'.format(y, x, expression)
    return expression


def map_(fn, *lst):
    """``list(map(fn, *lst))``."""
    return list(map(fn, *lst))


def succ_sublists(xs):
    """The suffixes ``xs[0:], xs[1:], ..., xs[-1:]`` of a list."""
    return [xs[i:] for i in range(len(xs))]


def vars(prefix, n):
    """The names ``prefix_0, ..., prefix_{n-1}`` of the axes."""
    return ['{}_{}'.format(prefix, i) for i in range(n)]


def coordinate_decls(names, sizes, inner=(), shifts=None, index='i'):
    """Declarations splitting a flat index into coordinates.

    The elements are laid out C-contiguously with the axes ``sizes``
    followed by the faster axes ``inner``; ``names`` receive the
    coordinates along ``sizes``.

    Args:
        names (list of str): The names of the coordinates.
        sizes (list of str): The sizes of their axes.
        inner (list of str): The sizes of the faster axes.
        shifts (list of str): Added to each coordinate, if not ``None``.
        index (str): The flat index; the kernel's loop index by default.

    Returns:
        list of str: One ``int`` declaration a coordinate.
    """
    decls = []
    for k, (name, axes) in enumerate(zip(names, succ_sublists(sizes))):
        faster = list(axes[1:]) + list(inner)
        if faster:
            value = '{} / ({}) % {}'.format(index, mulexp(faster), axes[0])
        else:
            value = '{} % {}'.format(index, axes[0])
        if shifts is not None:
            value = '{} + {}'.format(value, shifts[k])
        decls.append('int {} = {};'.format(name, value))
    return decls


def size_params(*names):
    """The ``int32`` scalar parameters of the given lists of names."""
    return ['int32 {}'.format(name) for group in names for name in group]


class Writer:

    """Accumulates lines of C source, indented by blocks.

    An ``indent`` of ``'inc'`` indents the lines after the written one (it
    opens a block), ``'dec'`` unindents the written line and the next ones
    (it closes a block), and ``'decinc'`` unindents only the written line
    (as ``} else {``).
    """

    def __init__(self):
        self._indent = 0
        self._lines = []

    def write(self, line, indent=None):
        """Writes a line.

        Args:
            line (str): The line, without indentation.
            indent (str): ``None``, ``'inc'``, ``'dec'`` or ``'decinc'``.
        """
        if indent in ('dec', 'decinc'):
            self._indent -= 1
        self._lines.append('  ' * self._indent + line)
        if indent in ('inc', 'decinc'):
            self._indent += 1

    def get(self):
        """Returns the lines written, joined by newlines."""
        return '\n'.join(self._lines)


def _axis_names(ndim):
    # The size parameters of every axis: input, output, kernel, strides,
    # paddings and dilations.
    return [vars(prefix, ndim) for prefix in ('d', 'out', 'k', 's', 'p',
                                              'di')]


class Im2colNDKernel:

    """Source of the kernel gathering the filter windows of an image.

    The kernel reads the image ``img`` of shape ``(n, c, d_0, ...)`` and
    writes the column array ``col`` of shape
    ``(n, c, k_0, ..., out_0, ...)``, zero where a window covers the
    padding. It is called with the image, the sizes (``d``, ``out``,
    ``k``, ``s``, ``p`` and ``di`` of each axis, in this order) and the
    column array.
    """

    def _generate(self, ndim):
        ds, outs, ks, ss, ps, dis = _axis_names(ndim)
        kxs = vars('kx', ndim)
        out_xs = vars('out_x', ndim)
        ins = vars('in', ndim)
        w = Writer()
        w.write('int c0 = i / ({});'.format(mulexp(ks + outs)))
        for decl in (coordinate_decls(kxs, ks, outs)
                     + coordinate_decls(out_xs, outs)):
            w.write(decl)
        for in_, kx, out_x, s, p, di in zip(ins, kxs, out_xs, ss, ps, dis):
            w.write('int {} = {} * {} + {} * {} - {};'.format(
                in_, kx, di, out_x, s, p))
        inside = andexp(['0 <= {0} && {0} < {1}'.format(in_, d)
                         for in_, d in zip(ins, ds)])
        w.write('if ({}) {{'.format(inside), 'inc')
        w.write('col = img[{}];'.format(muladdexp(ds, ins, 'c0')))
        w.write('} else {', 'decinc')
        w.write('col = (T)0;')
        w.write('}', 'dec')
        in_params = ', '.join(
            ['raw T img'] + size_params(ds, outs, ks, ss, ps, dis))
        return in_params, 'T col', w.get(), 'im2col_{}d'.format(ndim)

    @staticmethod
    @cuda.memoize()
    def generate(ndim):
        """Returns ``(in_params, out_params, operation, name)`` for
        ``ndim`` spatial axes."""
        return _im2col_nd_kernel._generate(ndim)


_im2col_nd_kernel = Im2colNDKernel()


class Col2imNDKernel:

    """Source of the kernel summing a column array back into an image.

    The kernel reads the column array ``col`` of shape
    ``(n, c, k_0, ..., out_0, ...)`` and writes the image ``img`` of shape
    ``(n, c, d_0, ...)``: each pixel is the sum of the column elements
    taken from it. It is called with the column array, the sizes (as
    :class:`Im2colNDKernel`) and the image.
    """

    def _generate(self, ndim):
        ds, outs, ks, ss, ps, dis = _axis_names(ndim)
        xs = vars('x', ndim)
        kxs = vars('kx', ndim)
        out_xs = vars('out_x', ndim)
        w = Writer()
        w.write('int c0 = i / ({});'.format(mulexp(ds)))
        for decl in coordinate_decls(xs, ds):
            w.write(decl)
        w.write('T val = 0;')
        # For each kernel offset, the output position whose window takes
        # the pixel there, if any.
        for x, kx, out_x, out, k, s, p, di in zip(
                xs, kxs, out_xs, outs, ks, ss, ps, dis):
            w.write('for (int {0} = 0; {0} < {1}; ++{0}) {{'.format(kx, k),
                    'inc')
            w.write('int {} = {} + {} - {} * {};'.format(out_x, x, p, kx, di))
            w.write('if ({0} < 0 || {0} >= {1} * {2} || {0} % {2} != 0) '
                    'continue;'.format(out_x, out, s))
            w.write('{} /= {};'.format(out_x, s))
        w.write('val = val + col[{}];'.format(
            muladdexp(outs, out_xs, muladdexp(ks, kxs, 'c0'))))
        for _ in range(ndim):
            w.write('}', 'dec')
        w.write('img = val;')
        in_params = ', '.join(
            ['raw T col'] + size_params(ds, outs, ks, ss, ps, dis))
        return in_params, 'T img', w.get(), 'col2im_{}d'.format(ndim)

    @staticmethod
    @cuda.memoize()
    def generate(ndim):
        """Returns ``(in_params, out_params, operation, name)`` for
        ``ndim`` spatial axes."""
        return _col2im_nd_kernel._generate(ndim)


_col2im_nd_kernel = Col2imNDKernel()
