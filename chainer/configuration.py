"""Thread-local configuration: ``chainer.config`` and ``using_config``."""

import os
import sys
import threading
import warnings

import numpy


class GlobalConfig:
    """The process-wide default values of the configuration.

    Each thread reads an entry of :data:`chainer.config` from its own
    :class:`LocalConfig` first and falls back to this object.
    """

    def show(self, file=sys.stdout):
        """Prints the configuration entries, sorted by name.

        Args:
            file: A writable stream; standard output by default.
        """
        keys = sorted(self.__dict__)
        _print_attrs(self, keys, file)


class LocalConfig:
    """Thread-local configuration layered over a :class:`GlobalConfig`.

    Reading an entry that the current thread has not set returns the
    global value. Setting an entry affects the current thread only.
    """

    def __init__(self, global_config):
        super().__setattr__('_global', global_config)
        super().__setattr__('_local', threading.local())

    def __delattr__(self, name):
        delattr(self._local, name)

    def __getattr__(self, name):
        local = self._local.__dict__
        if name in local:
            return local[name]
        return getattr(self._global, name)

    def __setattr__(self, name, value):
        setattr(self._local, name, value)

    def show(self, file=sys.stdout):
        """Prints the entries seen by the current thread, sorted by name.

        Args:
            file: A writable stream; standard output by default.
        """
        keys = set(self._global.__dict__) | set(self._local.__dict__)
        _print_attrs(self, sorted(keys), file)


def _print_attrs(obj, keys, file):
    width = max(len(key) for key in keys)
    for key in keys:
        file.write('{} {}\n'.format(key.ljust(width), getattr(obj, key)))


global_config = GlobalConfig()
config = LocalConfig(global_config)


def _entry_tables():
    """Returns ``(thread_state, global_entries)``, for the hottest readers.

    ``thread_state.__dict__`` is the dict of the entries the current thread
    has set (with :func:`using_config`), ``global_entries`` the dict of the
    global values, so ``thread_state.__dict__.get(name,
    global_entries[name])`` reads ``chainer.config.<name>`` without the
    attribute lookups of :class:`LocalConfig`. Both objects live as long as
    the process: take them once, at import time.
    """
    return config._local, global_config.__dict__


class _ConfigContext:
    """Sets one entry of a :class:`LocalConfig` while the context lasts.

    The object may be entered again after it has been exited.
    """

    def __init__(self, config, name, value):
        self.config = config
        self.name = name
        self.value = value
        self.is_local = False
        self.old_value = None

    def __enter__(self):
        self.is_local = hasattr(self.config._local, self.name)
        if self.is_local:
            self.old_value = getattr(self.config, self.name)
        setattr(self.config, self.name, self.value)

    def __exit__(self, typ, value, traceback):
        if self.is_local:
            setattr(self.config, self.name, self.old_value)
        else:
            delattr(self.config, self.name)


def using_config(name, value, config=config):
    """Temporarily sets a configuration entry for the current thread.

    Args:
        name (str): Name of the entry.
        value: Value of the entry while the context lasts.
        config (LocalConfig): The configuration to modify; ``chainer.config``
            by default.

    Returns:
        A context manager.

    Example:
        >>> model = L.BatchNormalization(3)
        >>> x = numpy.ones((2, 3), numpy.float32)
        >>> with chainer.using_config('train', False):
        ...     y = model(x)
    """
    return _ConfigContext(config, name, value)


class _Mixed16:
    """The ``mixed16`` pseudo dtype: float16 arrays, float32 updates."""

    # What ``numpy.dtype(mixed16)`` gives: the storage dtype.
    dtype = numpy.dtype(numpy.float16)

    def __repr__(self):
        return "dtype('mixed16')"


mixed16 = _Mixed16()


def get_dtype(dtype=None, map_mixed16=None):
    """Resolves a dtype, defaulting to ``chainer.config.dtype``.

    Args:
        dtype: A dtype specifier, ``mixed16`` or ``None``.
        map_mixed16: The dtype that ``mixed16`` stands for; float16 by
            default.

    Returns:
        numpy.dtype: The resolved dtype.
    """
    if dtype is None:
        dtype = config.dtype
    if dtype is mixed16:
        if map_mixed16 is None:
            return numpy.dtype(numpy.float16)
        return numpy.dtype(map_mixed16)
    return numpy.dtype(dtype)


def _env_flag(name, default):
    return bool(int(os.environ.get(name, default)))


def _env_dtype():
    name = os.environ.get('CHAINER_DTYPE', 'float32')
    if name in ('float16', 'float32', 'float64'):
        return numpy.dtype(name)
    if name == 'mixed16':
        return mixed16
    raise TypeError('incorrect dtype name in CHAINER_DTYPE: "{}". '
                    'Only float16/32/64 are allowed.'.format(name))


def _set_defaults(conf):
    conf.autotune = False
    conf.compute_mode = None
    conf.cudnn_deterministic = False
    conf.cudnn_fast_batch_normalization = _env_flag(
        'CHAINER_CUDNN_FAST_BATCH_NORMALIZATION', '0')
    conf.debug = _env_flag('CHAINER_DEBUG', '0')
    conf.dtype = _env_dtype()
    conf.enable_backprop = True
    conf.in_recomputing = False
    conf.keep_graph_on_report = _env_flag(
        'CHAINER_KEEP_GRAPH_ON_REPORT', '0')
    conf.lazy_grad_sum = _env_flag('CHAINER_LAZY_GRAD_SUM', '0')
    conf.schedule_func = None
    conf.train = True
    conf.type_check = _env_flag('CHAINER_TYPE_CHECK', '1')
    conf.use_compiled_core = _env_flag('CHAINER_USE_COMPILED_CORE', '1')
    conf.use_chainerx_cpp = os.environ.get(
        'CHAINER_USE_CHAINERX_CPP', 'auto')
    conf.use_cudnn = os.environ.get('CHAINER_USE_CUDNN', 'auto')
    conf.use_cudnn_tensor_core = 'auto'
    conf.use_ideep = os.environ.get('CHAINER_USE_IDEEP', 'never')
    conf.use_static_graph = True
    conf.warn_nondeterministic = False
    conf._will_recompute = False


_set_defaults(global_config)


def is_debug():
    """Returns whether the debug mode is on in the current thread."""
    return bool(config.debug)


def set_debug(debug):
    """Turns the debug mode on or off in the current thread.

    In debug mode, functions check their outputs and gradients for NaN and
    remember the stack where they were called, so errors name them.

    Args:
        debug (bool): The new mode.
    """
    config.debug = debug


class DebugMode:
    """Context manager that sets the debug mode in the current thread.

    Deprecated (as in Chainer 7.8): use
    ``chainer.using_config('debug', ...)``.

    Args:
        debug (bool): The mode while the context lasts.
    """

    def __init__(self, debug):
        warnings.warn(
            'chainer.DebugMode is deprecated. Use '
            'chainer.using_config("debug", ...) instead.', DeprecationWarning)
        self._using = using_config('debug', debug)

    def __enter__(self):
        self._using.__enter__()

    def __exit__(self, *args):
        self._using.__exit__(*args)
