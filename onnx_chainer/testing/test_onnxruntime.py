"""Checks a test case written by ``export_testcase`` with onnxruntime."""

import glob
import os

import numpy as np
import onnx

try:
    import onnxruntime
    ONNXRUNTIME_AVAILABLE = True
except ImportError:  # pragma: no cover - depends on the environment
    ONNXRUNTIME_AVAILABLE = False


def load_test_data(data_dir, input_names, output_names):
    """Reads ``input_*.pb`` and ``output_*.pb`` of a test data directory.

    A tensor is keyed by its own name when that is one of the given names,
    else by the next unused name.

    Returns:
        tuple of dict: Inputs and outputs, arrays keyed by name.
    """
    result = []
    for kind, names in (('input', input_names), ('output', output_names)):
        names = list(names)
        values = {}
        for path in sorted(glob.glob(
                os.path.join(data_dir, '{}_*.pb'.format(kind)))):
            tensor = onnx.load_tensor(path)
            if tensor.name in names:
                name = tensor.name
                names.remove(name)
            else:
                name = names.pop(0)
            values[name] = onnx.numpy_helper.to_array(tensor)
        result.append(values)
    return tuple(result)


def check_model_expect(test_path, input_names=None, rtol=1e-5, atol=1e-5):
    """Runs ``test_path/model.onnx`` on its test data and compares outputs.

    Args:
        test_path (str): A directory written by ``export_testcase``.
        input_names (list of str): If given, the graph inputs must be
            exactly these.
        rtol (float): Relative tolerance.
        atol (float): Absolute tolerance.
    """
    if not ONNXRUNTIME_AVAILABLE:
        raise ImportError(
            'onnxruntime is needed to check exported models: '
            'pip install onnxruntime')
    model = onnx.load_model(os.path.join(test_path, 'model.onnx'))
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), options,
        providers=['CPUExecutionProvider'])
    rt_input_names = [v.name for v in session.get_inputs()]
    rt_output_names = [v.name for v in session.get_outputs()]
    if input_names is not None:
        assert sorted(input_names) == sorted(rt_input_names)

    for data_dir in sorted(glob.glob(
            os.path.join(test_path, 'test_data_set_*'))):
        inputs, outputs = load_test_data(
            data_dir, rt_input_names, rt_output_names)
        actual = session.run(list(outputs.keys()), inputs)
        for expected, value in zip(outputs.values(), actual):
            np.testing.assert_allclose(expected, value, rtol=rtol, atol=atol)
