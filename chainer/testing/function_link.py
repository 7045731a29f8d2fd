"""A test harness for functions: forward, backward and double backward.

Link test cases (``LinkTestCase``, ``LinkInitializersTestCase``) are not
provided yet.
"""

import contextlib
import io
import unittest

import numpy

import chainer
from chainer import backend
from chainer.testing import array as array_module


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
    """Raised when the target function is implemented incorrectly."""


class LinkTestError(_TestError):
    """Raised when the target link is implemented incorrectly."""


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
            array_module._format_array_props(expected_arrays),
            array_module._format_array_props(actual_arrays)))
    if details is not None:
        msg += '\n\n' + details
    test_error_cls.fail(msg)


def _is_array(a):
    return isinstance(a, chainer.get_array_types())


class FunctionTestBase:
    """The logic of :class:`FunctionTestCase`, independent of unittest."""

    backend_config = None
    check_forward_options = None
    check_backward_options = None
    check_double_backward_options = None
    skip_forward_test = False
    skip_backward_test = False
    skip_double_backward_test = False
    dodge_nondifferentiable = False
    numerical_grad_dtype = numpy.float64
    contiguous = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Each test gets its own copies: tests may update them in setUp.
        cls = type(self)
        self.check_forward_options = dict(cls.check_forward_options or {})
        self.check_backward_options = dict(cls.check_backward_options or {})
        self.check_double_backward_options = dict(
            cls.check_double_backward_options or {})

    def before_test(self, test_name):
        """Called before each test; may raise :class:`unittest.SkipTest`."""

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
        return tuple(
            numpy.random.uniform(-1, 1, a.shape).astype(a.dtype)
            for a in outputs_template)

    def generate_grad_grad_inputs(self, inputs_template):
        """Returns random second-order gradients shaped like the inputs."""
        return tuple(
            numpy.random.uniform(-1, 1, a.shape).astype(a.dtype)
            for a in inputs_template)

    def check_forward_outputs(self, outputs, expected_outputs):
        """Compares the outputs with the expected ones.

        Raises:
            FunctionTestError: If they differ.
        """
        assert isinstance(outputs, tuple)
        assert isinstance(expected_outputs, tuple)
        assert all(_is_array(a) for a in outputs)
        assert all(_is_array(a) for a in expected_outputs)
        _check_arrays_equal(
            outputs, expected_outputs, FunctionTestError,
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

    def _begin_test(self, test_name, skip, backend_config):
        if skip:
            raise unittest.SkipTest('skip_{}_test is set'.format(
                test_name[len('test_'):]))
        self.backend_config = backend_config
        self.test_name = test_name
        self.before_test(test_name)

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
                array_module._format_array_props(inputs)))
        for i in indices:
            f.write('\nInput[{}]:\nOriginal:\n{}\nAfter forward:\n{}\n'.format(
                i, inputs_copied[i], inputs[i]))
        FunctionTestError.fail(f.getvalue())

    def _repeat_until_differentiable(self, do_check):
        # With ``dodge_nondifferentiable``, inputs found at a
        # non-differentiable point are drawn again.
        from chainer import gradient_check

        while True:
            try:
                do_check()
            except gradient_check.NondifferentiableError:
                if self.dodge_nondifferentiable:
                    continue
                raise
            return

    def run_test_backward(self, backend_config):
        """Checks ``forward``'s gradients with ``check_backward``."""
        from chainer import gradient_check

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

        self._repeat_until_differentiable(do_check)

    def run_test_double_backward(self, backend_config):
        """Checks ``forward``'s second-order gradients."""
        from chainer import gradient_check

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

        self._repeat_until_differentiable(do_check)


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
