"""The door from the operations to the compiled CPU kernels.

An operation runs a kernel through :func:`call`::

    y = _kernels.call((x, W), _kernels.FLOAT32, lambda k: k.kernel(x, W))
    if y is not None:
        return y
    ...  # the NumPy code

``call`` runs the kernel with the ``chainerx_cpp`` extension module when
``chainer.config.use_chainerx_cpp`` allows it and every array is a NumPy
array of a dtype the kernel takes (:func:`get` says whether), and returns
``None`` otherwise, or when the kernel meets a case it does not cover and
raises ``Unsupported`` (``chainerx_cpp.Unsupported``): the operation then
runs its NumPy code, which stays the reference.

Two other uses stand outside ``call``. :func:`get` only asks whether a
kernel would run, for an operation that chooses between two ways of
computing before it calls one (the weight gradient of ``linear``). The
layout helpers (:func:`to_layout`, :func:`plain`, :func:`layout_like`,
...) change the memory order of arrays, never their values, whatever
``use_chainerx_cpp`` says.

``use_chainerx_cpp`` (env ``CHAINER_USE_CHAINERX_CPP``) is ``'auto'`` (use
the kernels when they are built), ``'always'`` (the same, but an error when
they are not) or ``'never'``. A process forked after the kernels ran uses
the NumPy paths whatever the setting (see ``_after_fork_in_child``).
"""

import os

import numpy

from chainer import configuration

try:
    import chainerx_cpp
except ImportError:  # the package is absent, not only the module
    chainerx_cpp = None

_module = None if chainerx_cpp is None else chainerx_cpp.get_kernels()

FLOAT32 = (numpy.dtype(numpy.float32),)
FLOATS = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))

#: The number of elements from which the kernels' memory-bound loops run
#: on two threads (kParallelGrain in chainerx_cpp/tuning.hpp). Below it
#: they run on one, as NumPy's ufuncs do, and gain nothing over them.
#: ``None`` without the kernels.
PARALLEL_GRAIN = None if _module is None else _module.parallel_grain


class _NotRaised(Exception):
    pass


#: The exception a kernel raises for a case it does not cover.
Unsupported = _NotRaised if _module is None else _module.Unsupported

_MODES = ('auto', 'always', 'never')

# GNU OpenMP cannot run a parallel region in a child forked after the parent
# ran one: the worker threads it would wait for do not exist in the child,
# which would hang. A child forked after the kernels ran (a
# MultiprocessParallelUpdater worker, say) computes on the NumPy paths.
_ran = False
_in_forked_child = False


def _after_fork_in_child():
    global _in_forked_child
    if _ran:
        _in_forked_child = True
    if _module is not None:
        # A lock of the array cache that another thread of the parent held
        # stays held in the child: the child starts a cache of its own.
        _module.reset_array_cache_after_fork()


if hasattr(os, 'register_at_fork'):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _enabled():
    if _in_forked_child:
        return False
    mode = configuration.config.use_chainerx_cpp
    if mode == 'auto':
        return _module is not None
    if mode == 'never':
        return False
    if mode == 'always':
        if _module is None:
            reason = (chainerx_cpp.unavailable_reason() if chainerx_cpp
                      else 'the chainerx_cpp package is missing')
            raise RuntimeError(
                'use_chainerx_cpp is \'always\' but the compiled kernels '
                'are not available: {}'.format(reason))
        return True
    raise ValueError('use_chainerx_cpp must be one of {}, not {!r}'.format(
        _MODES, mode))


def is_channels_last(a):
    """Whether ``a`` (N, C, spatial...) is laid out channels-last.

    That is, the buffer of a C-contiguous (N, spatial..., C) array seen with
    its channel axis moved to 1: the layout of the convolutions' outputs
    (the kernels' and the NumPy path of the original Chainer alike).
    """
    ndim = a.ndim
    if ndim < 3:
        return False
    shape, strides = a.shape, a.strides
    expected = a.itemsize
    # The axes from the innermost out: C, the spatial ones, N.
    for axis in (1,) + tuple(range(ndim - 1, 1, -1)) + (0,):
        if shape[axis] != 1 and strides[axis] != expected:
            return False
        expected *= shape[axis]
    return True


def plain(a):
    """``a`` if it is C-contiguous or channels-last, else a C-contiguous
    copy: the layouts the activation kernels take as they are."""
    if a.flags.c_contiguous or is_channels_last(a):
        return a
    return numpy.ascontiguousarray(a)


def strictly_channels_last(a):
    """Whether ``a`` is channels-last and not C-contiguous (with one
    channel, or one spatial element, both hold)."""
    return not a.flags.c_contiguous and is_channels_last(a)


def to_layout(a, channels_last):
    """``a`` channels-last (``channels_last``) or C-contiguous; copied
    when it is not, by the kernels' reorder where they take ``a``
    (float32, C-contiguous or channels-last: several times faster than
    NumPy's transposing copy)."""
    if is_channels_last(a) if channels_last else a.flags.c_contiguous:
        return a
    kernels = get((a,), FLOAT32)
    if kernels is not None and 3 <= a.ndim <= 5 and (
            a.flags.c_contiguous or is_channels_last(a)):
        return kernels.relayout(a, channels_last)
    if channels_last:
        return numpy.moveaxis(
            numpy.ascontiguousarray(numpy.moveaxis(a, 1, -1)), -1, 1)
    return numpy.ascontiguousarray(a)


def in_layout_of(a, like):
    """``a``, of the shape of ``like``, in the layout of ``like``
    (C-contiguous or channels-last); copied when it is not."""
    return to_layout(a, strictly_channels_last(like))


def layout_like(a, like):
    """``a`` in the layout of ``like`` where ``like`` is a channels-last
    NumPy array of its shape, else ``a`` itself.

    NumPy's element-wise operations on arrays of two layouts return C
    order and run several times slower than on one layout; this makes the
    second operand follow the first (as PyTorch's operations do), so that
    a residual sum of a convolution's output keeps its layout.
    """
    if (type(like) is numpy.ndarray and type(a) is numpy.ndarray
            and a.shape == like.shape and strictly_channels_last(like)):
        return in_layout_of(a, like)
    return a


def _memory_order(a):
    # The axes of `a` from the outermost in memory to the innermost when
    # `a` is a C-contiguous array with its axes permuted, else None.
    order = sorted(range(a.ndim), key=lambda axis: -a.strides[axis])
    if a.transpose(order).flags.c_contiguous:
        return order
    return None


def elementwise(kernel, *arrays):
    """Runs an element-wise kernel on arrays of one shape.

    The kernels take and return C-contiguous arrays. An input whose axes
    are those of a C-contiguous array permuted (Fortran order, the
    channels-last outputs of the convolutions) is passed as that array and
    the result permuted back, so that the output has its layout, as
    NumPy's ufuncs give; the other inputs are copied into the same layout.
    Other layouts are copied to C order.
    """
    first = arrays[0]
    if first.ndim > 1 and not first.flags.c_contiguous:
        order = _memory_order(first)
        if order is not None:
            others = [numpy.ascontiguousarray(
                layout_like(a, first).transpose(order)) for a in arrays[1:]]
            result = kernel(first.transpose(order), *others)
            return result.transpose(numpy.argsort(order))
    return kernel(*[numpy.asarray(a, order='C') for a in arrays])


def arithmetic(name, a, b):
    """Returns ``a + b``, ``a - b`` or ``a * b`` of two float arrays of one
    shape, or ``None``.

    ``name`` is the kernel's: ``'add'``, ``'subtract'`` or ``'multiply'``.
    Each result is rounded once, so it equals NumPy's element for element,
    in the layout the two arrays share (C order, or their axes permuted as
    in Fortran order or channels-last), as NumPy's is. The kernel is used
    where it runs on two threads (arrays of :data:`PARALLEL_GRAIN` elements
    or more) on arrays of one layout; ``None`` elsewhere, as from
    :func:`call`.
    """
    if (_module is None or a.size < PARALLEL_GRAIN or a.shape != b.shape
            or a.strides != b.strides
            or not (a.flags.c_contiguous or _memory_order(a) is not None)):
        return None
    return call((a, b), FLOATS,
                lambda k: elementwise(getattr(k, name), a, b))


def call(arrays, dtypes, run):
    """Returns ``run(kernels)`` with the kernel module for these arrays.

    ``None`` when :func:`get` gives no kernels for them, or when the
    kernel raises :data:`Unsupported`: the operation then runs its NumPy
    code. ``run`` computes the kernel's arguments, so that no copy is
    made for kernels that will not run.
    """
    kernels = get(arrays, dtypes)
    if kernels is None:
        return None
    try:
        return run(kernels)
    except Unsupported:
        return None


def get(arrays, dtypes=FLOAT32):
    """Returns the kernel module for these arrays, or ``None``.

    Args:
        arrays: The input arrays of the computation; ``None`` entries
            (an absent bias) are skipped.
        dtypes: The dtypes the kernel takes; all arrays must share one.

    """
    if not _enabled():
        return None
    dtype = None
    for a in arrays:
        if a is None:
            continue
        if type(a) is not numpy.ndarray or a.size == 0:
            return None
        if dtype is None:
            dtype = a.dtype
            if dtype not in dtypes:
                return None
        elif a.dtype != dtype:
            return None
    global _ran
    _ran = True
    return _module
