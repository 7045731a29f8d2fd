import chainer
import chainer.functions as F
import numpy as np
import onnx
import pytest

import onnx_chainer
from onnx_chainer import onnx_helper
from onnx_chainer.replace_func import as_funcnode
from onnx_chainer.replace_func import fake_as_funcnode


def _x(*shape):
    return np.arange(np.prod(shape), dtype=np.float32).reshape(shape) * 0.5


def test_arguments_become_inputs_and_attributes():
    captured = {}

    def converter(params):
        captured['func'] = params.func
        captured['inputs'] = list(params.input_names)
        gb = onnx_helper.GraphBuilder()
        value = gb.const(np.asarray(params.func.value, np.float32))
        gb.op_output_named('Add', [params.input_names[0], value],
                           params.output_names)
        return gb.nodes()

    @as_funcnode('AddValue', rename_attributes=[(1, 'value')])
    def add_value(x, v, scale=3):
        return x.array + v

    model = chainer.Sequential(lambda x: F.relu(add_value(x, 0.5)))
    onnx_model = onnx_chainer.export(
        model, _x(2, 3), external_converters={'AddValue': converter})
    func = captured['func']
    assert func.value == 0.5 and func.scale == 3
    assert captured['inputs'] == ['Input_0']
    assert [n.op_type for n in onnx_model.graph.node] == [
        'Constant', 'Add', 'Relu']
    assert onnx_model.graph.node[1].name.startswith('AddValue_0')


def test_wrapped_function_is_differentiable():
    def f(a, b):
        return a * b, a + b

    wrapped = fake_as_funcnode(f, 'F', experimental_warning=False)
    a = chainer.Variable(np.array([1.5, 2.0], np.float32))
    b = chainer.Variable(np.array([3.0, -1.0], np.float32))
    y1, y2 = wrapped(a, b)
    ga, gb = chainer.grad([y1 + y2], [a, b])
    np.testing.assert_allclose(ga.array, b.array + 1)
    np.testing.assert_allclose(gb.array, a.array + 1)


def test_array_results_cannot_backprop():
    wrapped = fake_as_funcnode(lambda x: x.array * 2, 'Twice',
                               experimental_warning=False)
    x = chainer.Variable(np.ones(2, np.float32))
    y = wrapped(x)
    with pytest.raises(ValueError, match='Twice'):
        chainer.grad([y], [x])


def test_needs_a_variable():
    wrapped = fake_as_funcnode(lambda x: x, 'Id', experimental_warning=False)
    with pytest.raises(ValueError, match='at least one chainer.Variable'):
        wrapped(np.ones(2, np.float32))


def test_return_structure_is_kept():
    def f(x):
        return {'a': (x * 1, x * 2), 'b': [x * 3]}

    wrapped = fake_as_funcnode(f, 'Structured', experimental_warning=False)
    out = wrapped(chainer.Variable(np.ones(2, np.float32)))
    assert set(out) == {'a', 'b'}
    assert isinstance(out['a'], tuple) and isinstance(out['b'], list)
    np.testing.assert_array_equal(out['b'][0].array, [3, 3])


def test_shape_and_dynamic_reshape(check):
    class Model(chainer.Chain):
        @as_funcnode('Reshape')
        def reshape(self, x, shape):
            return F.reshape(x, tuple(int(s) for s in shape.array))

        def forward(self, x, shape):
            return self.reshape(x, shape)

    onnx_model = check(Model(), (_x(3, 4), np.array([2, 6], np.int64)), 13)
    assert not onnx_model.graph.initializer
    assert onnx_model.graph.node[-1].op_type == 'Reshape'


def test_numpy_function_with_converter(check):
    class Model(chainer.Chain):
        @as_funcnode('NumpyFull')
        def full(self, x, value=0):
            return np.full(x.shape, value, dtype=np.float32)

        def forward(self, x):
            return F.sigmoid(self.full(x, value=2.0))

    def numpy_full(params):
        gb = onnx_helper.GraphBuilder()
        shape = gb.op('Shape', params.input_names)
        value = onnx.helper.make_tensor(
            'value', onnx.TensorProto.FLOAT, [1], [params.func.value])
        gb.op_output_named('ConstantOfShape', [shape], params.output_names,
                           value=value)
        return gb.nodes()

    check(Model(), _x(2, 3), 13,
          external_converters={'NumpyFull': numpy_full})
