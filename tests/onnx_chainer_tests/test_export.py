import io
import os
import subprocess
import sys
import warnings

import chainer
import chainer.functions as F
import chainer.links as L
import numpy as np
import onnx
import pytest

import onnx_chainer
from onnx_chainer import onnx_helper


def _x(*shape):
    return np.arange(np.prod(shape), dtype=np.float32).reshape(shape) * 0.1


def _mlp():
    np.random.seed(0)
    return chainer.Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))


def test_opset_range():
    import onnxruntime
    assert onnx_chainer.MINIMUM_OPSET_VERSION == 7
    default = onnx_chainer.default_opset_version()
    assert default <= onnx_chainer.MAXIMUM_OPSET_VERSION
    assert default <= onnx.defs.onnx_opset_version()
    model = onnx_chainer.export(_mlp(), _x(2, 3))
    assert model.opset_import[0].version == default
    onnxruntime.InferenceSession(model.SerializeToString(),
                                 providers=['CPUExecutionProvider'])


def test_graph_names():
    model = onnx_chainer.export(_mlp(), _x(2, 3), graph_name='mlp')
    assert model.graph.name == 'mlp'
    assert model.producer_name == 'Chainer'
    assert [i.name for i in model.graph.initializer] == [
        'param_0_W', 'param_0_b', 'param_1_W', 'param_1_b']
    assert [n.op_type for n in model.graph.node] == ['Gemm', 'Relu', 'Gemm']
    inputs = {i.name for i in model.graph.input} - {
        i.name for i in model.graph.initializer}
    assert inputs == {'Input_0'}
    assert [o.name for o in model.graph.output] == ['LinearFunction_1']


def test_input_and_output_names():
    class Model(chainer.Chain):
        def forward(self, a, b):
            return {'sum': a + b, 'prod': a * b}

    model = onnx_chainer.export(
        Model(), {'a': _x(2), 'b': _x(2)},
        input_names={'a': 'left', 'b': 'right'},
        output_names={'sum': 's', 'prod': 'p'})
    assert [i.name for i in model.graph.input] == ['left', 'right']
    assert sorted(o.name for o in model.graph.output) == ['p', 's']


def test_invalid_output_names():
    with pytest.raises(ValueError):
        onnx_chainer.export(_mlp(), _x(2, 3), output_names=['a', 'b'])


def test_write_file_and_text(tmp_path):
    path = str(tmp_path / 'model.onnx')
    with pytest.warns(DeprecationWarning):
        onnx_chainer.export(_mlp(), _x(2, 3), filename=path, save_text=True)
    onnx.checker.check_model(onnx.load(path), full_check=True)
    assert 'Gemm' in open(path + '.txt').read()
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        buffer = io.BytesIO()
        onnx_chainer.export(_mlp(), _x(2, 3), filename=buffer,
                            no_testcase=True)
    assert onnx.load_from_string(buffer.getvalue()).graph.node


def test_export_params_false():
    model = onnx_chainer.export(_mlp(), _x(2, 3), export_params=False)
    assert not model.graph.initializer
    assert 'param_0_W' in {i.name for i in model.graph.input}


def test_return_named_inout():
    chainer.disable_experimental_feature_warning = True
    x = chainer.Variable(_x(2, 3))
    model, inputs, outputs = onnx_chainer.export(
        _mlp(), x, return_named_inout=True)
    assert list(inputs) == ['Input_0'] and inputs['Input_0'] is x
    assert list(outputs) == ['LinearFunction_1']
    assert outputs['LinearFunction_1'].shape == (2, 2)


def test_dynamic_input_shape(tmp_path):
    import onnxruntime
    model = onnx_chainer.export(
        _mlp(), _x(2, 3), input_shapes=('batch', 3))
    onnx.checker.check_model(model, full_check=True)
    dim = model.graph.input[-1].type.tensor_type.shape.dim[0]
    assert dim.dim_param == 'batch'
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), providers=['CPUExecutionProvider'])
    x = _x(5, 3)
    y, = session.run(None, {'Input_0': x})
    np.testing.assert_allclose(y, _mlp()(x).array, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize('shapes', [('?', 3, 1), [('?', 3), ('?', 3)], '?'])
def test_invalid_input_shapes(shapes):
    with pytest.raises(ValueError):
        onnx_chainer.export(_mlp(), _x(2, 3), input_shapes=shapes)


def test_untested_opset_warns():
    with pytest.warns(UserWarning, match='tested only'):
        with pytest.raises(RuntimeError, match='`ReLU`.*opset_version 6'):
            onnx_chainer.export(chainer.Sequential(F.relu), _x(2),
                                opset_version=6)


def test_unsupported_function():
    class Unknown(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

    model = chainer.Sequential(lambda x: Unknown().apply((x,))[0])
    with pytest.raises(ValueError, match='Unknown is not supported'):
        onnx_chainer.export(model, _x(2))


def test_converter_minimum_opset_error():
    model = chainer.Sequential(lambda x: F.einsum('ij->ji', x))
    with pytest.raises(RuntimeError, match='`EinSum`.*opset_version 11'):
        onnx_chainer.export(model, _x(2, 2), opset_version=11)


def test_train_mode_is_traced():
    seen = []

    def record(x):
        seen.append(chainer.config.train)
        return x * 1

    onnx_chainer.export(chainer.Sequential(record), _x(2), train=True)
    onnx_chainer.export(chainer.Sequential(record), _x(2))
    assert seen == [True, False]


def test_temporary_values_become_initializers(check):
    class Model(chainer.Chain):
        def forward(self, x):
            return x * np.full(3, 2, np.float32) + chainer.Variable(
                np.ones(3, np.float32))

    onnx_model = check(Model(), _x(3), 13)
    assert len(onnx_model.graph.initializer) == 2


def test_unused_link_warns():
    class Model(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.used = L.Linear(None, 2)
                self.unused = L.Linear(None, 2)

        def forward(self, x):
            return self.used(x)

    with pytest.warns(UserWarning, match='unused/W'):
        onnx_chainer.export(Model(), _x(1, 3))


def test_external_converter_overrides(check):
    def to_tanh(params):
        return onnx_helper.make_node(
            'Tanh', params.input_names, params.output_names),

    onnx_model = onnx_chainer.export(
        chainer.Sequential(F.sigmoid), _x(2),
        external_converters={'Sigmoid': to_tanh})
    assert [n.op_type for n in onnx_model.graph.node] == ['Tanh']


def test_external_converter_custom_domain():
    def custom(params):
        return onnx_helper.make_node(
            'MyRelu', params.input_names, params.output_names,
            domain='my.domain'),

    onnx_model = onnx_chainer.export(
        chainer.Sequential(F.relu), _x(2),
        external_converters={'ReLU': custom},
        external_opset_imports={'my.domain': 1})
    assert {(o.domain, o.version) for o in onnx_model.opset_import} >= {
        ('my.domain', 1)}
    assert onnx_model.graph.node[0].domain == 'my.domain'


def test_output_must_be_variables():
    with pytest.raises(RuntimeError, match='Unexpected output type'):
        onnx_chainer.export(chainer.Sequential(lambda x: x.array), _x(2))
    with pytest.raises(ValueError, match='must be Chainer Variable'):
        onnx_chainer.export(
            chainer.Sequential(lambda x: (x, x.array)), _x(2))


def test_function_apply_is_restored():
    apply = chainer.FunctionNode.apply
    onnx_chainer.export(_mlp(), _x(2, 3))
    assert chainer.FunctionNode.apply is apply
    assert F.n_step_lstm is chainer.functions.rnn.n_step_lstm.n_step_lstm


def test_import_without_onnx_says_what_to_install():
    code = ('import sys; sys.modules["onnx"] = None\n'
            'try:\n'
            '    import onnx_chainer\n'
            'except ImportError as e:\n'
            '    print(e)\n')
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    env['PYTHONPATH'] = root + os.pathsep + env.get('PYTHONPATH', '')
    out = subprocess.run([sys.executable, '-c', code], env=env,
                         capture_output=True, text=True, check=True).stdout
    assert 'pip install onnx' in out


def test_documented_snippet(tmp_path, monkeypatch):
    # The usage shown in Chainer's documentation, with a model that needs
    # no download.
    monkeypatch.chdir(tmp_path)
    np.random.seed(0)
    model = L.Classifier(chainer.Sequential(
        L.Convolution2D(None, 4, 3), F.relu, L.Linear(None, 10))).predictor
    x = np.zeros((1, 3, 32, 32), dtype=np.float32)
    monkeypatch.setattr(chainer.config, 'train', False)
    with pytest.warns(DeprecationWarning):
        onnx_chainer.export(model, x, filename='model.onnx')
    onnx.checker.check_model(onnx.load('model.onnx'), full_check=True)
    onnx_chainer.export_testcase(model, x, 'out_dir')
    assert os.path.isfile(os.path.join('out_dir', 'test_data_set_0',
                                       'output_0.pb'))


def test_signatures():
    import inspect
    assert list(inspect.signature(onnx_chainer.export).parameters) == [
        'model', 'args', 'filename', 'export_params', 'graph_name',
        'save_text', 'opset_version', 'input_names', 'output_names',
        'train', 'return_named_inout', 'external_converters',
        'external_opset_imports', 'input_shapes', 'no_testcase']
    assert list(inspect.signature(
        onnx_chainer.export_testcase).parameters) == [
        'model', 'args', 'out_dir', 'output_grad', 'kwargs']
