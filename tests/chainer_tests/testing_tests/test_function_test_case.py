import unittest

import numpy
import pytest

import chainer
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


def _case(test_name='test_forward', **attributes):
    """An instance of a variant of ``TestSquare``, not collected."""
    cls = type('_Case', (_SquareTests, testing.FunctionTestCase), attributes)
    case = cls(test_name)
    case.setUp()
    return case


class TestDetectsErrors:

    def test_wrong_forward(self):
        def forward_expected(self, inputs):
            x, = inputs
            return x * x + 1,

        case = _case(forward_expected=forward_expected)
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

        case = _case(forward_expected=forward_expected)
        with pytest.raises(
                testing.FunctionTestError,
                match='Shapes and/or dtypes do not match'):
            case.run_test_forward(_CPU)

    def test_wrong_number_of_outputs(self):
        def forward_expected(self, inputs):
            x, = inputs
            return x * x, x

        case = _case(forward_expected=forward_expected)
        with pytest.raises(
                testing.FunctionTestError,
                match=r'Number of outputs \(1, 2\) does not match'):
            case.run_test_forward(_CPU)

    def test_wrong_backward(self):
        case = _case('test_backward', node_options={'backward_factor': 3})
        with pytest.raises(testing.FunctionTestError) as e:
            case.run_test_backward(_CPU)
        assert str(e.value).startswith(
            'backward is not implemented correctly\n\n(caused by)\n'
            'AssertionError: check_backward failed')

    def test_wrong_double_backward(self):
        case = _case('test_double_backward', node_options={'detach': True})
        case.run_test_backward(_CPU)
        with pytest.raises(testing.FunctionTestError) as e:
            case.run_test_double_backward(_CPU)
        assert str(e.value).startswith(
            'double backward is not implemented correctly\n\n(caused by)\n'
            'AssertionError: check_double_backward failed')

    def test_correct_function_passes(self):
        case = _case()
        case.run_test_forward(_CPU)
        case.run_test_backward(_CPU)
        case.run_test_double_backward(_CPU)

    def test_input_modified_in_forward(self):
        def forward(self, inputs, device):
            x, = inputs
            y = Square().apply((x,))
            x.array[0, 0] = 100
            return y

        case = _case(forward=forward)
        with pytest.raises(testing.FunctionTestError) as e:
            case.run_test_forward(_CPU)
        assert str(e.value).startswith(
            'Input arrays have been modified during forward.\n'
            'Indices of modified inputs: 0\n'
            'Input array shapes and dtypes: (3, 2):float32\n')

    def test_forward_must_return_tuple(self):
        def forward(self, inputs, device):
            return Square().apply(inputs)[0]

        case = _case(forward=forward)
        with pytest.raises(
                testing.FunctionTestError, match='must return a tuple'):
            case.run_test_forward(_CPU)

    def test_forward_must_return_variables(self):
        def forward(self, inputs, device):
            return inputs[0].array * inputs[0].array,

        case = _case(forward=forward)
        with pytest.raises(
                testing.FunctionTestError,
                match=r'forward\(\) must return a tuple of Variables'):
            case.run_test_forward(_CPU)

    def test_generate_inputs_must_return_tuple(self):
        def generate_inputs(self):
            return [numpy.ones((3, 2), numpy.float32)]

        case = _case(generate_inputs=generate_inputs)
        with pytest.raises(TypeError, match='must return a tuple'):
            case.run_test_forward(_CPU)


class TestOptions:

    @pytest.mark.parametrize('test_name', [
        'test_forward', 'test_backward', 'test_double_backward'])
    def test_skip_flags(self, test_name):
        flag = 'skip_{}_test'.format(test_name[len('test_'):])
        case = _case(test_name, **{flag: True})
        with pytest.raises(unittest.SkipTest, match=flag + ' is set'):
            getattr(case, 'run_' + test_name)(_CPU)

    def test_before_test(self):
        names = []

        def before_test(self, test_name):
            names.append(test_name)
            if test_name == 'test_double_backward':
                raise unittest.SkipTest('no double backward')

        case = _case(before_test=before_test)
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

        case = _case(forward_expected=forward_expected,
                     check_forward_options={'atol': 0.1})
        case.run_test_forward(_CPU)
        other = _case(forward_expected=forward_expected)
        with pytest.raises(testing.FunctionTestError):
            other.run_test_forward(_CPU)

    @pytest.mark.parametrize('contiguous, expected', [
        (None, False), ('C', True)])
    def test_contiguousness(self, contiguous, expected):
        seen = []

        def forward(self, inputs, device):
            seen.append(inputs[0].array.flags.c_contiguous)
            return Square().apply(inputs)

        case = _case(forward=forward, contiguous=contiguous)
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

        case = _case(
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

        case = _case(generate_grad_outputs=generate_grad_outputs)
        case.run_test_backward(_CPU)
        assert calls == [[(3, 2)]]
