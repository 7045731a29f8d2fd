"""``export_testcase``: an ONNX model with the data of one test run."""

import os
import warnings

import chainer

from onnx_chainer.export import export
from onnx_chainer.onnx_helper import cleanse_param_name
from onnx_chainer.onnx_helper import write_tensor_pb


def export_testcase(model, args, out_dir, output_grad=False, **kwargs):
    """Exports a model with its inputs and outputs in ONNX's test layout.

    Like :func:`~onnx_chainer.export`, the model is run once on ``args``.
    ``out_dir`` then holds ``model.onnx`` and ``test_data_set_0/`` with one
    ``input_<i>.pb`` per graph input and one ``output_<i>.pb`` per graph
    output (serialized ``TensorProto`` named as in the graph), the layout
    ONNX's backend test runners read.

    Args:
        model (~chainer.Chain): The model.
        args: Its inputs, as for :func:`~onnx_chainer.export`.
        out_dir (str): The output directory, created if needed.
        output_grad (bool): Also backpropagate ones from the outputs and
            write the gradient of each parameter, in ``namedparams`` order,
            to ``gradient_<i>.pb`` (named like its initializer).
        **kwargs: Other keyword arguments of :func:`~onnx_chainer.export`.
    """
    os.makedirs(out_dir, exist_ok=True)
    model.cleargrads()
    _, inputs, outputs = export(
        model, args, filename=os.path.join(out_dir, 'model.onnx'),
        return_named_inout=True, no_testcase=True, **kwargs)

    data_dir = os.path.join(out_dir, 'test_data_set_0')
    os.makedirs(data_dir, exist_ok=True)
    to_cpu = chainer.backend.CpuDevice().send
    for kind, named in (('input', inputs), ('output', outputs)):
        for i, (name, var) in enumerate(named.items()):
            write_tensor_pb(
                os.path.join(data_dir, '{}_{}.pb'.format(kind, i)), name,
                to_cpu(var.array))

    if not output_grad:
        return
    out_vars = list(outputs.values())
    for var in out_vars:
        var.grad = var.xp.ones_like(var.array)
    chainer.backward(out_vars, [var.grad_var for var in out_vars])
    for i, (path, param) in enumerate(model.namedparams()):
        if param.grad is None:
            warnings.warn(
                'Parameter `{}` does not have gradient value'.format(path))
            continue
        write_tensor_pb(
            os.path.join(data_dir, 'gradient_{}.pb'.format(i)),
            cleanse_param_name(path), to_cpu(param.grad))
