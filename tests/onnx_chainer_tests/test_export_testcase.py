import os

import chainer
import chainer.functions as F
import chainer.links as L
import numpy as np
import onnx
import pytest

import onnx_chainer


def _model():
    np.random.seed(0)
    return chainer.Sequential(
        L.Convolution2D(None, 4, 3, 1, 1), F.relu, L.Linear(None, 6),
        L.BatchNormalization(6), F.relu, L.Linear(6, 3))


def _load(path):
    return onnx.numpy_helper.to_array(onnx.load_tensor(path))


@pytest.mark.parametrize('names', [None, (['x'], ['y'])],
                         ids=['default', 'named'])
def test_layout(tmp_path, names):
    out = str(tmp_path)
    model = _model()
    x = np.ones((2, 3, 5, 5), np.float32)
    kwargs = {} if names is None else {
        'input_names': names[0], 'output_names': names[1]}
    onnx_chainer.export_testcase(model, (x,), out, **kwargs)
    assert os.path.isfile(os.path.join(out, 'model.onnx'))
    data = os.path.join(out, 'test_data_set_0')
    assert sorted(os.listdir(data)) == ['input_0.pb', 'output_0.pb']
    inp = onnx.load_tensor(os.path.join(data, 'input_0.pb'))
    outp = onnx.load_tensor(os.path.join(data, 'output_0.pb'))
    assert inp.name == ('Input_0' if names is None else 'x')
    assert outp.name == ('LinearFunction_1' if names is None else 'y')
    np.testing.assert_array_equal(onnx.numpy_helper.to_array(inp), x)
    with chainer.using_config('train', False):
        expected = model(x).array
    np.testing.assert_allclose(onnx.numpy_helper.to_array(outp), expected,
                               rtol=1e-6)


def test_output_grad(tmp_path):
    out = str(tmp_path)
    model = _model()
    x = np.ones((2, 3, 5, 5), np.float32)
    onnx_chainer.export_testcase(model, x, out, output_grad=True)
    initializers = {i.name for i in onnx.load(
        os.path.join(out, 'model.onnx')).graph.initializer}
    params = list(model.namedparams())
    for i, (path, param) in enumerate(params):
        tensor = onnx.load_tensor(os.path.join(
            out, 'test_data_set_0', 'gradient_{}.pb'.format(i)))
        assert tensor.name == 'param' + path.replace('/', '_')
        assert tensor.name in initializers
        np.testing.assert_allclose(onnx.numpy_helper.to_array(tensor),
                                   param.grad, rtol=1e-6)
    assert not os.path.exists(os.path.join(
        out, 'test_data_set_0', 'gradient_{}.pb'.format(len(params))))


def test_multiple_inputs_and_outputs(tmp_path, check):
    class Model(chainer.Chain):
        def forward(self, x, y):
            return F.tanh(x) * y, F.sigmoid(y)

    check(Model(), [np.ones((2, 3), np.float32),
                    np.full((2, 3), 0.5, np.float32)], 13)
