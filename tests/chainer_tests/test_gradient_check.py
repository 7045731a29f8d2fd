import warnings

import numpy
import pytest

import chainer
from chainer import gradient_check
from chainer import testing


class Square(chainer.FunctionNode):
    """y = x ** 2, with a backward that can be made wrong by a factor."""

    def __init__(self, factor=2):
        self.factor = factor

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return x * x,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        return gy * x * self.factor,


class Cube(chainer.FunctionNode):
    """y = x ** 3; with ``detach`` the backward is not differentiable."""

    def __init__(self, detach=False):
        self.detach = detach

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return x * x * x,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if self.detach:
            return gy * chainer.Variable(3 * x.array * x.array),
        return gy * 3 * x * x,


class MulAdd(chainer.FunctionNode):
    """(a * b, a + b); ``wrong_input`` selects a gradient to break."""

    def __init__(self, wrong_input=None):
        self.wrong_input = wrong_input

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        a, b = inputs
        return a * b, a + b

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        g_mul, g_add = grad_outputs
        ga = 0
        gb = 0
        if g_mul is not None:
            ga = ga + g_mul * b
            gb = gb + g_mul * a
        if g_add is not None:
            ga = ga + g_add
            gb = gb + g_add
        grads = [ga, gb]
        if self.wrong_input is not None:
            grads[self.wrong_input] = grads[self.wrong_input] * 1.5
        return tuple(grads)


class ScaleByInt(chainer.FunctionNode):
    """y = x * n for an integer array n."""

    def forward(self, inputs):
        self.retain_inputs((1,))
        x, n = inputs
        return (x * n).astype(x.dtype),

    def backward(self, indexes, grad_outputs):
        n, = self.get_retained_inputs()
        gy, = grad_outputs
        scale = chainer.Variable(n.array.astype(gy.dtype))
        return gy * scale, None


class BadGradDtype(chainer.FunctionNode):

    def forward(self, inputs):
        x, = inputs
        return x * 2,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return chainer.Variable(gy.array.astype(numpy.float64) * 2),


def square(x, factor=2):
    return Square(factor).apply((x,))[0]


def cube(x, detach=False):
    return Cube(detach).apply((x,))[0]


def uniform(shape, dtype=numpy.float64, low=-1, high=1):
    return numpy.random.uniform(low, high, shape).astype(dtype)


@pytest.fixture(autouse=True)
def seeded():
    state = numpy.random.get_state()
    numpy.random.seed(0)
    yield
    numpy.random.set_state(state)


class TestNumericalGrad:

    def test_matches_analytic_gradient(self):
        x = numpy.array([0.5, -1.0, 2.0])
        y = numpy.array([[1.5], [-0.25], [3.0]])
        gz1 = numpy.array([1.0, 2.0, -1.0])
        gz2 = numpy.array([[0.5, -0.5, 1.0]] * 3)

        def f():
            return x * x, y * x

        gx, gy = gradient_check.numerical_grad(f, (x, y), (gz1, gz2))
        expected_gx = 2 * x * gz1 + (gz2 * y).sum(axis=0)
        expected_gy = (gz2 * x).sum(axis=1, keepdims=True)
        numpy.testing.assert_allclose(gx, expected_gx, rtol=1e-6)
        numpy.testing.assert_allclose(gy, expected_gy, rtol=1e-6)

    def test_inputs_are_restored(self):
        x = numpy.array([0.5, -1.0, 2.0])
        orig = x.copy()
        gradient_check.numerical_grad(
            lambda: (numpy.sin(x),), (x,), (numpy.ones(3),))
        numpy.testing.assert_array_equal(x, orig)

    def test_scalar_and_none_grad_outputs(self):
        x = numpy.array([1.0, 2.0])
        gx, = gradient_check.numerical_grad(
            lambda: (x * 3, x * x), (x,), (2.0, None))
        numpy.testing.assert_allclose(gx, [6.0, 6.0], rtol=1e-6)

    def test_result_dtype_follows_input(self):
        x = numpy.array([1.0, 2.0], numpy.float32)
        gx, = gradient_check.numerical_grad(
            lambda: (x * 3,), (x,), (numpy.ones(2, numpy.float32),),
            eps=1e-2)
        assert gx.dtype == numpy.float32
        numpy.testing.assert_allclose(gx, [3.0, 3.0], rtol=1e-3)

    def test_higher_order_with_detection(self):
        # The five-point stencil is exact for cubics; central differences
        # are off by eps ** 2.
        x = numpy.array([1.0, 2.0])
        eps = 0.1
        gx2, = gradient_check.numerical_grad(
            lambda: (x ** 3,), (x,), (numpy.ones(2),), eps=eps)
        gx5, = gradient_check.numerical_grad(
            lambda: (x ** 3,), (x,), (numpy.ones(2),), eps=eps,
            detect_nondifferentiable=True)
        numpy.testing.assert_allclose(gx2, 3 * x * x + eps ** 2)
        numpy.testing.assert_allclose(gx5, 3 * x * x, rtol=1e-10)

    def test_detects_kink(self):
        x = numpy.array([0.0, 1.0])
        with pytest.raises(gradient_check.NondifferentiableError) as e:
            gradient_check.numerical_grad(
                lambda: (numpy.abs(x),), (x,), (numpy.ones(2),),
                detect_nondifferentiable=True)
        message = str(e.value)
        assert message.startswith(
            'Tried to compute the numeric gradient on a non-differentiable '
            'point.\n\n')
        assert 'index on x: (0,)' in message
        assert 'fitting errors: ' in message

    def test_detects_change_of_finiteness(self):
        x = numpy.array([0.0])
        with pytest.raises(gradient_check.NondifferentiableError) as e:
            with numpy.errstate(divide='ignore', invalid='ignore'):
                gradient_check.numerical_grad(
                    lambda: (numpy.log(x),), (x,), (numpy.ones(1),),
                    detect_nondifferentiable=True)
        assert 'y[x-eps  ]: [nan]' in str(e.value)

    def test_consistently_nonfinite_is_not_a_kink(self):
        x = numpy.array([-1.0])
        with numpy.errstate(invalid='ignore'):
            gx, = gradient_check.numerical_grad(
                lambda: (numpy.log(x),), (x,), (numpy.ones(1),),
                detect_nondifferentiable=True)
        assert numpy.isnan(gx).all()

    def test_smooth_point_is_not_a_kink(self):
        x = numpy.array([0.5, 1.0])
        gx, = gradient_check.numerical_grad(
            lambda: (numpy.abs(x),), (x,), (numpy.ones(2),),
            detect_nondifferentiable=True)
        numpy.testing.assert_allclose(gx, [1.0, 1.0])

    def test_non_float_input(self):
        x = numpy.array([1, 2], numpy.int32)
        with pytest.raises(
                RuntimeError, match='dtype of input arrays must be kind'):
            gradient_check.numerical_grad(lambda: (x,), (x,), (None,))


class TestCheckBackward:

    @pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
    def test_correct_backward_passes(self, dtype):
        x = uniform((3, 4), dtype)
        gy = uniform((3, 4), dtype)
        # float32 numerics are too coarse for the default tolerances.
        gradient_check.check_backward(square, x, gy, dtype=numpy.float64)

    def test_wrong_backward_fails(self):
        x = uniform((3, 4), low=0.5, high=1)
        gy = uniform((3, 4), low=0.5, high=1)
        with pytest.raises(AssertionError) as e:
            gradient_check.check_backward(
                lambda x: square(x, factor=3), x, gy)
        message = str(e.value)
        assert message.startswith(
            'check_backward failed (eps=0.001 atol=1e-05 rtol=0.0001)\n'
            'inputs[0]:\n')
        assert '\ngrad_outputs[0]:\n' in message
        assert '\ndirections[0]:\n' in message
        assert '\ngradients (numeric):  ' in message
        assert '\ngradients (backward): ' in message
        assert '\nx: numeric gradient, y: backward gradient' in message
        assert 'assert_allclose failed:' in message

    def test_tuple_inputs_and_outputs(self):
        a, b = uniform((2, 3)), uniform((2, 3))
        gys = uniform((2, 3)), uniform((2, 3))
        gradient_check.check_backward(
            lambda a, b: MulAdd().apply((a, b)), (a, b), gys)

    @pytest.mark.parametrize('wrong_input', [0, 1])
    def test_each_wrong_input_gradient_fails(self, wrong_input):
        a, b = uniform((2, 3)), uniform((2, 3))
        gys = uniform((2, 3)), uniform((2, 3))
        with pytest.raises(AssertionError):
            gradient_check.check_backward(
                lambda a, b: MulAdd(wrong_input).apply((a, b)), (a, b), gys)

    def test_omitted_output_gradient(self):
        a, b = uniform((2, 3)), uniform((2, 3))
        gradient_check.check_backward(
            lambda a, b: MulAdd().apply((a, b)), (a, b),
            (None, uniform((2, 3))))

    def test_loss_function_without_y_grad(self):
        x = uniform((3,))
        gradient_check.check_backward(
            lambda x: chainer.functions.sum(square(x)), x, None)

    def test_y_grad_omitted_for_non_loss(self):
        with pytest.raises(ValueError) as e:
            gradient_check.check_backward(square, uniform((2, 3)), None)
        assert str(e.value) == (
            'y_grad argument cannot be omitted if the target function is '
            'not a loss function, which has a single output with shape ().'
            '\nActual output shapes: (2, 3)')

    def test_y_grad_shape_mismatch(self):
        with pytest.raises(ValueError) as e:
            gradient_check.check_backward(
                square, uniform((2, 3)), uniform((3,)))
        assert str(e.value) == (
            'Shapes and/or dtypes of outputs and output gradients do not '
            'match.\n'
            'Output shapes and dtypes         : (2, 3):float64\n'
            'Output gradient shapes and dtypes: (3,):float64')

    def test_y_grad_dtype_mismatch(self):
        with pytest.raises(ValueError, match='Shapes and/or dtypes'):
            gradient_check.check_backward(
                square, uniform((2, 3)), uniform((2, 3), numpy.float32))

    def test_y_grad_count_mismatch(self):
        gy = uniform((2, 3))
        with pytest.raises(ValueError, match='equally as many elements'):
            gradient_check.check_backward(square, uniform((2, 3)), (gy, gy))

    def test_no_grads_length_mismatch(self):
        with pytest.raises(ValueError) as e:
            gradient_check.check_backward(
                square, uniform((2,)), uniform((2,)), no_grads=[False, True])
        assert str(e.value) == (
            'Length of no_grads param and xs should be same.\n'
            'Actual: 2 != 1')

    def test_non_float_dtype(self):
        with pytest.raises(ValueError, match='allowed only float type'):
            gradient_check.check_backward(
                square, uniform((2,)), uniform((2,)), dtype=numpy.int32)

    def test_int_input_is_skipped_by_default(self):
        x = uniform((2, 3))
        n = numpy.array([[1, 2, 3], [-1, 0, 2]], numpy.int32)
        gradient_check.check_backward(
            lambda x, n: ScaleByInt().apply((x, n))[0], (x, n),
            uniform((2, 3)))

    def test_no_grads_input_getting_gradient(self):
        a, b = uniform((2,)), uniform((2,))
        with pytest.raises(RuntimeError):
            gradient_check.check_backward(
                lambda a, b: MulAdd().apply((a, b))[0], (a, b),
                uniform((2,)), no_grads=[False, True])

    def test_no_grads_skips_wrong_gradient(self):
        # The gradient of input 1 is wrong but input 1 is left out; since
        # it still gets a gradient, use a function that detaches it.
        a, b = uniform((2,)), uniform((2,))

        def f(a, b):
            return square(a) * chainer.Variable(b.array)

        gradient_check.check_backward(
            f, (a, b), uniform((2,)), no_grads=[False, True])

    def test_float16_with_float64_numerics(self):
        x = uniform((3,), numpy.float16)
        gy = uniform((3,), numpy.float16)
        gradient_check.check_backward(
            square, x, gy, dtype=numpy.float64, atol=1e-2, rtol=1e-2)

    def test_float16_wrong_backward_fails(self):
        x = uniform((3,), numpy.float16, low=0.5)
        gy = uniform((3,), numpy.float16, low=0.5)
        with pytest.raises(AssertionError):
            gradient_check.check_backward(
                lambda x: square(x, 3), x, gy, dtype=numpy.float64,
                atol=1e-2, rtol=1e-2)

    def test_detect_nondifferentiable(self):
        x = numpy.array([0.0, 1.0], numpy.float64)

        def f(x):
            return chainer.functions.absolute(x)

        with pytest.raises(gradient_check.NondifferentiableError):
            gradient_check.check_backward(
                f, x, numpy.ones(2), detect_nondifferentiable=True)

    def test_backward_of_wrong_dtype(self):
        x = uniform((2,), numpy.float32)
        with pytest.raises((TypeError, ValueError), match='[Dd]type'):
            gradient_check.check_backward(
                lambda x: BadGradDtype().apply((x,))[0], x,
                uniform((2,), numpy.float32))

    def test_inputs_are_not_modified(self):
        x = uniform((2, 3))
        gy = uniform((2, 3))
        x0, gy0 = x.copy(), gy.copy()
        gradient_check.check_backward(square, x, gy)
        numpy.testing.assert_array_equal(x, x0)
        numpy.testing.assert_array_equal(gy, gy0)

    def test_deterministic_under_fixed_seed(self):
        x = uniform((2, 3), low=0.5)
        gy = uniform((2, 3), low=0.5)
        messages = []
        for _ in range(2):
            numpy.random.seed(3)
            with pytest.raises(AssertionError) as e:
                gradient_check.check_backward(
                    lambda x: square(x, 3), x, gy)
            messages.append(str(e.value))
        assert messages[0] == messages[1]


class TestCheckBackwardParams:

    def setup_method(self):
        self.w = chainer.Parameter(uniform((3,)))

    def func(self, factor=1.0):
        w = self.w

        def f(x):
            wb = chainer.functions.broadcast_to(w, x.shape)
            if factor != 1.0:
                # The forward is x * w, the backward to w is scaled.
                wb = ScaledGrad(factor).apply((wb,))[0]
            return x * wb
        return f

    def test_correct(self):
        gradient_check.check_backward(
            self.func(), uniform((2, 3)), uniform((2, 3)), params=self.w)

    def test_wrong_param_gradient(self):
        with pytest.raises(AssertionError):
            gradient_check.check_backward(
                self.func(2.0), uniform((2, 3)), uniform((2, 3)),
                params=(self.w,))

    def test_param_state_is_kept(self):
        self.w = chainer.Parameter(uniform((3,), numpy.float32))
        grad = uniform((3,), numpy.float32)
        self.w.grad = grad.copy()
        array = self.w.array
        gradient_check.check_backward(
            self.func(), uniform((2, 3), numpy.float32),
            uniform((2, 3), numpy.float32), params=(self.w,),
            dtype=numpy.float64, atol=1e-3, rtol=1e-3)
        assert self.w.array is array
        assert self.w.array.dtype == numpy.float32
        numpy.testing.assert_array_equal(self.w.grad, grad)

    def test_param_without_grad_stays_without(self):
        gradient_check.check_backward(
            self.func(), uniform((2, 3)), uniform((2, 3)), params=(self.w,))
        assert self.w.grad is None

    def test_immutable_params(self):
        w = uniform((3,))

        def f(xs, params):
            x, = xs
            p, = params
            return x * chainer.functions.broadcast_to(p, x.shape)

        gradient_check._check_backward_with_params(
            f, uniform((2, 3)), uniform((2, 3)), params=(w,))


class ScaledGrad(chainer.FunctionNode):
    """Identity whose backward scales the gradient."""

    def __init__(self, factor):
        self.factor = factor

    def forward(self, inputs):
        return inputs[0].copy(),

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * self.factor,


class TestCheckDoubleBackward:

    def test_correct(self):
        x, gy, ggx = uniform((2, 3)), uniform((2, 3)), uniform((2, 3))
        gradient_check.check_double_backward(cube, x, gy, ggx)

    def test_not_differentiable_backward_fails(self):
        x = uniform((2, 3), low=0.5)
        gy = uniform((2, 3), low=0.5)
        ggx = uniform((2, 3), low=0.5)
        with pytest.raises(AssertionError) as e:
            gradient_check.check_double_backward(
                lambda x: cube(x, detach=True), x, gy, ggx)
        message = str(e.value)
        assert message.startswith(
            'check_double_backward failed (eps=0.001 atol=0.0001 '
            'rtol=0.001)\ninput[0]:\n')
        assert '\ngrad_output[0]:\n' in message
        assert '\ngrad_grad_input[0]:\n' in message
        assert 'check_backward failed' in message

    def test_two_inputs_two_outputs(self):
        a, b = uniform((2,)), uniform((2,))
        gys = uniform((2,)), uniform((2,))
        ggxs = uniform((2,)), uniform((2,))
        gradient_check.check_double_backward(
            lambda a, b: MulAdd().apply((a, b)), (a, b), gys, ggxs)

    def test_with_params(self):
        w = chainer.Parameter(uniform((3,)))

        def f(x):
            return x * x * chainer.functions.broadcast_to(w, x.shape)

        x, gy, ggx = uniform((2, 3)), uniform((2, 3)), uniform((2, 3))
        gradient_check.check_double_backward(
            f, x, gy, ggx, params=w, params_grad_grad=uniform((3,)))
        assert w.grad is None

    def test_float16_output_gradients(self):
        x = uniform((3,), numpy.float16)
        gy = uniform((3,), numpy.float16)
        ggx = uniform((3,), numpy.float16)
        gradient_check.check_double_backward(
            cube, x, gy, ggx, dtype=numpy.float64, atol=5e-2, rtol=5e-2)


def test_assert_allclose_is_deprecated():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        gradient_check.assert_allclose(numpy.ones(2), numpy.ones(2))
    assert any(issubclass(x.category, DeprecationWarning) for x in w)
    with pytest.raises(AssertionError):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            gradient_check.assert_allclose(numpy.ones(2), numpy.zeros(2))


@pytest.mark.gpu
def test_check_backward_gpu():
    cupy = pytest.importorskip('cupy')
    x = cupy.asarray(uniform((3, 4)))
    gy = cupy.asarray(uniform((3, 4)))
    gradient_check.check_backward(square, x, gy)
    with pytest.raises(AssertionError):
        gradient_check.check_backward(lambda x: square(x, 3), x + 1, gy + 2)


@pytest.mark.gpu
def test_numerical_grad_gpu():
    cupy = pytest.importorskip('cupy')
    x = cupy.array([0.5, -1.0, 2.0])
    gx, = gradient_check.numerical_grad(
        lambda: (x * x,), (x,), (cupy.ones(3),))
    assert isinstance(gx, cupy.ndarray)
    testing.assert_allclose(gx, 2 * x, rtol=1e-6)
    with pytest.raises(gradient_check.NondifferentiableError):
        y = cupy.array([0.0])
        gradient_check.numerical_grad(
            lambda: (cupy.abs(y),), (y,), (cupy.ones(1),),
            detect_nondifferentiable=True)
    with pytest.raises(RuntimeError, match='Do not mix GPU and CPU'):
        gradient_check.numerical_grad(
            lambda: (x * x,), (x,), (numpy.ones(3),))


def test_numerical_grad_of_python_scalar_outputs():
    x = numpy.array(0.0, numpy.float32)
    y = numpy.array(1.0, numpy.float32)

    def f():
        if -1 < x < 1:
            return x.copy(),
        if -2 < x < 2:
            return 2 * x,
        return 0,

    for eps, expected in ((0.5, 1.), (1.5, 2.), (2.5, 0.)):
        gx, = gradient_check.numerical_grad(f, (x,), (y,), eps=eps)
        assert gx == expected
    gx, = gradient_check.numerical_grad(lambda: (1,), (x,), (y,))
    assert gx == 0


def test_numerical_grad_ignores_given_center_outputs():
    # As Chainer does: the given outputs may be of a low-precision dtype,
    # too coarse to judge differentiability, so they are recomputed.
    x = numpy.array([1.0])
    calls = []

    def f():
        calls.append(float(x[0]))
        return x * x,

    gx, = gradient_check.numerical_grad(
        f, (x,), (numpy.ones(1),), eps=0.1,
        detect_nondifferentiable=True, center_outputs=(numpy.zeros(1),))
    assert 1.0 in calls and len(calls) == 5
    numpy.testing.assert_allclose(gx, [2.0])


@pytest.mark.parametrize('size', [0, 1, 5, 64])
def test_sample_unit_vector(size):
    y = gradient_check._CheckBackward._sample_unit_vector(size, numpy)
    assert y.shape == (size,)
    if size:
        numpy.testing.assert_allclose(numpy.square(y).sum(), 1.0)
        assert numpy.abs(y).min() >= 0.1 / numpy.sqrt(size)
