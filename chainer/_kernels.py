"""The one door from the operations to the compiled CPU kernels.

An operation asks :func:`get` for the kernels with the arrays it is about
to compute on; it gets the ``chainerx_cpp`` extension module when
``chainer.config.use_chainerx_cpp`` allows it and every array is a NumPy
array of a dtype the kernel takes, else ``None`` and runs its NumPy code.
A kernel that meets a case it does not cover raises ``Unsupported``
(``chainerx_cpp.Unsupported``), and the operation falls back the same way.

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


def compiled_core():
    """Returns the extension module for the autograd core's bookkeeping,
    or ``None``.

    Unlike the kernels, it is chosen once, when Chainer is imported: it is
    used whenever the kernels are built, unless ``use_chainerx_cpp`` is
    ``'never'`` then (``CHAINER_USE_CHAINERX_CPP=never``).
    """
    if configuration.global_config.use_chainerx_cpp == 'never':
        return None
    return _module


def elementwise(kernel, *arrays):
    """Runs an element-wise kernel on arrays of one shape.

    The kernels take and return C-contiguous arrays. Fortran-ordered
    inputs are passed as their (C-contiguous) transposes and the result
    transposed back, so that the output has the layout NumPy's ufuncs
    give, without a copy of the inputs; other layouts are copied to C
    order, as NumPy's output of them is.
    """
    if arrays[0].ndim > 1 and all([
            a.flags.f_contiguous and not a.flags.c_contiguous
            for a in arrays]):
        return kernel(*[a.T for a in arrays]).T
    return kernel(*[numpy.asarray(a, order='C') for a in arrays])


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
