"""Test harnesses for functions and links.

:class:`FunctionTestCase` checks a function's forward, backward and double
backward; :class:`LinkTestCase` checks a link's forward and backward
(including the gradients of its parameters); and
:class:`LinkInitializersTestCase` checks that a link fills its parameters
with the initializers it is given.
"""

import contextlib
import io
import unittest

import numpy

import chainer
from chainer import backend
from chainer import gradient_check
from chainer import initializers
from chainer.testing import array as array_module
from chainer.utils.error import _format_array_props


class _TestError(AssertionError):
    """Base class of the errors raised by the test harnesses."""

    @classmethod
    def check(cls, expr, message):
        """Raises the error with ``message`` if ``expr`` is false."""
        if not expr:
            raise cls(message)

    @classmethod
    def fail(cls, message, exc=None):
        """Raises the error, chained to ``exc`` if given."""
        if exc is not None:
            message = '{}\n\n(caused by)\n{}: {}\n'.format(
                message, type(exc).__name__, exc)
            raise cls(message) from exc
        raise cls(message)

    @classmethod
    @contextlib.contextmanager
    def raise_if_fail(cls, message, error_types=AssertionError):
        """Turns errors of ``error_types`` in the block into this error."""
        try:
            yield
        except error_types as e:
            cls.fail(message, e)


class FunctionTestError(_TestError):
    """Error for a function under test whose results are wrong."""


class LinkTestError(_TestError):
    """Error for a link under test whose results are wrong."""


class InitializerArgument:
    """A link constructor argument paired with the initializer it stands for.

    Use it in :meth:`LinkInitializersTestCase.get_initializers` (or
    ``generate_params``) when the value passed to the link's constructor is
    not itself the initializer the link applies, e.g. ``None`` for a link
    that then falls back to a default initializer.

    Args:
        argument_value: The value passed to the link's constructor.
        expected_initializer: The initializer-like (initializer, array or
            scalar) the link is expected to fill the parameter with.

    Raises:
        ValueError: If ``expected_initializer`` is ``None``.
        TypeError: If ``expected_initializer`` is not initializer-like.

    .. admonition:: Example

       >>> from chainer import testing
       >>> arg = testing.InitializerArgument(None, 0)
       >>> arg.argument_value is None, arg.expected_initializer
       (True, 0)
    """

    def __init__(self, argument_value, expected_initializer):
        if expected_initializer is None:
            raise ValueError('Expected initialized cannot be None.')
        initializers._check_is_initializer_like(expected_initializer)
        self.argument_value = argument_value
        self.expected_initializer = expected_initializer


def _check_generated_initializer(init):
    # An initializer-like from ``generate_params`` or ``get_initializers``;
    # None is ambiguous there and must come with its expected initializer.
    if isinstance(init, InitializerArgument):
        init = init.expected_initializer
    elif init is None:
        raise ValueError(
            'A None initializer must be wrapped in a InitializerArgument '
            'along with the expected initializer fallen back to.')
    initializers._check_is_initializer_like(init)


def _get_initializer_argument_value(init):
    # The value to pass to the link's constructor.
    if isinstance(init, InitializerArgument):
        return init.argument_value
    return init


def _get_expected_initializer(init):
    # The initializer the link is expected to apply, as a callable.
    if isinstance(init, InitializerArgument):
        init = init.expected_initializer
    return initializers._get_initializer(init)


def _check_array_types(arrays, device, func_name):
    # What a user hook such as ``generate_inputs`` returns must be a tuple
    # of arrays of ``device`` (or None).
    if not isinstance(arrays, tuple):
        raise TypeError(
            '`{}()` must return a tuple, '
            'not {}.'.format(func_name, type(arrays)))
    if not all(a is None or isinstance(a, device.supported_array_types)
               for a in arrays):
        raise TypeError(
            '{}() must return a tuple of arrays supported by device {} or'
            ' None.\nActual: {}'.format(
                func_name, device, tuple(type(a) for a in arrays)))


def _check_variable_types(variables, device, func_name, test_error_cls):
    # ``forward`` must return a tuple of Variables holding arrays of
    # ``device``.
    if not isinstance(variables, tuple):
        test_error_cls.fail(
            '`{}()` must return a tuple, '
            'not {}.'.format(func_name, type(variables)))
    if not all(isinstance(v, chainer.Variable) for v in variables):
        test_error_cls.fail(
            '{}() must return a tuple of Variables.\n'
            'Actual: {}'.format(
                func_name, ', '.join(str(type(v)) for v in variables)))
    if not all(isinstance(v.array, device.supported_array_types)
               for v in variables):
        test_error_cls.fail(
            '{}() must return a tuple of Variables of arrays supported by '
            'device {}.\n'
            'Actual: {}'.format(
                func_name, device,
                ', '.join(str(type(v.array)) for v in variables)))


def _mismatch_of_arrays(actual_arrays, expected_arrays, **opts):
    # Returns (message, details) describing how the arrays differ, or
    # (None, None) if they match.
    if len(actual_arrays) != len(expected_arrays):
        return 'Number of outputs ({}, {}) does not match'.format(
            len(actual_arrays), len(expected_arrays)), None
    if not all(y.dtype == ye.dtype and y.shape == ye.shape
               for y, ye in zip(actual_arrays, expected_arrays)):
        return 'Shapes and/or dtypes do not match', None
    errors = []
    for i, (actual, expected) in enumerate(
            zip(actual_arrays, expected_arrays)):
        try:
            array_module.assert_allclose(actual, expected, **opts)
        except AssertionError as e:
            errors.append((i, e))
    if not errors:
        return None, None
    message = (
        'Outputs do not match the expected values.\n'
        'Indices of outputs that do not match: {}'.format(
            ', '.join(str(i) for i, _ in errors)))
    details = ''.join(
        'Error details of output [{}]:\n{}\n'.format(i, e)
        for i, e in errors)
    return message, details


def _check_arrays_equal(
        actual_arrays, expected_arrays, test_error_cls, **opts):
    # ``opts`` go to ``testing.assert_allclose``.
    message, details = _mismatch_of_arrays(
        actual_arrays, expected_arrays, **opts)
    if message is None:
        return
    msg = (
        '{}\n'
        'Expected shapes and dtypes: {}\n'
        'Actual shapes and dtypes:   {}\n'.format(
            message,
            _format_array_props(expected_arrays),
            _format_array_props(actual_arrays)))
    if details is not None:
        msg += '\n\n' + details
    test_error_cls.fail(msg)


def _is_array(a):
    return isinstance(a, chainer.get_array_types())


def _uniform_like(templates):
    # Random arrays in [-1, 1) shaped and typed like ``templates``.
    return tuple(
        numpy.random.uniform(-1, 1, a.shape).astype(a.dtype)
        for a in templates)


def _repeat_until_differentiable(do_check, dodge_nondifferentiable):
    # With ``dodge_nondifferentiable``, ``do_check`` draws its data again
    # while it falls on a non-differentiable point.
    while True:
        try:
            do_check()
        except gradient_check.NondifferentiableError:
            if dodge_nondifferentiable:
                continue
            raise
        return


class _HarnessBase:
    """What the function and link harnesses share."""

    backend_config = None
    contiguous = None

    # The error raised for a wrong target, and the names of the dict
    # attributes of options, copied per test so that setUp may update them.
    _test_error = _TestError
    _option_attributes = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        cls = type(self)
        for name in self._option_attributes:
            setattr(self, name, dict(getattr(cls, name) or {}))

    def before_test(self, test_name):
        """Called before each test; may raise :class:`unittest.SkipTest`."""

    def check_forward_outputs(self, outputs, expected_outputs):
        """Compares the outputs with the expected ones.

        Raises:
            FunctionTestError: If they differ, in a function test.
            LinkTestError: If they differ, in a link test.
        """
        assert isinstance(outputs, tuple)
        assert isinstance(expected_outputs, tuple)
        assert all(_is_array(a) for a in outputs)
        assert all(_is_array(a) for a in expected_outputs)
        _check_arrays_equal(
            outputs, expected_outputs, self._test_error,
            **self.check_forward_options)

    def _to_noncontiguous_as_needed(self, contig_arrays):
        if self.contiguous is None:
            return array_module._as_noncontiguous_array(contig_arrays)
        if self.contiguous == 'C':
            return contig_arrays
        raise AssertionError(
            'Invalid value of `contiguous`: {}'.format(self.contiguous))

    def _generate_inputs(self):
        inputs = self.generate_inputs()
        _check_array_types(inputs, backend.CpuDevice(), 'generate_inputs')
        return inputs

    def _generate_grad_outputs(self, outputs_template):
        grad_outputs = self.generate_grad_outputs(outputs_template)
        _check_array_types(
            grad_outputs, backend.CpuDevice(), 'generate_grad_outputs')
        return grad_outputs

    def _begin_test(self, test_name, skip, backend_config):
        if skip:
            raise unittest.SkipTest('skip_{}_test is set'.format(
                test_name[len('test_'):]))
        self.backend_config = backend_config
        self.test_name = test_name
        self.before_test(test_name)


class FunctionTestBase(_HarnessBase):
    """The logic of :class:`FunctionTestCase`, independent of unittest."""

    check_forward_options = None
    check_backward_options = None
    check_double_backward_options = None
    skip_forward_test = False
    skip_backward_test = False
    skip_double_backward_test = False
    dodge_nondifferentiable = False
    numerical_grad_dtype = numpy.float64

    _test_error = FunctionTestError
    _option_attributes = (
        'check_forward_options', 'check_backward_options',
        'check_double_backward_options')

    def forward(self, inputs, device):
        """Runs the function under test on Variables; returns a tuple."""
        raise NotImplementedError('forward() is not implemented.')

    def forward_expected(self, inputs):
        """Computes the expected outputs from NumPy arrays; a tuple."""
        raise NotImplementedError('forward_expected() is not implemented.')

    def generate_inputs(self):
        """Returns a tuple of NumPy input arrays."""
        raise NotImplementedError('generate_inputs() is not implemented.')

    def generate_grad_outputs(self, outputs_template):
        """Returns random output gradients shaped like the outputs."""
        return _uniform_like(outputs_template)

    def generate_grad_grad_inputs(self, inputs_template):
        """Returns random second-order gradients shaped like the inputs."""
        return _uniform_like(inputs_template)

    def _generate_grad_grad_inputs(self, inputs_template):
        grad_grad_inputs = self.generate_grad_grad_inputs(inputs_template)
        _check_array_types(
            grad_grad_inputs, backend.CpuDevice(), 'generate_grad_grad_inputs')
        return grad_grad_inputs

    def _forward_expected(self, inputs):
        outputs = self.forward_expected(inputs)
        _check_array_types(outputs, backend.CpuDevice(), 'forward_expected')
        return outputs

    def _forward(self, inputs, backend_config):
        assert all(isinstance(a, chainer.Variable) for a in inputs)
        with backend_config:
            outputs = self.forward(inputs, backend_config.device)
        _check_variable_types(
            outputs, backend_config.device, 'forward', FunctionTestError)
        return outputs

    def run_test_forward(self, backend_config):
        """Checks the outputs of ``forward`` against ``forward_expected``.

        Also checks that ``forward`` leaves its inputs unchanged.
        """
        self._begin_test('test_forward', self.skip_forward_test,
                         backend_config)
        cpu_inputs = self._generate_inputs()
        cpu_inputs = self._to_noncontiguous_as_needed(cpu_inputs)
        inputs_copied = [a.copy() for a in cpu_inputs]
        cpu_expected = self._forward_expected(cpu_inputs)

        inputs = backend_config.get_array(cpu_inputs)
        inputs = self._to_noncontiguous_as_needed(inputs)
        outputs = self._forward(
            tuple(chainer.Variable(a, requires_grad=a.dtype.kind == 'f')
                  for a in inputs),
            backend_config)
        self._check_inputs_unchanged(inputs_copied, inputs)
        self.check_forward_outputs(
            tuple(v.array for v in outputs), cpu_expected)

    def _check_inputs_unchanged(self, inputs_copied, inputs):
        indices = []
        for i, (before, after) in enumerate(zip(inputs_copied, inputs)):
            try:
                array_module.assert_allclose(before, after, atol=0, rtol=0)
            except AssertionError:
                indices.append(i)
        if not indices:
            return
        f = io.StringIO()
        f.write(
            'Input arrays have been modified during forward.\n'
            'Indices of modified inputs: {}\n'
            'Input array shapes and dtypes: {}\n'.format(
                ', '.join(str(i) for i in indices),
                _format_array_props(inputs)))
        for i in indices:
            f.write('\nInput[{}]:\nOriginal:\n{}\nAfter forward:\n{}\n'.format(
                i, inputs_copied[i], inputs[i]))
        FunctionTestError.fail(f.getvalue())

    def run_test_backward(self, backend_config):
        """Checks ``forward``'s gradients with ``check_backward``."""
        self._begin_test('test_backward', self.skip_backward_test,
                         backend_config)

        def f(*args):
            return self._forward(args, backend_config)

        def do_check():
            inputs = self._generate_inputs()
            outputs = self._forward_expected(inputs)
            grad_outputs = self._generate_grad_outputs(outputs)
            inputs = self._to_noncontiguous_as_needed(
                backend_config.get_array(inputs))
            grad_outputs = self._to_noncontiguous_as_needed(
                backend_config.get_array(grad_outputs))
            with FunctionTestError.raise_if_fail(
                    'backward is not implemented correctly'):
                gradient_check.check_backward(
                    f, inputs, grad_outputs, dtype=self.numerical_grad_dtype,
                    detect_nondifferentiable=self.dodge_nondifferentiable,
                    **self.check_backward_options)

        _repeat_until_differentiable(do_check, self.dodge_nondifferentiable)

    def run_test_double_backward(self, backend_config):
        """Checks ``forward``'s second-order gradients."""
        self._begin_test('test_double_backward',
                         self.skip_double_backward_test, backend_config)

        def f(*args):
            return self._forward(args, backend_config)

        def do_check():
            inputs = self._generate_inputs()
            outputs = self._forward_expected(inputs)
            grad_outputs = self._generate_grad_outputs(outputs)
            grad_grad_inputs = self._generate_grad_grad_inputs(inputs)
            # Second-order gradients of non-float inputs do not exist;
            # None stands for an omitted gradient.
            grad_grad_inputs = [
                ggx for ggx in grad_grad_inputs
                if ggx is None or ggx.dtype.kind == 'f']
            inputs = self._to_noncontiguous_as_needed(
                backend_config.get_array(inputs))
            grad_outputs = self._to_noncontiguous_as_needed(
                backend_config.get_array(grad_outputs))
            grad_grad_inputs = self._to_noncontiguous_as_needed(
                backend_config.get_array(grad_grad_inputs))
            with backend_config:
                with FunctionTestError.raise_if_fail(
                        'double backward is not implemented correctly'):
                    gradient_check.check_double_backward(
                        f, inputs, grad_outputs, grad_grad_inputs,
                        dtype=self.numerical_grad_dtype,
                        detect_nondifferentiable=self.dodge_nondifferentiable,
                        **self.check_double_backward_options)

        _repeat_until_differentiable(do_check, self.dodge_nondifferentiable)


class FunctionTestCase(FunctionTestBase, unittest.TestCase):
    """Base class of function tests: forward, backward, double backward.

    Use it with :func:`~chainer.testing.inject_backend_tests`, which gives
    each test a :class:`~chainer.testing.BackendConfig`. Inputs (and
    gradients) are generated as NumPy arrays, sent to the backend's device
    and, unless ``contiguous = 'C'``, made non-contiguous.

    Methods to override:

    - ``generate_inputs(self)`` (required): a tuple of NumPy arrays.
    - ``forward(self, inputs, device)`` (required): runs the function on a
      tuple of Variables, returns a tuple of Variables.
    - ``forward_expected(self, inputs)`` (required): the expected outputs
      from NumPy arrays, as a tuple of NumPy arrays.
    - ``generate_grad_outputs(self, outputs_template)``,
      ``generate_grad_grad_inputs(self, inputs_template)``: gradients
      (uniform in [-1, 1) by default; ``None`` omits one).
    - ``before_test(self, test_name)``: called first in each test, e.g. to
      raise :class:`unittest.SkipTest`; ``test_name`` is
      ``'test_forward'``, ``'test_backward'`` or ``'test_double_backward'``.
    - ``check_forward_outputs(self, outputs, expected_outputs)``.

    Attributes to set (on the class or in ``setUp``):

    - ``skip_forward_test``, ``skip_backward_test``,
      ``skip_double_backward_test`` (bool).
    - ``check_forward_options`` (options of
      :func:`~chainer.testing.assert_allclose`),
      ``check_backward_options``, ``check_double_backward_options``
      (options of the :mod:`~chainer.gradient_check` functions).
    - ``dodge_nondifferentiable`` (bool): redraw the inputs while they
      fall on a non-differentiable point.
    - ``numerical_grad_dtype``: dtype of the numerical gradients
      (``float64``).
    - ``contiguous`` (``None`` or ``'C'``).

    Wrong outputs or gradients raise :class:`FunctionTestError`.

    .. admonition:: Example

       >>> import numpy
       >>> import chainer.functions as F
       >>> from chainer import testing
       >>> @testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
       ... class TestExp(testing.FunctionTestCase):
       ...     def generate_inputs(self):
       ...         x = numpy.random.uniform(-1, 1, (2, 3))
       ...         return x.astype(numpy.float32),
       ...     def forward(self, inputs, device):
       ...         x, = inputs
       ...         return F.exp(x),
       ...     def forward_expected(self, inputs):
       ...         x, = inputs
       ...         return numpy.exp(x),
    """

    def test_forward(self, backend_config):
        """Tests the forward computation."""
        self.run_test_forward(backend_config)

    def test_backward(self, backend_config):
        """Tests the backward computation."""
        self.run_test_backward(backend_config)

    def test_double_backward(self, backend_config):
        """Tests the double-backward computation."""
        self.run_test_double_backward(backend_config)


def _get_link_params(link, param_names):
    params = []
    for name in param_names:
        param = getattr(link, name, None)
        if param is None:
            LinkTestError.fail(
                'Link does not have a parameter named \'{}\'.'.format(name))
        params.append(param)
    return params


def _as_input_variables(arrays):
    # Only float inputs take gradients, as in ``check_backward``.
    return tuple(
        None if a is None
        else chainer.Variable(a, requires_grad=a.dtype.kind == 'f')
        for a in arrays)


class _LinkTestBase(_HarnessBase):
    """What :class:`LinkTestCase` and :class:`LinkInitializersTestCase`
    share: making the link and running it on the backend's device."""

    # Names of the link's parameters under test, e.g. ('W', 'b'), in the
    # order of the initializers of ``generate_params``.
    param_names = ()

    _test_error = LinkTestError

    def generate_params(self):
        """Returns a tuple of initializer-likes, one per link argument."""
        raise NotImplementedError('generate_params is not implemented.')

    def generate_inputs(self):
        """Returns a tuple of NumPy input arrays."""
        raise NotImplementedError('generate_inputs is not implemented.')

    def create_link(self, initializers):
        """Returns the link under test, built with ``initializers``."""
        raise NotImplementedError('create_link is not implemented.')

    def forward(self, link, inputs, device):
        """Calls ``link`` on the input Variables; returns a tuple."""
        outputs = link(*inputs)
        if not isinstance(outputs, tuple):
            outputs = outputs,
        return outputs

    def _generate_params(self):
        params_inits = self.generate_params()
        if not isinstance(params_inits, (tuple, list)):
            raise TypeError(
                '`generate_params` must return a tuple or a list.')
        for init in params_inits:
            _check_generated_initializer(init)
        return params_inits

    def _create_link(self, inits, backend_config):
        # ``inits`` may hold InitializerArguments: the link gets their
        # argument values.
        link = self.create_link(
            [_get_initializer_argument_value(i) for i in inits])
        if not isinstance(link, chainer.Link):
            raise TypeError(
                '`create_link` must return a chainer.Link object.')
        link.to_device(backend_config.device)
        return link

    def _forward(self, link, inputs, backend_config):
        assert all(x is None or isinstance(x, chainer.Variable)
                   for x in inputs)
        with backend_config:
            outputs = self.forward(link, inputs, backend_config.device)
        _check_variable_types(
            outputs, backend_config.device, 'forward', LinkTestError)
        return outputs

    def _create_initialized_link(self, inits, backend_config):
        # A link whose parameters are initialized by one forward pass on
        # fresh inputs; returns the link, the inputs and the outputs, both
        # as arrays of the backend's device.
        link = self._create_link(inits, backend_config)
        inputs = self._to_noncontiguous_as_needed(
            backend_config.get_array(self._generate_inputs()))
        outputs = self._forward(
            link, _as_input_variables(inputs), backend_config)
        link.cleargrads()
        return link, inputs, tuple(v.array for v in outputs)


class LinkTestCase(_LinkTestBase, unittest.TestCase):
    """Base class of link tests: forward and backward.

    Use it with :func:`~chainer.testing.inject_backend_tests`, which gives
    each test a :class:`~chainer.testing.BackendConfig`. The link is built
    from the initializers of ``generate_params`` and sent to the backend's
    device; inputs (and gradients) are generated as NumPy arrays, sent to
    the device and, unless ``contiguous = 'C'``, made non-contiguous.

    ``test_forward`` runs the link, moves it to the CPU and compares its
    outputs with ``forward_expected``. ``test_backward`` checks the
    gradients of the inputs and of the parameters named in ``param_names``
    numerically, with :func:`~chainer.gradient_check.check_backward`.

    Methods to override:

    - ``generate_params(self)`` (required): a tuple of initializer-likes
      (initializers, arrays or scalars; ``None`` only wrapped in an
      :class:`InitializerArgument`), one per initializer argument of the
      link; they are passed to ``create_link``.
    - ``create_link(self, initializers)`` (required): returns the link,
      built with the given initializer-likes.
    - ``generate_inputs(self)`` (required): a tuple of NumPy arrays.
    - ``forward_expected(self, link, inputs)`` (required unless both tests
      are skipped): the expected outputs, as a tuple of NumPy arrays, from
      the link (already on the CPU) and the NumPy inputs.
    - ``forward(self, link, inputs, device)``: runs the link on a tuple of
      Variables and returns a tuple of Variables; by default
      ``link(*inputs)``.
    - ``generate_grad_outputs(self, outputs_template)``: output gradients
      (uniform in [-1, 1) by default).
    - ``before_test(self, test_name)``: called first in each test, e.g. to
      raise :class:`unittest.SkipTest`; ``test_name`` is
      ``'test_forward'`` or ``'test_backward'``.
    - ``check_forward_outputs(self, outputs, expected_outputs)``.

    Attributes to set (on the class or in ``setUp``):

    - ``param_names`` (tuple of str): the parameters whose gradients are
      checked, e.g. ``('W', 'b')``; ``()`` by default.
    - ``skip_forward_test``, ``skip_backward_test`` (bool).
    - ``check_forward_options`` (options of
      :func:`~chainer.testing.assert_allclose`),
      ``check_backward_options`` (options of
      :func:`~chainer.gradient_check.check_backward`).
    - ``dodge_nondifferentiable`` (bool): redraw the data while it falls
      on a non-differentiable point.
    - ``numerical_grad_dtype``: dtype of the numerical gradients
      (``float64``).
    - ``contiguous`` (``None`` or ``'C'``).

    Wrong outputs or gradients raise :class:`LinkTestError`.

    .. admonition:: Example

       >>> import numpy
       >>> import chainer.functions as F
       >>> from chainer import testing
       >>> class Scale(chainer.Link):
       ...     def __init__(self, initial_w=None):
       ...         super().__init__()
       ...         if initial_w is None:
       ...             initial_w = 1
       ...         with self.init_scope():
       ...             self.W = chainer.Parameter(initial_w, (3,))
       ...     def forward(self, x):
       ...         return x * F.broadcast_to(self.W, x.shape)
       >>> @testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
       ... class TestScale(testing.LinkTestCase):
       ...     param_names = ('W',)
       ...     def generate_params(self):
       ...         return numpy.random.uniform(-1, 1, (3,)).astype('f'),
       ...     def create_link(self, initializers):
       ...         initial_w, = initializers
       ...         return Scale(initial_w)
       ...     def generate_inputs(self):
       ...         return numpy.random.uniform(-1, 1, (2, 3)).astype('f'),
       ...     def forward_expected(self, link, inputs):
       ...         x, = inputs
       ...         return x * link.W.array,
    """

    check_forward_options = None
    check_backward_options = None
    skip_forward_test = False
    skip_backward_test = False
    dodge_nondifferentiable = False
    numerical_grad_dtype = numpy.float64

    _option_attributes = ('check_forward_options', 'check_backward_options')

    def forward_expected(self, link, inputs):
        """Computes the expected outputs on the CPU; a tuple of arrays."""
        raise NotImplementedError('forward_expected() is not implemented.')

    def generate_grad_outputs(self, outputs_template):
        """Returns random output gradients shaped like the outputs."""
        return _uniform_like(outputs_template)

    def _forward_expected(self, link, inputs):
        assert all(isinstance(x, numpy.ndarray) for x in inputs)
        outputs = self.forward_expected(link, inputs)
        _check_array_types(outputs, backend.CpuDevice(), 'forward_expected')
        return outputs

    def test_forward(self, backend_config):
        """Tests the forward computation."""
        self._begin_test('test_forward', self.skip_forward_test,
                         backend_config)
        link = self._create_link(self._generate_params(), backend_config)
        cpu_inputs = self._generate_inputs()
        inputs = self._to_noncontiguous_as_needed(
            backend_config.get_array(cpu_inputs))
        outputs = self._forward(
            link, _as_input_variables(inputs), backend_config)
        # The expected outputs are computed on the CPU, from the
        # parameters the forward pass has used (or initialized).
        link.to_device(backend.CpuDevice())
        expected = self._forward_expected(link, cpu_inputs)
        self.check_forward_outputs(
            tuple(v.array for v in outputs), expected)

    def test_backward(self, backend_config):
        """Tests the backward computation, parameters included."""
        self._begin_test('test_backward', self.skip_backward_test,
                         backend_config)

        def do_check():
            link, inputs, outputs = self._create_initialized_link(
                self._generate_params(), backend_config)
            params = self._to_noncontiguous_as_needed(
                [p.array for p in _get_link_params(link, self.param_names)])
            grad_outputs = self._generate_grad_outputs(
                tuple(backend.CpuDevice().send(y) for y in outputs))
            grad_outputs = self._to_noncontiguous_as_needed(
                backend_config.get_array(grad_outputs))

            def forward(xs, ps):
                # The gradient check hands fresh Parameters over.
                with link.init_scope():
                    for name, p in zip(self.param_names, ps):
                        setattr(link, name, p)
                return self._forward(link, xs, backend_config)

            with LinkTestError.raise_if_fail(
                    'backward is not implemented correctly'):
                gradient_check._check_backward_with_params(
                    forward, inputs, grad_outputs, params=params,
                    dtype=self.numerical_grad_dtype,
                    detect_nondifferentiable=self.dodge_nondifferentiable,
                    **self.check_backward_options)

        _repeat_until_differentiable(do_check, self.dodge_nondifferentiable)


class LinkInitializersTestCase(_LinkTestBase, unittest.TestCase):
    """Base class of tests of how a link initializes its parameters.

    Use it with :func:`~chainer.testing.inject_backend_tests`. For each
    initializer argument of the link and each initializer-like listed for
    it by ``get_initializers``, ``test_initializers`` builds the link with
    that initializer (the other arguments come from ``generate_params``),
    runs it once on the backend's device so that lazily initialized
    parameters get their values, and compares the parameter with an array
    filled by the initializer on the CPU. Initializers must therefore be
    deterministic.

    Methods to override:

    - ``generate_params(self)``, ``create_link(self, initializers)``,
      ``generate_inputs(self)`` (required), and ``forward(self, link,
      inputs, device)``: as in :class:`LinkTestCase`.
    - ``get_initializers(self)`` (required): a tuple with, for each
      initializer argument of the link (in the order of
      ``generate_params`` and ``param_names``), a tuple or list of the
      initializer-likes to try. Wrap a constructor argument that is not
      the initializer the link applies (e.g. ``None``) in an
      :class:`InitializerArgument`.
    - ``before_test(self, test_name)``: called first; ``test_name`` is
      ``'test_initializers'``.

    Attributes to set (on the class or in ``setUp``):

    - ``param_names`` (tuple or list of str): the parameters filled by the
      initializer arguments, in the same order.
    - ``check_initializers_options`` (options of
      :func:`~chainer.testing.assert_allclose`).
    - ``contiguous`` (``None`` or ``'C'``).

    A parameter that does not hold what its initializer gives raises
    :class:`LinkTestError`.

    .. admonition:: Example

       A ``Scale`` link that falls back to ones when given ``None``:

       >>> import numpy
       >>> import chainer.functions as F
       >>> from chainer import initializers, testing
       >>> class Scale(chainer.Link):
       ...     def __init__(self, initial_w=None):
       ...         super().__init__()
       ...         if initial_w is None:
       ...             initial_w = 1
       ...         with self.init_scope():
       ...             self.W = chainer.Parameter(initial_w, (3,))
       ...     def forward(self, x):
       ...         return x * F.broadcast_to(self.W, x.shape)
       >>> @testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
       ... class TestScaleInitializers(testing.LinkInitializersTestCase):
       ...     param_names = ('W',)
       ...     def generate_params(self):
       ...         return numpy.random.uniform(-1, 1, (3,)).astype('f'),
       ...     def create_link(self, initializers):
       ...         initial_w, = initializers
       ...         return Scale(initial_w)
       ...     def generate_inputs(self):
       ...         return numpy.random.uniform(-1, 1, (2, 3)).astype('f'),
       ...     def get_initializers(self):
       ...         return [initializers.Constant(2), 3,
       ...                 testing.InitializerArgument(None, 1)],
    """

    check_initializers_options = None

    _option_attributes = ('check_initializers_options',)

    def get_initializers(self):
        """Returns, per initializer argument, the initializers to try."""
        raise NotImplementedError('get_initializers is not implemented.')

    def _get_initializers(self):
        params_inits = self.get_initializers()
        if not isinstance(params_inits, (tuple, list)):
            raise TypeError(
                '`get_initializers` must return a tuple or a list.')
        for param_inits in params_inits:
            if not isinstance(param_inits, (tuple, list)):
                raise TypeError(
                    '`get_initializers` must return a tuple or a list of '
                    'tuples or lists.')
            for init in param_inits:
                _check_generated_initializer(init)
        return params_inits

    def test_initializers(self, backend_config):
        """Tests that the link fills its parameters as initialized."""
        self._begin_test('test_initializers', False, backend_config)
        for i_param, param_inits in enumerate(self._get_initializers()):
            # The arguments not under test come from generate_params.
            inits = list(self._generate_params())
            for init in param_inits:
                inits[i_param] = init
                self._test_single_initializer(i_param, inits, backend_config)

    def _test_single_initializer(self, i_param, inits, backend_config):
        link, _, _ = self._create_initialized_link(inits, backend_config)
        param = _get_link_params(link, self.param_names)[i_param]
        actual = backend.CpuDevice().send(param.array)
        expected = numpy.empty_like(actual)
        _get_expected_initializer(inits[i_param])(expected)
        _check_arrays_equal(
            (actual,), (expected,), LinkTestError,
            **self.check_initializers_options)
