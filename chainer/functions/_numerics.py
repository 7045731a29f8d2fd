"""Array numerics shared by the functions and links.

Each piece of numerics that several operations need is written here once,
on raw NumPy or CuPy arrays (never Variables), so that every caller
computes it the same way:

* :func:`exp_shifted`, :func:`softmax`, :func:`log_softmax` and
  :func:`logsumexp`, all shifted by the maximum along the axis so that
  ``exp`` cannot overflow;
* :func:`sigmoid`, the logistic sigmoid written through ``tanh`` (and
  :data:`SIGMOID_CUDA_PREAMBLE`, the same formula for CUDA kernels);
* :func:`add_at`, an unbuffered scatter-add on either array module;
* :func:`rounded`, a float32 exponential rounded once from float64.

Rows with an infinite (or NaN) maximum are shifted by it like any other,
as in Chainer 7.8: such a row gives NaN in the softmax, the log-softmax
and the log-sum-exp (``-inf - (-inf)`` and ``inf - inf`` are NaN).
"""

import numpy

from chainer import _kernels
from chainer import backend
from chainer.backends import cuda
from chainer import utils


def rounded(func, a):
    """Writes ``func(a)`` into ``a``, an exponential such as ``numpy.exp``
    or ``numpy.expm1``; returns ``a``.

    For a float32 NumPy array it is computed in float64 and rounded once,
    which gives the nearest float32 values: those of the compiled kernels,
    and the ones Chainer's documented examples show, where NumPy 2's
    vectorized float32 exponentials are an ulp off in about a third of the
    elements.
    """
    if isinstance(a, numpy.ndarray) and a.dtype == numpy.float32:
        a[...] = func(a, dtype=numpy.float64)
    else:
        func(a, out=a)
    return a


def exp_shifted(x, axis, dtype=None, round_exp=False):
    """``exp(x - max(x))`` along an axis, its sum and the maximum.

    Args:
        x (:ref:`ndarray`): A float array.
        axis (int or tuple of int or None): The axis (or axes) to reduce.
        dtype: The dtype in which the sum is accumulated; that of ``x`` if
            ``None``.
        round_exp (bool): Whether the exponentials are computed by
            :func:`rounded`.

    Returns:
        tuple: ``(e, s, m)``: ``m`` the maximum of ``x`` along ``axis``,
        ``e = exp(x - m)`` a new array of the shape and dtype of ``x``,
        and ``s`` the sum of ``e`` along ``axis``. ``m`` and ``s`` keep
        the reduced axes with length one.
    """
    xp = backend.get_array_module(x)
    m = x.max(axis=axis, keepdims=True)
    e = utils.force_array(x - m)
    if round_exp:
        rounded(xp.exp, e)
    else:
        xp.exp(e, out=e)
    s = utils.force_array(e.sum(axis=axis, keepdims=True, dtype=dtype))
    return e, s, m


def log_of_shifted_sum(s, m, out=None):
    """``log(s) + m``: the log-sum-exp from :func:`exp_shifted`'s sum and
    maximum.

    Args:
        s (:ref:`ndarray`): The sum of the shifted exponentials.
        m (:ref:`ndarray`): The shift (the maximum).
        out (:ref:`ndarray`): Where to write the result (``s`` itself
            may be given); a new array if ``None``.

    Returns:
        :ref:`ndarray`: The log-sum-exp, in the dtype of ``s``.
    """
    xp = backend.get_array_module(s)
    y = utils.force_array(xp.log(s, out=out))
    y += m
    return y


def logsumexp(x, axis, dtype=None):
    """``log(sum(exp(x)))`` along an axis, computed stably.

    Args:
        x (:ref:`ndarray`): A float array.
        axis (int or tuple of int or None): The axis (or axes) to reduce.
        dtype: The dtype of the sum and of the result; that of ``x`` if
            ``None``.

    Returns:
        :ref:`ndarray`: The result, with the reduced axes kept with length
        one.
    """
    _, s, m = exp_shifted(x, axis, dtype)
    return log_of_shifted_sum(s, m, out=s)


def softmax(x, axis):
    """``exp(x) / sum(exp(x))`` along an axis, as a new array.

    Args:
        x (:ref:`ndarray`): A float array with at least one dimension.
        axis (int): The axis along which the softmax is taken.

    Returns:
        :ref:`ndarray`: The softmax, of the shape and dtype of ``x`` (a
        copy of ``x`` if the axis has length zero).
    """
    if x.shape[axis] == 0:
        return x.copy()
    y = _softmax_kernel(x, axis, False)
    if y is not None:
        return y
    # The exponentials rounded as the compiled kernel rounds them.
    e, s, _ = exp_shifted(x, axis, round_exp=True)
    e /= s
    return e


def log_softmax(x, axis, dtype=None):
    """``x - logsumexp(x)`` along an axis, as a new array.

    Args:
        x (:ref:`ndarray`): A float array with at least one dimension.
        axis (int): The axis along which the softmax is taken.
        dtype: The dtype of the log-sum-exp that is subtracted; that of
            ``x`` if ``None``.

    Returns:
        :ref:`ndarray`: The log-softmax, of the shape of ``x`` (a copy of
        ``x`` if the axis has length zero).
    """
    if x.shape[axis] == 0:
        return x.copy()
    if dtype is None or dtype == x.dtype:
        y = _softmax_kernel(x, axis, True)
        if y is not None:
            return y
    return x - logsumexp(x, axis, dtype)


def _softmax_kernel(x, axis, log):
    # The compiled (log-)softmax of float32 or float64 NumPy arrays, or
    # None.
    return _kernels.call((x,), _kernels.FLOATS, lambda k: (
        k.softmax_forward(numpy.ascontiguousarray(x), axis, log)))


#: The logistic sigmoid for CUDA kernels: a ``sigmoid(x)`` template of the
#: same formula as :func:`sigmoid`, to pass as (part of) a ``preamble``.
SIGMOID_CUDA_PREAMBLE = '''
template <typename T> __device__ T sigmoid(T x) {
    const T half = 0.5;
    return tanh(x * half) * half + half;
}
'''


def sigmoid(x, out=None):
    """The logistic sigmoid ``1 / (1 + exp(-x))``, element-wise.

    It is computed as ``tanh(x / 2) / 2 + 1 / 2``, which cannot overflow
    for any ``x``.

    Args:
        x (:ref:`ndarray`): A float array.
        out (:ref:`ndarray`): Where to write the result (``x`` itself may
            be given); a new array of the shape, dtype and memory layout of
            ``x`` if ``None``.

    Returns:
        :ref:`ndarray`: The sigmoid of ``x``.
    """
    if not isinstance(x, numpy.ndarray):
        kernel = cuda.elementwise(
            'T x', 'T y', 'y = sigmoid(x)', 'chainer_sigmoid',
            preamble=SIGMOID_CUDA_PREAMBLE)
        return kernel(x) if out is None else kernel(x, out)
    if out is None:
        out = numpy.empty_like(x)
    half = x.dtype.type(0.5)
    numpy.multiply(x, half, out=out)
    numpy.tanh(out, out=out)
    out *= half
    out += half
    return out


def add_at(a, index, values):
    """Adds ``values`` into ``a[index]`` in place, unbuffered.

    Unlike ``a[index] += values``, an element that ``index`` selects
    several times receives the sum of all its values. It is
    :func:`numpy.add.at` on NumPy arrays and :func:`cupyx.scatter_add` on
    CuPy ones.

    Args:
        a (:ref:`ndarray`): The array to add into.
        index: An index of ``a`` (integer arrays, slices or a tuple of
            them).
        values (:ref:`ndarray`): The values, broadcast to ``a[index]``.
    """
    if isinstance(a, numpy.ndarray):
        numpy.add.at(a, index, values)
    else:
        cuda.cupyx.scatter_add(a, index, values)
