import os

import chainer
import numpy as np
import onnx
import pytest

import onnx_chainer
from onnx_chainer import mapping


def _to_array(tensor):
    return onnx.numpy_helper.to_array(tensor)


def newest_opset():
    return onnx_chainer.default_opset_version()


def opsets_from(minimum):
    """Every opset from ``minimum`` to the default (newest) one."""
    return list(range(max(minimum, onnx_chainer.MINIMUM_OPSET_VERSION),
                      newest_opset() + 1))


def converter_minimum(name):
    return mapping.converters[name].converter.minimum_opset_version


def run_onnxruntime(model_path, inputs):
    import onnxruntime
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    session = onnxruntime.InferenceSession(
        model_path, options, providers=['CPUExecutionProvider'])
    names = [i.name for i in session.get_inputs()]
    feed = {name: inputs[name] for name in names if name in inputs}
    outputs = [o.name for o in session.get_outputs()]
    return dict(zip(outputs, session.run(outputs, feed)))


def check_exported(model, args, out_dir, opset_version, rtol=1e-5,
                   atol=1e-5, **kwargs):
    """Exports a test case, checks it fully, runs it and compares.

    Returns:
        onnx.ModelProto: The exported model.
    """
    onnx_chainer.export_testcase(
        model, args, out_dir, opset_version=opset_version, **kwargs)
    model_path = os.path.join(out_dir, 'model.onnx')
    onnx_model = onnx.load(model_path)
    onnx.checker.check_model(onnx_model, full_check=True)
    assert onnx_model.opset_import[0].version == opset_version
    data_dir = os.path.join(out_dir, 'test_data_set_0')
    inputs, expected = {}, {}
    for kind, store in (('input', inputs), ('output', expected)):
        i = 0
        while os.path.exists(os.path.join(data_dir, '{}_{}.pb'.format(
                kind, i))):
            tensor = onnx.load_tensor(
                os.path.join(data_dir, '{}_{}.pb'.format(kind, i)))
            store[tensor.name] = _to_array(tensor)
            i += 1
    actual = run_onnxruntime(model_path, inputs)
    assert sorted(actual) == sorted(expected)
    for name, value in expected.items():
        assert actual[name].dtype == value.dtype, name
        np.testing.assert_allclose(
            actual[name], value, rtol=rtol, atol=atol, err_msg=name)
    return onnx_model


@pytest.fixture(autouse=True)
def no_experimental_warning():
    saved = chainer.disable_experimental_feature_warning
    chainer.disable_experimental_feature_warning = True
    yield
    chainer.disable_experimental_feature_warning = saved


@pytest.fixture
def check(tmp_path):
    """``check(model, args, opset_version, **kwargs)``: see check_exported.
    """
    def run(model, args, opset_version, **kwargs):
        out_dir = str(tmp_path / 'opset{}'.format(opset_version))
        return check_exported(model, args, out_dir, opset_version, **kwargs)
    return run


@pytest.fixture
def check_all_opsets(check):
    """``check_all_opsets(model, args, minimum, **kwargs)``.

    Checks the export at every opset from ``minimum`` (an opset, or the
    name of a function whose converter's minimum is taken) to the newest.
    """
    def run(model, args, minimum, **kwargs):
        if isinstance(minimum, str):
            minimum = converter_minimum(minimum)
        for opset_version in opsets_from(minimum):
            check(model, args, opset_version, **kwargs)
    return run


@pytest.fixture
def opsets():
    """The opsets the exporter is tested with, oldest first."""
    return opsets_from(onnx_chainer.MINIMUM_OPSET_VERSION)
