import sys
import unittest

import pytest

import chainer
from chainer import backend
from chainer import testing
from chainer import utils

_this_module = sys.modules[__name__]


class Exp(chainer.FunctionNode):

    def forward(self, inputs):
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.exp(x)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * y,


def exp(x):
    return Exp().apply((x,))[0]


@testing.unary_math_function_unittest(exp)
class TestExp(unittest.TestCase):
    pass


def test_generated_classes():
    names = sorted(
        name for name, obj in vars(_this_module).items()
        if name.startswith('TestExp_') and isinstance(obj, type))
    assert names == [
        'TestExp_param_0_{dtype=float16, shape=(3, 2)}',
        'TestExp_param_1_{dtype=float16, shape=()}',
        'TestExp_param_2_{dtype=float32, shape=(3, 2)}',
        'TestExp_param_3_{dtype=float32, shape=()}',
        'TestExp_param_4_{dtype=float64, shape=(3, 2)}',
        'TestExp_param_5_{dtype=float64, shape=()}',
    ]
    cls = getattr(_this_module, names[0])
    for method in ['test_forward_cpu', 'test_backward_cpu',
                   'test_double_backward_cpu', 'test_forward_gpu']:
        assert callable(getattr(cls, method))
    assert not hasattr(cls, 'test_label')


def _wrong_exp(x):
    return exp(x) * 1.01


_wrong_exp.__name__ = 'exp'


def test_wrong_forward_is_detected():
    class Base(unittest.TestCase):
        pass

    bundle = testing.unary_math_function_unittest(_wrong_exp)(Base)
    try:
        cls = bundle.cases[4].klass
        result = unittest.TestResult()
        cls('test_forward_cpu').run(result)
        assert len(result.failures) == 1
        result = unittest.TestResult()
        cls('test_backward_cpu').run(result)
        assert result.wasSuccessful()
    finally:
        for case in bundle.cases:
            delattr(_this_module, case.class_name)


def test_unknown_numpy_function():
    def not_in_numpy(x):
        return x

    with pytest.raises(ValueError, match='NumPy has no functions'):
        testing.unary_math_function_unittest(not_in_numpy)


def test_label_without_function_class():
    with pytest.raises(ValueError, match='Expected label is given'):
        testing.unary_math_function_unittest(exp, label_expected='exp')
