"""Backend configurations and their injection into test classes."""

import functools
import inspect
import unittest

import chainer
from chainer import backend
from chainer.testing import _bundle
from chainer.testing import attr


class BackendConfig:
    """A backend configuration for a test: device and related settings.

    It is built from a dict of the properties below; missing ones take
    their defaults. Used as a context manager, it applies the cuDNN, iDeep
    and autotune settings to :data:`chainer.config` and makes its device
    current.

    Properties (and defaults): ``use_chainerx`` (``False``),
    ``chainerx_device`` (``None``), ``use_cuda`` (``False``),
    ``cuda_device`` (``None``; 0 when ``use_cuda``), ``use_cudnn``
    (``'never'``), ``cudnn_deterministic`` (``False``), ``autotune``
    (``False``), ``cudnn_fast_batch_normalization`` (``False``),
    ``use_ideep`` (``'never'``).

    ChainerX is not available in this implementation: a ChainerX
    configuration can be built and named, but asking for its device raises
    :class:`RuntimeError`, and tests injected with it are skipped.

    Args:
        params (dict): Property values.

    Raises:
        TypeError: If ``params`` is not a dict.
        ValueError: If ``params`` names an unknown property.
    """

    _props = [
        ('use_chainerx', False),
        ('chainerx_device', None),
        ('use_cuda', False),
        ('cuda_device', None),
        ('use_cudnn', 'never'),
        ('cudnn_deterministic', False),
        ('autotune', False),
        ('cudnn_fast_batch_normalization', False),
        ('use_ideep', 'never'),
    ]

    _device = None

    def __init__(self, params):
        if not isinstance(params, dict):
            raise TypeError('params must be a dict.')
        self._contexts = []
        for k, v in self._props:
            setattr(self, k, v)
        for k, v in params.items():
            if not hasattr(self, k):
                raise ValueError('Parameter {} is not defined'.format(k))
            setattr(self, k, v)
        if self.use_chainerx:
            assert isinstance(self.chainerx_device, str), (
                '\'chainerx_device\' parameter is expected to be a string '
                'representing a ChainerX device specifier')
        if self.use_cuda and self.cuda_device is None:
            self.cuda_device = 0

    @property
    def xp(self):
        """The array module of the device (``numpy`` or ``cupy``)."""
        return self.device.xp

    @property
    def device(self):
        """The :class:`~chainer.backend.Device` of this configuration."""
        if self._device is None:
            if self.use_cuda:
                device = backend.GpuDevice.from_device_id(self.cuda_device)
            elif self.use_chainerx:
                raise RuntimeError(
                    'ChainerX is not available: cannot use device {!r}.'
                    .format(self.chainerx_device))
            elif self.use_ideep != 'never':
                device = backend.Intel64Device()
            else:
                device = backend.CpuDevice()
            self._device = device
        return self._device

    def __enter__(self):
        contexts = [
            chainer.using_config('use_cudnn', self.use_cudnn),
            chainer.using_config(
                'cudnn_deterministic', self.cudnn_deterministic),
            chainer.using_config('autotune', self.autotune),
            chainer.using_config('use_ideep', self.use_ideep),
            chainer.using_device(self.device),
        ]
        for c in contexts:
            c.__enter__()
        self._contexts.append(contexts)
        return self

    def __exit__(self, typ, value, traceback):
        contexts = self._contexts.pop()
        for c in reversed(contexts):
            c.__exit__(typ, value, traceback)

    def __repr__(self):
        items = ' '.join(
            '{}={!r}'.format(k, getattr(self, k)) for k, _ in self._props)
        return '<BackendConfig {}>'.format(items)

    def get_func_str(self):
        """Returns a string naming this configuration in method names."""
        parts = []
        for k, _ in self._props:
            value = getattr(self, k)
            if value is True:
                value = 'true'
            elif value is False:
                value = 'false'
            parts.append('{}_{}'.format(k, value))
        return '__'.join(parts)

    def get_pytest_marks(self):
        """Returns the :mod:`~chainer.testing.attr` marks this config needs.

        ``gpu`` (and ``multi_gpu(n)`` for a device other than 0) for CUDA,
        ``cudnn`` when cuDNN is enabled, ``chainerx`` for ChainerX and
        ``ideep`` for iDeep.
        """
        marks = []
        if self.use_chainerx:
            marks.append(attr.chainerx)
            backend_name, device_index = self.chainerx_device.split(':')
            device_index = int(device_index)
            if backend_name == 'cuda':
                marks.append(attr.gpu)
                if device_index >= 1:
                    marks.append(attr.multi_gpu(device_index + 1))
        elif self.use_cuda:
            marks.append(attr.gpu)
            if self.use_cudnn != 'never':
                marks.append(attr.cudnn)
            if self.cuda_device >= 1:
                marks.append(attr.multi_gpu(self.cuda_device + 1))
        elif self.use_ideep != 'never':
            marks.append(attr.ideep)
        return marks

    def get_array(self, np_array):
        """Sends an array (or a tuple or list of them) to the device.

        ``None`` entries are kept as they are.
        """
        if isinstance(np_array, (tuple, list)):
            return type(np_array)([self.get_array(a) for a in np_array])
        if np_array is None:
            return None
        return self.device.send(np_array)


def _unavailable_reason(backend_config):
    # Why the configuration cannot run on this machine, or None.
    if backend_config.use_chainerx:
        return 'ChainerX is not available'
    if backend_config.use_ideep != 'never' and not _ideep_available():
        return 'iDeep is not available'
    return None


def _ideep_available():
    try:
        from chainer.backends import intel64
        return bool(intel64.is_ideep_available())
    except Exception:
        return False


def _make_backend_method(base_method, backend_config, marks):
    @functools.wraps(base_method)
    def new_method(self, *args, **kwargs):
        reason = _unavailable_reason(backend_config)
        if reason is not None:
            raise unittest.SkipTest(reason)
        return base_method(self, backend_config, *args, **kwargs)
    # The configuration is given here, not by pytest as a fixture.
    signature = inspect.signature(base_method)
    parameters = list(signature.parameters.values())
    del parameters[1]
    new_method.__signature__ = signature.replace(parameters=parameters)
    for mark in marks:
        new_method = mark(new_method)
    return new_method


def _test_case_generator(base, method_names, params):
    if method_names is not None:
        def keep_other_methods(base_method):
            if base_method.__name__ in method_names:
                return None
            return base_method
        yield base.__name__, {}, keep_other_methods

    for param in params:
        backend_config = BackendConfig(param)
        marks = backend_config.get_pytest_marks()
        cls_name = '{}_{}'.format(
            base.__name__, backend_config.get_func_str())

        def method_generator(base_method, backend_config=backend_config,
                             marks=marks):
            if (method_names is not None
                    and base_method.__name__ not in method_names):
                return None
            return _make_backend_method(base_method, backend_config, marks)
        yield cls_name, {}, method_generator


def inject_backend_tests(method_names, params):
    """Class decorator running test methods once per backend config.

    For each dict in ``params`` a test class is generated whose test
    methods receive a :class:`BackendConfig` as their first argument after
    ``self``. GPU configurations are marked ``gpu`` (and ``cudnn``) and
    skipped where no GPU is usable; ChainerX configurations are skipped.
    If ``method_names`` is a list, only those methods are injected; the
    other test methods stay, without a backend argument, in a class named
    like the base class, which is collected only where another generating
    decorator such as :func:`~chainer.testing.parameterize` is applied on
    top (the decorated name is bound to the bundle of generated classes).

    Args:
        method_names (list of str or None): Names of the methods to inject
            configurations into; ``None`` for all ``test_*`` methods.
        params (list of dict): One :class:`BackendConfig` dict per backend.

    Returns:
        callable: The class decorator (composable with
        :func:`~chainer.testing.parameterize`).

    Raises:
        TypeError: If the arguments have wrong types.

    .. admonition:: Example

       >>> from chainer import testing
       >>> @testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
       ... class TestDevice:
       ...     def test_xp(self, backend_config):
       ...         assert backend_config.xp is not None
    """
    if not (method_names is None or isinstance(method_names, list)):
        raise TypeError('method_names must be either None or a list.')
    if not isinstance(params, list):
        raise TypeError('params must be a list of dicts.')
    if not all(isinstance(d, dict) for d in params):
        raise TypeError('params must be a list of dicts.')
    return _bundle.make_decorator(
        lambda base: _test_case_generator(base, method_names, params))
