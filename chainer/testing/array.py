"""Array assertions and array helpers used by tests."""

import io

import numpy


def _to_numpy(x):
    # Brings a Variable, a device array or a scalar to a NumPy array.
    x = getattr(x, 'array', x)
    if hasattr(x, 'get') and not isinstance(x, numpy.ndarray):
        x = x.get()
    return numpy.asarray(x)

def _write_element_report(f, x, y, atol, rtol):
    # Describes the element of ``x`` and ``y`` that exceeds the tolerance
    # by the largest margin.
    xx = numpy.atleast_1d(x)
    yy = numpy.atleast_1d(y)
    err = numpy.abs(xx - yy)
    tol_rtol = rtol * numpy.abs(yy).astype(numpy.float64)
    tol_err = atol + tol_rtol
    i = tuple(int(j) for j in numpy.unravel_index(
        numpy.argmax(err.astype(numpy.float64) - tol_err), err.shape))
    if yy[i] == 0:
        rel_err = 'inf'
    else:
        rel_err = err[i] / numpy.abs(yy[i])
    f.write('  i: {}\n'.format(i))
    f.write('  x[i]: {}\n'.format(xx[i]))
    f.write('  y[i]: {}\n'.format(yy[i]))
    f.write('  relative error[i]: {}\n'.format(rel_err))
    f.write('  absolute error[i]: {}\n'.format(err[i]))
    f.write('  relative tolerance * |y[i]|: {}\n'.format(tol_rtol[i]))
    f.write('  absolute tolerance: {}\n'.format(atol))
    f.write('  total tolerance: {}\n'.format(tol_err[i]))

def assert_allclose(x, y, atol=1e-5, rtol=1e-4, verbose=True):
    """Asserts that corresponding elements of ``x`` and ``y`` are close.

    Both arguments may be NumPy or CuPy arrays (mixed freely), Python or
    NumPy scalars, or :class:`~chainer.Variable` objects; everything is
    compared on the CPU. The check is the one of
    :func:`numpy.testing.assert_allclose`: ``|x - y| <= atol + rtol * |y|``.

    Args:
        x: Left-hand-side array.
        y: Right-hand-side array.
        atol (float): Absolute tolerance.
        rtol (float): Relative tolerance.
        verbose (bool): If ``True``, mismatching values are included in
            the error message.

    Raises:
        AssertionError: If some element differs too much. The message names
            the worst element and prints both arrays in full.
    """
    x = _to_numpy(x)
    y = _to_numpy(y)
    try:
        numpy.testing.assert_allclose(
            x, y, atol=atol, rtol=rtol, verbose=verbose)
    except AssertionError as e:
        f = io.StringIO()
        f.write(str(e) + '\n\n')
        f.write('assert_allclose failed:\n')
        f.write('  shape: {} {}\n'.format(x.shape, y.shape))
        f.write('  dtype: {} {}\n'.format(x.dtype, y.dtype))
        if x.shape == y.shape:
            _write_element_report(f, x, y, atol, rtol)
        with numpy.printoptions(threshold=10000):
            f.write('x: ' + numpy.array2string(x, prefix='x: ') + '\n')
            f.write('y: ' + numpy.array2string(y, prefix='y: ') + '\n')
        raise AssertionError(f.getvalue()) from None

def _as_noncontiguous_array(array):
    """Returns a non-contiguous copy of an array (or of each in a list).

    Arrays with at most one element are returned as they are, since they
    cannot be made non-contiguous. ``None`` is kept.
    """
    if isinstance(array, (list, tuple)):
        return type(array)([_as_noncontiguous_array(a) for a in array])
    if array is None or array.size <= 1:
        return array
    from chainer import backend

    xp = backend.get_array_module(array)
    step = (slice(None, None, -2),) * array.ndim
    if xp is numpy:
        buf = numpy.empty(
            tuple(2 * s for s in array.shape), dtype=array.dtype)
    else:
        with array.device:
            buf = xp.empty(
                tuple(2 * s for s in array.shape), dtype=array.dtype)
    buf[step] = array
    ret = buf[step]
    assert not ret.flags.c_contiguous
    return ret
