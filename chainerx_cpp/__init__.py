"""Compiled CPU kernels for Chainer's hot operations.

The extension module ``chainerx_cpp._kernels`` is built by ``setup.py``
against oneDNN (the ``onednn-cpu-gomp`` wheels) when the package is
installed; ``CHAINER_BUILD_CHAINERX_CPP=0`` skips the build. Without it the
library runs on its NumPy code paths, and :func:`is_available` and
:func:`print_runtime_info` say why the kernels are off.

This package imports nothing of ``chainer``: the operations of
``chainer.functions`` call it.
"""

import ctypes
import importlib
import os
import sys
import warnings

_module = None
_reason = None
_malloc_setting = 'glibc defaults'

# glibc's malloc maps each block of 128 KiB or more fresh (raising the bar
# only as such blocks are freed) and returns freed memory above 128 KiB at
# its heap's top to the system; every page of fresh memory faults when
# first touched. The arrays of a training step are allocated and freed
# anew each step, so their pages may fault every step. keep_freed_memory()
# serves such blocks from the heap and keeps them there instead. It changes
# malloc for the whole process, so it runs only when the program asks.
_MMAP_THRESHOLD = 32 << 20  # the most glibc takes on 64-bit systems
_TRIM_THRESHOLD = 256 << 20


def _preload_onednn():
    # The extension links to libdnnl.so.3, which the onednn-cpu-gomp wheel
    # puts in the environment's lib/ folder, off the loader's search path.
    # Loading it by its full path first lets the loader find it by soname.
    try:
        from importlib import metadata
        dist = metadata.distribution('onednn-cpu-gomp')
    except Exception:  # the wheel is not installed
        candidates = [os.path.join(sys.prefix, 'lib', 'libdnnl.so.3')]
    else:
        candidates = [str(dist.locate_file(f)) for f in dist.files or ()
                      if str(f).endswith('libdnnl.so.3')]
    for path in candidates:
        if os.path.exists(path):
            ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
            return


def _load():
    global _module, _reason
    name = 'chainerx_cpp._kernels'
    try:
        _preload_onednn()
        _module = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            _not_loaded('the extension module did not load ({})'.format(e))
        else:
            _reason = ('the extension module is not built (see setup.py; '
                       'CHAINER_BUILD_CHAINERX_CPP=0 skips it)')
    except ImportError as e:
        _not_loaded('the extension module did not load ({})'.format(e))
    except OSError as e:
        _not_loaded('oneDNN did not load ({})'.format(e))
    if _module is not None \
            and os.environ.get('CHAINERX_CPP_KEEP_FREED_MEMORY') == '1':
        keep_freed_memory()


def _not_loaded(reason):
    # A module that is built and does not load (built for another Python,
    # or oneDNN's library gone) warns, unless the kernels are switched off:
    # the NumPy paths would be slower without saying why. One that is not
    # built leaves the kernels off silently.
    global _reason
    _reason = reason
    if os.environ.get('CHAINER_USE_CHAINERX_CPP') != 'never':
        warnings.warn(
            'chainerx_cpp: {}; the operations run on their NumPy code, '
            'which is slower. Reinstalling Chainer rebuilds the kernels; '
            'CHAINER_USE_CHAINERX_CPP=never silences this warning.'.format(
                reason), RuntimeWarning, stacklevel=3)


def keep_freed_memory():
    """Makes glibc's malloc keep freed memory for the next arrays.

    By default glibc maps each block of 128 KiB or more fresh and gives it
    back to the system when it is freed, so the arrays that a training
    step allocates anew fault on each of their pages every step. This
    function sets ``M_MMAP_THRESHOLD`` to 32 MiB and ``M_TRIM_THRESHOLD``
    to 256 MiB, so that such blocks come from the heap and stay there when
    freed: fewer page faults, and a process that holds on to up to 256 MiB
    of freed memory. The setting is process-wide and cannot be undone, so
    the library never applies it by itself; a training script opts in by
    calling this function, or by starting with
    ``CHAINERX_CPP_KEEP_FREED_MEMORY=1`` in its environment. Malloc
    settings already in the environment (``MALLOC_MMAP_THRESHOLD_``,
    ``MALLOC_TRIM_THRESHOLD_``, ``GLIBC_TUNABLES``) are left as they are.

    Returns:
        bool: Whether glibc's settings are now the ones described (``False``
        without the kernels, off glibc, or when the environment sets
        malloc).
    """
    global _malloc_setting
    if _module is None:
        return False
    if 'MALLOC_MMAP_THRESHOLD_' in os.environ \
            or 'MALLOC_TRIM_THRESHOLD_' in os.environ \
            or 'glibc.malloc.' in os.environ.get('GLIBC_TUNABLES', ''):
        _malloc_setting = 'as set by the environment'
        return False
    if not _module.keep_freed_memory(_MMAP_THRESHOLD, _TRIM_THRESHOLD):
        _malloc_setting = 'glibc defaults (not glibc: unchanged)'
        return False
    _malloc_setting = (
        'blocks up to {} MiB from the heap, up to {} MiB freed kept'
        .format(_MMAP_THRESHOLD >> 20, _TRIM_THRESHOLD >> 20))
    return True


_load()


def is_available():
    """Returns whether the compiled kernels loaded."""
    return _module is not None


def unavailable_reason():
    """Returns why the kernels are off, or ``None`` when they are on."""
    return _reason


def get_kernels():
    """Returns the extension module, or ``None`` when it did not load."""
    return _module


def array_cache_info():
    """Returns what the kernels' array cache holds.

    The arrays the kernels return (64 KiB and more) come from a cache of
    freed blocks, so that the arrays a training step makes anew each step
    reuse memory whose pages are mapped already instead of faulting on
    each page. The cache is a NumPy memory handler in force only while a
    kernel allocates its outputs: every other array, and malloc itself,
    are left as they are. It keeps at most 256 MiB of freed memory, and
    gives all of it back to malloc when it misses while holding more than
    half of that.

    Returns:
        dict: ``cached_bytes`` (freed memory held for the next arrays),
        ``hits`` and ``misses`` (allocations served from it, or not);
        ``None`` without the kernels.
    """
    if _module is None:
        return None
    return _module.array_cache_info()


def clear_array_cache():
    """Gives the freed memory the array cache holds back to malloc.

    Returns:
        int: How many bytes were released (0 without the kernels).
    """
    if _module is None:
        return 0
    return _module.clear_array_cache()


def print_runtime_info(out=None):
    """Prints whether the kernels are on, the oneDNN version and threads."""
    if out is None:
        out = sys.stdout
    if _module is None:
        out.write('chainerx_cpp: Not Available ({})\n'.format(_reason))
        return
    out.write('chainerx_cpp: Available\n')
    out.write('  oneDNN: {}.{}.{}\n'.format(*_module.onednn_version()))
    out.write('  OpenMP threads: {}\n'.format(_module.num_threads()))
    out.write('  malloc: {}\n'.format(_malloc_setting))
    out.write('  array cache: {} MiB held\n'.format(
        _module.array_cache_info()['cached_bytes'] >> 20))
