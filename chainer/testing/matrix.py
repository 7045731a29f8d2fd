"""Random matrices with chosen singular values."""

import numpy

from chainer.utils import argument


def generate_matrix(shape, dtype=float, **kwargs):
    r"""generate_matrix(shape, dtype=float, *, singular_values)

    Generates a random matrix (or stack of matrices) with given singular
    values, e.g. to build well-conditioned inputs of linear algebra tests.

    Args:
        shape (tuple of int): Shape :math:`(B..., M, N)` of the result.
        dtype: A float or complex dtype.
        singular_values (array-like): Singular values, broadcastable to
            :math:`(B..., \min(M, N))`.

    Returns:
        numpy.ndarray: The matrices.

    Raises:
        ValueError: If ``shape`` has fewer than two axes or a singular value
            is negative.
        TypeError: If ``dtype`` is not float or complex, or the singular
            values are missing or not real.
    """
    singular_values = kwargs.pop('singular_values', None)
    argument.assert_kwargs_empty(kwargs)
    if len(shape) <= 1:
        raise ValueError(
            'shape {} is invalid for matrices: too few axes'.format(shape))
    dtype = numpy.dtype(dtype)
    if dtype.kind not in 'fc':
        raise TypeError('dtype {} is not supported'.format(dtype))
    if singular_values is None:
        raise TypeError('singular_values is not given')
    singular_values = numpy.asarray(singular_values)
    if not numpy.isrealobj(singular_values):
        raise TypeError('singular_values is not real')
    if (singular_values < 0).any():
        raise ValueError('negative singular value is given')
    k = min(shape[-2:])
    if 0 in shape:
        _broadcast_to(singular_values, tuple(shape[:-2]) + (k,))
        return numpy.empty(shape, dtype=dtype)
    a = numpy.random.randn(*shape)
    if dtype.kind == 'c':
        a = a + 1j * numpy.random.randn(*shape)
    u, s, vh = numpy.linalg.svd(a, full_matrices=False)
    sv = _broadcast_to(singular_values, s.shape)
    a = numpy.einsum('...ik,...k,...kj->...ij', u, sv, vh)
    return a.astype(dtype)


def _broadcast_to(array, shape):
    """Broadcasts ``array`` to ``shape`` (a read-only view)."""
    return numpy.broadcast_to(array, shape)
