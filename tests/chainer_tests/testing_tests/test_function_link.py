"""The test case classes of chainer.testing.function_link:
FunctionTestCase, LinkTestCase and LinkInitializersTestCase."""

import unittest

import numpy
import pytest

import chainer
from chainer import initializers
from chainer import testing
import chainer.functions as F


class Square(chainer.FunctionNode):
    """y = x ** 2; the backward may be scaled or not differentiable."""

    def __init__(self, backward_factor=2, detach=False):
        self.backward_factor = backward_factor
        self.detach = detach

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return x * x,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if self.detach:
            x = chainer.Variable(x.array)
        return gy * x * self.backward_factor,


class _SquareTests:
    """FunctionTestCase methods checking ``Square`` on (3, 2) float32."""

    node_options = {}

    def setUp(self):
        self.check_backward_options.update({'atol': 1e-3, 'rtol': 1e-3})
        self.check_double_backward_options.update(
            {'atol': 1e-3, 'rtol': 1e-3})

    def generate_inputs(self):
        x = numpy.random.uniform(0.5, 1, (3, 2)).astype(numpy.float32)
        return x,

    def forward(self, inputs, device):
        x, = inputs
        return Square(**self.node_options).apply((x,))

    def forward_expected(self, inputs):
        x, = inputs
        return x * x,


@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSquare(_SquareTests, testing.FunctionTestCase):
    pass


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(
    None, [{}, {'use_cuda': True, 'use_cudnn': 'always'}])
class TestAbsolute(testing.FunctionTestCase):

    dodge_nondifferentiable = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (4, 3)).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.absolute(x),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.abs(x),


_CPU = testing.BackendConfig({})


def _function_case(test_name='test_forward', **attributes):
    """An instance of a variant of ``TestSquare``, not collected."""
    cls = type('_Case', (_SquareTests, testing.FunctionTestCase), attributes)
    case = cls(test_name)
    case.setUp()
    return case


class TestFunctionTestCaseDetectsErrors:

    def test_wrong_forward(self):
        def forward_expected(self, inputs):
            x, = inputs
            return x * x + 1,

        case = _function_case(forward_expected=forward_expected)
        with pytest.raises(testing.FunctionTestError) as e:
            case.run_test_forward(_CPU)
        message = str(e.value)
        assert message.startswith(
            'Outputs do not match the expected values.\n'
            'Indices of outputs that do not match: 0\n'
            'Expected shapes and dtypes: (3, 2):float32\n'
            'Actual shapes and dtypes:   (3, 2):float32\n')
        assert 'Error details of output [0]:' in message

    def test_wrong_output_dtype(self):
        def forward_expected(self, inputs):
            x, = inputs
            return (x * x).astype(numpy.float64),

        case = _function_case(forward_expected=forward_expected)
        with pytest.raises(
                testing.FunctionTestError,
                match='Shapes and/or dtypes do not match'):
            case.run_test_forward(_CPU)

    def test_wrong_number_of_outputs(self):
        def forward_expected(self, inputs):
            x, = inputs
            return x * x, x

        case = _function_case(forward_expected=forward_expected)
        with pytest.raises(
                testing.FunctionTestError,
                match=r'Number of outputs \(1, 2\) does not match'):
            case.run_test_forward(_CPU)

    def test_wrong_backward(self):
        case = _function_case(
            'test_backward', node_options={'backward_factor': 3})
        with pytest.raises(testing.FunctionTestError) as e:
            case.run_test_backward(_CPU)
        assert str(e.value).startswith(
            'backward is not implemented correctly\n\n(caused by)\n'
            'AssertionError: check_backward failed')

    def test_wrong_double_backward(self):
        case = _function_case(
            'test_double_backward', node_options={'detach': True})
        case.run_test_backward(_CPU)
        with pytest.raises(testing.FunctionTestError) as e:
            case.run_test_double_backward(_CPU)
        assert str(e.value).startswith(
            'double backward is not implemented correctly\n\n(caused by)\n'
            'AssertionError: check_double_backward failed')

    def test_correct_function_passes(self):
        case = _function_case()
        case.run_test_forward(_CPU)
        case.run_test_backward(_CPU)
        case.run_test_double_backward(_CPU)

    def test_input_modified_in_forward(self):
        def forward(self, inputs, device):
            x, = inputs
            y = Square().apply((x,))
            x.array[0, 0] = 100
            return y

        case = _function_case(forward=forward)
        with pytest.raises(testing.FunctionTestError) as e:
            case.run_test_forward(_CPU)
        assert str(e.value).startswith(
            'Input arrays have been modified during forward.\n'
            'Indices of modified inputs: 0\n'
            'Input array shapes and dtypes: (3, 2):float32\n')

    def test_forward_must_return_tuple(self):
        def forward(self, inputs, device):
            return Square().apply(inputs)[0]

        case = _function_case(forward=forward)
        with pytest.raises(
                testing.FunctionTestError, match='must return a tuple'):
            case.run_test_forward(_CPU)

    def test_forward_must_return_variables(self):
        def forward(self, inputs, device):
            return inputs[0].array * inputs[0].array,

        case = _function_case(forward=forward)
        with pytest.raises(
                testing.FunctionTestError,
                match=r'forward\(\) must return a tuple of Variables'):
            case.run_test_forward(_CPU)

    def test_generate_inputs_must_return_tuple(self):
        def generate_inputs(self):
            return [numpy.ones((3, 2), numpy.float32)]

        case = _function_case(generate_inputs=generate_inputs)
        with pytest.raises(TypeError, match='must return a tuple'):
            case.run_test_forward(_CPU)


class TestFunctionTestCaseOptions:

    @pytest.mark.parametrize('test_name', [
        'test_forward', 'test_backward', 'test_double_backward'])
    def test_skip_flags(self, test_name):
        flag = 'skip_{}_test'.format(test_name[len('test_'):])
        case = _function_case(test_name, **{flag: True})
        with pytest.raises(unittest.SkipTest, match=flag + ' is set'):
            getattr(case, 'run_' + test_name)(_CPU)

    def test_before_test(self):
        names = []

        def before_test(self, test_name):
            names.append(test_name)
            if test_name == 'test_double_backward':
                raise unittest.SkipTest('no double backward')

        case = _function_case(before_test=before_test)
        case.run_test_forward(_CPU)
        case.run_test_backward(_CPU)
        with pytest.raises(unittest.SkipTest):
            case.run_test_double_backward(_CPU)
        assert names == [
            'test_forward', 'test_backward', 'test_double_backward']
        assert case.test_name == 'test_double_backward'
        assert case.backend_config is _CPU

    def test_class_level_forward_options(self):
        def forward_expected(self, inputs):
            x, = inputs
            return x * x + 0.01,

        case = _function_case(forward_expected=forward_expected,
                     check_forward_options={'atol': 0.1})
        case.run_test_forward(_CPU)
        other = _function_case(forward_expected=forward_expected)
        with pytest.raises(testing.FunctionTestError):
            other.run_test_forward(_CPU)

    @pytest.mark.parametrize('contiguous, expected', [
        (None, False), ('C', True)])
    def test_contiguousness(self, contiguous, expected):
        seen = []

        def forward(self, inputs, device):
            seen.append(inputs[0].array.flags.c_contiguous)
            return Square().apply(inputs)

        case = _function_case(forward=forward, contiguous=contiguous)
        case.run_test_forward(_CPU)
        assert seen == [expected]

    def test_dodge_nondifferentiable_redraws(self):
        draws = []

        def generate_inputs(self):
            # The first draw falls on the kink of abs at 0.
            x = numpy.array([0.0 if not draws else 0.5], numpy.float32)
            draws.append(x)
            return x,

        def forward(self, inputs, device):
            return F.absolute(inputs[0]),

        def forward_expected(self, inputs):
            return numpy.abs(inputs[0]),

        case = _function_case(
            'test_backward', generate_inputs=generate_inputs,
            forward=forward, forward_expected=forward_expected,
            dodge_nondifferentiable=True)
        case.run_test_backward(_CPU)
        assert len(draws) == 2

    def test_grad_outputs_can_be_customized(self):
        calls = []

        def generate_grad_outputs(self, outputs_template):
            calls.append([a.shape for a in outputs_template])
            return numpy.ones((3, 2), numpy.float32),

        case = _function_case(generate_grad_outputs=generate_grad_outputs)
        case.run_test_backward(_CPU)
        assert calls == [[(3, 2)]]


# LinkTestCase and LinkInitializersTestCase ---------------------------------


class AffineFunction(chainer.FunctionNode):
    """y = x W^T (+ b); the gradient of one input may be doubled."""

    def __init__(self, wrong_grad=None):
        self.wrong_grad = wrong_grad

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        y = x.dot(W.T)
        if len(inputs) == 3:
            y += inputs[2]
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        grads = {
            'x': F.matmul(gy, W),
            'W': F.matmul(gy, x, transa=True),
            'b': F.sum(gy, axis=0),
        }
        if self.wrong_grad is not None:
            grads[self.wrong_grad] *= 2
        return tuple(grads[name] for name in 'xWb'[:len(self.inputs)])


class Affine(chainer.Link):
    """A fully connected link, with ways to be wrong on purpose.

    Args:
        in_size (int or None): Input size; None initializes W lazily,
            with the input's dtype.
        out_size (int): Output size.
        initialW: Initializer of W (LeCunNormal if None).
        initial_bias: Initializer of b (zeros if None).
        nobias (bool): Whether to go without b.
        forward_offset (float): Added to the outputs.
        wrong_grad (str): 'x', 'W' or 'b': whose gradient is doubled.
        ignored_initializers (tuple of str): Parameters filled with 0.5
            whatever their initializer.
    """

    def __init__(self, in_size, out_size, initialW=None, initial_bias=None,
                 nobias=False, forward_offset=0, wrong_grad=None,
                 ignored_initializers=()):
        super().__init__()
        self.out_size = out_size
        self.forward_offset = forward_offset
        self.wrong_grad = wrong_grad
        if 'W' in ignored_initializers:
            initialW = 0.5
        if 'b' in ignored_initializers:
            initial_bias = 0.5
        if initial_bias is None:
            initial_bias = 0
        with self.init_scope():
            self.W = chainer.Parameter(
                initializers._get_initializer(initialW),
                None if in_size is None else (out_size, in_size))
            self.b = None if nobias else chainer.Parameter(
                initializers._get_initializer(initial_bias), (out_size,))

    def forward(self, x):
        if self.W.array is None:
            with chainer.using_config('dtype', x.dtype):
                self.W.initialize((self.out_size, x.shape[1]))
        inputs = (x, self.W) if self.b is None else (x, self.W, self.b)
        y, = AffineFunction(self.wrong_grad).apply(inputs)
        if self.forward_offset:
            y = y + self.forward_offset
        return y


class _AffineTests:
    """Link test hooks for ``Affine(3, 2)`` on (4, 3) inputs."""

    dtype = numpy.float32
    nobias = False
    in_size = 3
    link_options = {}

    def setUp(self):
        self.param_names = ('W',) if self.nobias else ('W', 'b')
        self.created_with = []

    def generate_params(self):
        W = numpy.random.uniform(-1, 1, (2, 3)).astype(self.dtype)
        b = numpy.random.uniform(-1, 1, (2,)).astype(self.dtype)
        return (W,) if self.nobias else (W, b)

    def create_link(self, initializers):
        self.created_with.append(list(initializers))
        initialW = initializers[0]
        initial_bias = None if self.nobias else initializers[1]
        with chainer.using_config('dtype', self.dtype):
            return Affine(
                self.in_size, 2, initialW=initialW,
                initial_bias=initial_bias, nobias=self.nobias,
                **self.link_options)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (4, 3)).astype(self.dtype)
        return x,

    def forward_expected(self, link, inputs):
        x, = inputs
        y = x.dot(link.W.array.T)
        if link.b is not None:
            y += link.b.array
        return y,

    def get_initializers(self):
        W_inits = [
            initializers.Constant(1), 2,
            numpy.arange(6, dtype=self.dtype).reshape(2, 3)]
        if self.nobias:
            return W_inits,
        b_inits = [
            initializers.Constant(3), 4,
            testing.InitializerArgument(None, 0)]
        return W_inits, b_inits


@testing.parameterize(*testing.product({
    'dtype': [numpy.float32, numpy.float64],
    'nobias': [False, True],
    'in_size': [3, None],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAffine(_AffineTests, testing.LinkTestCase):
    pass


@testing.parameterize(*testing.product({
    'nobias': [False, True],
    'in_size': [3, None],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAffineInitializers(_AffineTests, testing.LinkInitializersTestCase):
    pass


def _case(base, test_name, **attributes):
    """An instance of a variant of an Affine test, not collected."""
    cls = type('_Case', (_AffineTests, base), attributes)
    case = cls(test_name)
    case.setUp()
    return case


def _link_case(test_name='test_forward', **attributes):
    return _case(testing.LinkTestCase, test_name, **attributes)


def _initializers_case(**attributes):
    return _case(
        testing.LinkInitializersTestCase, 'test_initializers', **attributes)


class TestLinkTestCaseDetectsErrors:

    def test_correct_link_passes(self):
        case = _link_case()
        case.test_forward(_CPU)
        case.test_backward(_CPU)

    def test_wrong_forward(self):
        case = _link_case(link_options={'forward_offset': 1})
        with pytest.raises(testing.LinkTestError) as e:
            case.test_forward(_CPU)
        message = str(e.value)
        assert message.startswith(
            'Outputs do not match the expected values.\n'
            'Indices of outputs that do not match: 0\n'
            'Expected shapes and dtypes: (4, 2):float32\n'
            'Actual shapes and dtypes:   (4, 2):float32\n')
        assert 'Error details of output [0]:' in message

    def test_wrong_output_dtype(self):
        def forward_expected(self, link, inputs):
            x, = inputs
            return x.dot(link.W.array.T).astype(numpy.float64),

        case = _link_case(forward_expected=forward_expected, nobias=True)
        with pytest.raises(
                testing.LinkTestError,
                match='Shapes and/or dtypes do not match'):
            case.test_forward(_CPU)

    @pytest.mark.parametrize('wrong_grad', ['x', 'W', 'b'])
    def test_wrong_backward(self, wrong_grad):
        case = _link_case(
            'test_backward', link_options={'wrong_grad': wrong_grad})
        with pytest.raises(testing.LinkTestError) as e:
            case.test_backward(_CPU)
        assert str(e.value).startswith(
            'backward is not implemented correctly\n\n(caused by)\n'
            'AssertionError: check_backward failed')

    @pytest.mark.parametrize('wrong_grad', ['W', 'b'])
    def test_only_params_named_are_checked(self, wrong_grad):
        names = tuple(n for n in ('W', 'b') if n != wrong_grad)
        case = _link_case(
            'test_backward', link_options={'wrong_grad': wrong_grad})
        case.param_names = names
        case.test_backward(_CPU)

    def test_check_forward_options_class_attribute(self):
        options = {'link_options': {'forward_offset': 1e-3}}
        with pytest.raises(testing.LinkTestError):
            _link_case(**options).test_forward(_CPU)
        _link_case(
            check_forward_options={'atol': 1e-2}, **options,
        ).test_forward(_CPU)

    def test_check_backward_options_in_set_up(self):
        case = _link_case('test_backward', link_options={'wrong_grad': 'W'})
        case.check_backward_options.update({'atol': 1e3, 'rtol': 1e3})
        case.test_backward(_CPU)

    def test_forward_must_return_tuple_of_variables(self):
        def forward(self, link, inputs, device):
            return link(*inputs).array,

        case = _link_case(forward=forward)
        with pytest.raises(
                testing.LinkTestError,
                match=r'forward\(\) must return a tuple of Variables'):
            case.test_forward(_CPU)

    def test_missing_parameter(self):
        case = _link_case('test_backward')
        case.param_names = ('W', 'c')
        with pytest.raises(
                testing.LinkTestError,
                match="Link does not have a parameter named 'c'."):
            case.test_backward(_CPU)

    def test_create_link_must_return_link(self):
        def create_link(self, initializers):
            return F.relu

        case = _link_case(create_link=create_link)
        with pytest.raises(
                TypeError,
                match='`create_link` must return a chainer.Link object.'):
            case.test_forward(_CPU)

    def test_generate_params_must_return_sequence(self):
        def generate_params(self):
            return numpy.ones((2, 3), numpy.float32)

        case = _link_case(generate_params=generate_params)
        with pytest.raises(
                TypeError,
                match='`generate_params` must return a tuple or a list.'):
            case.test_forward(_CPU)

    def test_generate_params_none_must_be_wrapped(self):
        def generate_params(self):
            return numpy.ones((2, 3), numpy.float32), None

        case = _link_case(generate_params=generate_params)
        with pytest.raises(
                ValueError,
                match='A None initializer must be wrapped in a '
                      'InitializerArgument'):
            case.test_forward(_CPU)

    def test_generate_params_initializer_argument(self):
        # The link gets the argument value; zeros is its fallback for b.
        def generate_params(self):
            W = numpy.ones((2, 3), numpy.float32)
            return W, testing.InitializerArgument(None, 0)

        case = _link_case(generate_params=generate_params)
        case.test_forward(_CPU)
        assert case.created_with[0][1] is None

    def test_generate_inputs_must_return_tuple(self):
        def generate_inputs(self):
            return [numpy.ones((4, 3), numpy.float32)]

        case = _link_case(generate_inputs=generate_inputs)
        with pytest.raises(TypeError, match='must return a tuple'):
            case.test_forward(_CPU)

    @pytest.mark.parametrize('test_name', ['test_forward', 'test_backward'])
    def test_skip(self, test_name):
        flag = 'skip_{}_test'.format(test_name[len('test_'):])
        case = _link_case(test_name, **{flag: True})
        with pytest.raises(
                unittest.SkipTest, match='{} is set'.format(flag)):
            getattr(case, test_name)(_CPU)

    @pytest.mark.parametrize('test_name', ['test_forward', 'test_backward'])
    def test_before_test(self, test_name):
        names = []
        case = _link_case(
            test_name, before_test=lambda self, name: names.append(name))
        getattr(case, test_name)(_CPU)
        assert names == [test_name]
        assert case.backend_config is _CPU

    @pytest.mark.parametrize('contiguous,expected', [
        (None, False), ('C', True)])
    def test_contiguous(self, contiguous, expected):
        seen = []

        def forward(self, link, inputs, device):
            x, = inputs
            seen.append(x.array.flags.c_contiguous)
            return link(x),

        case = _link_case(
            'test_backward', forward=forward, contiguous=contiguous)
        case.test_forward(_CPU)
        case.test_backward(_CPU)
        # The forward passes of the test, of the initialization and of the
        # analytic gradients; the numerical gradients use fresh copies.
        assert seen[:3] == [expected] * 3

    def test_forward_expected_gets_link_and_cpu_inputs(self):
        seen = []

        def forward_expected(self, link, inputs):
            seen.append((link, inputs))
            return _AffineTests.forward_expected(self, link, inputs)

        case = _link_case(forward_expected=forward_expected)
        case.test_forward(_CPU)
        (link, inputs), = seen
        assert isinstance(link, Affine)
        assert link.W.array is not None
        assert inputs[0].flags.c_contiguous

    def test_dodge_nondifferentiable(self):
        # The first inputs fall on the kink of |x W^T|; they are redrawn.
        draws = []

        def generate_inputs(self):
            draws.append(None)
            if len(draws) == 1:
                return numpy.zeros((4, 3), numpy.float32),
            return numpy.random.uniform(0.5, 1, (4, 3)).astype(
                numpy.float32),

        def forward(self, link, inputs, device):
            x, = inputs
            return F.absolute(link(x)),

        def generate_params(self):
            W = numpy.random.uniform(0.5, 1, (2, 3)).astype(numpy.float32)
            return W,

        case = _link_case(
            'test_backward', generate_inputs=generate_inputs,
            forward=forward, generate_params=generate_params, nobias=True,
            dodge_nondifferentiable=True)
        case.test_backward(_CPU)
        assert len(draws) >= 2


class TestLinkInitializersTestCaseDetectsErrors:

    def test_correct_link_passes(self):
        _initializers_case().test_initializers(_CPU)

    @pytest.mark.parametrize('name', ['W', 'b'])
    def test_initializer_not_applied(self, name):
        case = _initializers_case(
            link_options={'ignored_initializers': (name,)})
        with pytest.raises(testing.LinkTestError) as e:
            case.test_initializers(_CPU)
        shape = '(2, 3)' if name == 'W' else '(2,)'
        assert str(e.value).startswith(
            'Outputs do not match the expected values.\n'
            'Indices of outputs that do not match: 0\n'
            'Expected shapes and dtypes: {0}:float32\n'
            'Actual shapes and dtypes:   {0}:float32\n'.format(shape))

    def test_initializer_not_applied_is_not_a_forward_error(self):
        case = _link_case(link_options={'ignored_initializers': ('W',)})
        case.test_forward(_CPU)

    def test_each_initializer_is_passed_in_turn(self):
        W_init = initializers.Constant(1)
        W_array = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
        b_init = initializers.Constant(3)

        def get_initializers(self):
            return ((W_init, 2, W_array),
                    [b_init, testing.InitializerArgument(None, 0)])

        case = _initializers_case(get_initializers=get_initializers)
        case.test_initializers(_CPU)
        created = case.created_with
        assert len(created) == 5
        assert [c[0] for c in created[:3]] == [W_init, 2, W_array]
        assert [c[1] for c in created[3:]] == [b_init, None]
        # The other argument comes from generate_params.
        assert all(isinstance(c[1], numpy.ndarray) for c in created[:3])
        assert all(isinstance(c[0], numpy.ndarray) for c in created[3:])

    def test_initializer_argument_expected_value(self):
        # The link falls back to zeros, not to this expected one.
        def get_initializers(self):
            return [2], [testing.InitializerArgument(None, 1)]

        case = _initializers_case(get_initializers=get_initializers)
        with pytest.raises(testing.LinkTestError):
            case.test_initializers(_CPU)

    def test_check_initializers_options(self):
        def get_initializers(self):
            return [2], [testing.InitializerArgument(None, 1e-3)]

        with pytest.raises(testing.LinkTestError):
            _initializers_case(
                get_initializers=get_initializers).test_initializers(_CPU)
        _initializers_case(
            get_initializers=get_initializers,
            check_initializers_options={'atol': 1e-2},
        ).test_initializers(_CPU)

    def test_get_initializers_must_return_sequence(self):
        case = _initializers_case(get_initializers=lambda self: 2)
        with pytest.raises(
                TypeError,
                match='`get_initializers` must return a tuple or a list.'):
            case.test_initializers(_CPU)

    def test_get_initializers_must_return_nested_sequences(self):
        case = _initializers_case(get_initializers=lambda self: (2, 3))
        with pytest.raises(
                TypeError, match='must return a tuple or a list of tuples'):
            case.test_initializers(_CPU)

    def test_get_initializers_none_must_be_wrapped(self):
        case = _initializers_case(get_initializers=lambda self: ([None],))
        with pytest.raises(ValueError, match='must be wrapped'):
            case.test_initializers(_CPU)

    def test_get_initializers_wrong_type(self):
        case = _initializers_case(get_initializers=lambda self: ([object()],))
        with pytest.raises(TypeError, match='Initializer is of wrong type'):
            case.test_initializers(_CPU)

    def test_missing_parameter(self):
        case = _initializers_case()
        case.param_names = ('W', 'c')
        with pytest.raises(
                testing.LinkTestError,
                match="Link does not have a parameter named 'c'."):
            case.test_initializers(_CPU)

    def test_before_test(self):
        names = []
        case = _initializers_case(
            before_test=lambda self, name: names.append(name))
        case.test_initializers(_CPU)
        assert names == ['test_initializers']


class TestInitializerArgument:

    def test_attributes(self):
        init = initializers.Constant(2)
        arg = testing.InitializerArgument(None, init)
        assert arg.argument_value is None
        assert arg.expected_initializer is init

    def test_expected_none(self):
        with pytest.raises(
                ValueError, match='Expected initialized cannot be None.'):
            testing.InitializerArgument(1, None)

    def test_expected_wrong_type(self):
        with pytest.raises(TypeError, match='Initializer is of wrong type'):
            testing.InitializerArgument(None, object())


testing.run_module(__name__, __file__)
