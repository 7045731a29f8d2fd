"""A class decorator testing unary elementwise math functions."""

import unittest
import warnings

import numpy

from chainer.testing import attr

_error = attr.get_error()


def is_available():
    """Returns ``True`` if pytest, needed by the decorator, is installed."""
    return _error is None


def check_available():
    """Raises :class:`RuntimeError` if pytest is not installed."""
    if _error is not None:
        raise RuntimeError(
            '{} is not available.\nReason: {}: {}'.format(
                __name__, type(_error).__name__, _error))


def _is_old_style(func):
    from chainer import function
    return isinstance(func, function.Function)


def _func_name(func):
    if _is_old_style(func):
        return type(func).__name__.lower()
    return func.__name__


def _func_class(func):
    # The function class whose label is tested, if there is one.
    from chainer import functions
    if _is_old_style(func):
        return type(func)
    return getattr(functions, func.__name__.capitalize(), None)


def _make_data_default(shape, dtype):
    x = numpy.random.uniform(-1, 1, shape).astype(dtype, copy=False)
    gy = numpy.random.uniform(-1, 1, shape).astype(dtype, copy=False)
    ggx = numpy.random.uniform(-1, 1, shape).astype(dtype, copy=False)
    return x, gy, ggx


def _nonlinear(func):
    def square_of_func(x):
        y = func(x)
        return y * y
    return square_of_func


def _tolerances(dtype):
    # (forward, backward, double backward) options for the dtype.
    if dtype == numpy.float16:
        eps16 = float(numpy.finfo(numpy.float16).eps)
        forward = {'atol': eps16, 'rtol': eps16}
        backward = {'eps': 2 ** -4, 'atol': 2 ** -4, 'rtol': 2 ** -4,
                    'dtype': numpy.float64}
        return forward, backward, dict(backward)
    forward = {'atol': 1e-4, 'rtol': 1e-4}
    backward = {'dtype': numpy.float64, 'atol': 1e-4, 'rtol': 1e-4}
    return forward, backward, dict(backward)


def unary_math_function_unittest(func, func_expected=None, label_expected=None,
                                 make_data=None, is_linear=None,
                                 forward_options=None,
                                 backward_options=None,
                                 double_backward_options=None):
    """Class decorator testing a unary elementwise math function.

    The decorated :class:`unittest.TestCase` gets forward, backward and
    double backward tests on CPU and GPU, parameterized over shapes
    ``(3, 2)`` and ``()`` and dtypes float16, float32 and float64. The
    function must take one array and return one of the same dtype.

    Args:
        func: The Chainer function to test (a :class:`~chainer.Function`
            object is accepted for backward compatibility; it is not tested
            for double backward).
        func_expected: The reference, called as
            ``func_expected(x, dtype=x.dtype)``; by default the NumPy
            function of the same name.
        label_expected (str): Expected label of the function class; by
            default the function's name.
        make_data (callable): ``make_data(shape, dtype)`` returns the input,
            the output gradient and the second-order input gradient
            (input and output gradient only for an old-style Function).
            Uniform in [-1, 1) by default.
        is_linear: Deprecated and ignored unless true, in which case the
            double backward test is run on ``func(x) ** 2``.
        forward_options (dict): Options of
            :func:`~chainer.testing.assert_allclose`, updating the defaults.
        backward_options (dict): Options of
            :func:`~chainer.gradient_check.check_backward`, updating the
            defaults.
        double_backward_options (dict): Options of
            :func:`~chainer.gradient_check.check_double_backward`, updating
            the defaults.

    Returns:
        callable: The class decorator.

    Raises:
        ValueError: If NumPy has no function named like ``func`` and
            ``func_expected`` is not given.

    .. admonition:: Example

       >>> import unittest
       >>> from chainer import functions as F
       >>> from chainer import testing
       >>> @testing.unary_math_function_unittest(F.sin)
       ... class TestSin(unittest.TestCase):
       ...     pass
    """
    check_available()
    from chainer import gradient_check
    from chainer import testing
    from chainer import variable
    from chainer.backends import cuda

    is_new_style = not _is_old_style(func)
    func_name = _func_name(func)
    func_class = _func_class(func)
    if func_expected is None:
        try:
            func_expected = getattr(numpy, func_name)
        except AttributeError:
            raise ValueError('NumPy has no functions corresponding '
                             'to Chainer function \'{}\'.'.format(func_name))
    if label_expected is None:
        label_expected = func_name
    elif func_class is None:
        raise ValueError('Expected label is given even though Chainer '
                         'function does not have its label.')
    if make_data is None:
        if is_new_style:
            make_data = _make_data_default
        else:
            def make_data(shape, dtype):
                return _make_data_default(shape, dtype)[:2]
    if is_linear is not None:
        warnings.warn('is_linear option is deprecated', DeprecationWarning)

    def setUp(self):
        if is_new_style:
            self.x, self.gy, self.ggx = make_data(self.shape, self.dtype)
        else:
            self.x, self.gy = make_data(self.shape, self.dtype)
        (self.forward_options, self.backward_options,
         self.double_backward_options) = _tolerances(self.dtype)
        self.forward_options.update(forward_options or {})
        self.backward_options.update(backward_options or {})
        self.double_backward_options.update(double_backward_options or {})

    def check_forward(self, x_data):
        y = func(variable.Variable(x_data))
        self.assertEqual(y.data.dtype, x_data.dtype)
        y_expected = func_expected(cuda.to_cpu(x_data), dtype=x_data.dtype)
        testing.assert_allclose(y_expected, y.data, **self.forward_options)

    def test_forward_cpu(self):
        self.check_forward(self.x)

    @attr.gpu
    def test_forward_gpu(self):
        self.check_forward(cuda.to_gpu(self.x))

    def check_backward(self, x_data, y_grad):
        gradient_check.check_backward(
            func, x_data, y_grad, **self.backward_options)

    def test_backward_cpu(self):
        self.check_backward(self.x, self.gy)

    @attr.gpu
    def test_backward_gpu(self):
        self.check_backward(cuda.to_gpu(self.x), cuda.to_gpu(self.gy))

    def check_double_backward(self, x_data, y_grad, x_grad_grad):
        target = _nonlinear(func) if is_linear else func
        gradient_check.check_double_backward(
            target, x_data, y_grad, x_grad_grad,
            **self.double_backward_options)

    def test_double_backward_cpu(self):
        self.check_double_backward(self.x, self.gy, self.ggx)

    @attr.gpu
    def test_double_backward_gpu(self):
        self.check_double_backward(
            cuda.to_gpu(self.x), cuda.to_gpu(self.gy), cuda.to_gpu(self.ggx))

    def test_label(self):
        self.assertEqual(func_class().label, label_expected)

    members = {
        'setUp': setUp,
        'check_forward': check_forward,
        'test_forward_cpu': test_forward_cpu,
        'test_forward_gpu': test_forward_gpu,
        'check_backward': check_backward,
        'test_backward_cpu': test_backward_cpu,
        'test_backward_gpu': test_backward_gpu,
    }
    if is_new_style:
        members.update({
            'check_double_backward': check_double_backward,
            'test_double_backward_cpu': test_double_backward_cpu,
            'test_double_backward_gpu': test_double_backward_gpu,
        })
    if func_class is not None:
        members['test_label'] = test_label

    def decorator(klass):
        assert issubclass(klass, unittest.TestCase)
        for name, member in members.items():
            setattr(klass, name, member)
        return testing.parameterize(*testing.product({
            'shape': [(3, 2), ()],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }))(klass)
    return decorator
