"""Initializer that fills arrays with (semi-)orthogonal matrices."""

import numpy

from chainer import backend
from chainer import initializer
from chainer.utils import argument


# mode -> (require in_dim <= out_dim, require in_dim >= out_dim)
_mode_checks = {
    'auto': (False, False),
    'projection': (False, True),
    'embedding': (True, False),
    'basis': (True, True),
}


class Orthogonal(initializer.Initializer):
    """Fills an array with a scaled (semi-)orthogonal matrix.

    The array is seen as a matrix of ``shape[0]`` rows and
    ``prod(shape[1:])`` columns. A matrix of standard normal draws of that
    shape is decomposed by QR (of its transpose when it has more columns
    than rows), the signs of ``Q``'s columns are fixed so that ``R`` has a
    non-negative diagonal, and ``scale * Q`` fills the array. Its rows are
    then orthogonal if there are no more rows than columns, its columns
    otherwise. A 0-dimensional array gets ``scale`` or ``-scale``.

    The draws come from NumPy's generator (or ``rng``) whatever the array's
    device, so a seed gives the same matrix on CPU and GPU.

    Args:
        scale (float): Multiplier of the orthogonal matrix.
        dtype: Data type of the arrays this initializer fills.
        mode (str): Which shapes are accepted: ``'auto'`` (any),
            ``'projection'`` (no more rows than columns), ``'embedding'``
            (no more columns than rows) or ``'basis'`` (square).
        rng (keyword only): A random number generator with ``normal`` and
            ``randint`` methods; ``numpy.random`` if omitted.

    See: Saxe et al., `Exact solutions to the nonlinear dynamics of
    learning in deep linear neural networks <https://arxiv.org/abs/1312.6120>`_
    """

    def __init__(self, scale=1.1, dtype=None, mode='auto', **kwargs):
        self.scale = scale
        self.mode = mode
        self.rng, = argument.parse_kwargs(kwargs, ('rng', None))
        if mode not in _mode_checks:
            raise ValueError('Invalid mode: {}. Choose from {}.'.format(
                repr(mode), ', '.join(repr(m) for m in _mode_checks)))
        self._checks = _mode_checks[mode]
        super().__init__(dtype)

    def __call__(self, array):
        if self.dtype is not None:
            assert array.dtype == self.dtype, \
                '{} != {}'.format(array.dtype, self.dtype)
        rng = numpy.random if self.rng is None else self.rng
        if array.ndim == 0:
            sign = 2 * int(rng.randint(2)) - 1
            array[...] = self.scale * sign
            return
        if array.size == 0:
            raise ValueError('Array to be initialized must be non-empty.')
        out_dim = array.shape[0]
        in_dim = array.size // out_dim
        if (in_dim > out_dim and self._checks[0]) or (
                in_dim < out_dim and self._checks[1]):
            raise ValueError(
                'Cannot make orthogonal {}. shape = {}, interpreted as '
                '{}-dim input and {}-dim output.'.format(
                    self.mode, array.shape, in_dim, out_dim))
        a = backend.CpuDevice().send(rng.normal(size=(out_dim, in_dim)))
        wide = in_dim > out_dim
        if wide:
            a = a.T
        q, r = numpy.linalg.qr(a)
        q *= numpy.copysign(self.scale, numpy.diag(r))
        if wide:
            q = q.T
        backend.copyto(
            array, q.reshape(array.shape).astype(array.dtype, copy=False))
