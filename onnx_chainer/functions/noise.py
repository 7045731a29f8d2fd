"""Converters of noise functions."""

from onnx_chainer.functions.opset_version import support
from onnx_chainer import onnx_helper


@support((7, 12))
def convert_Dropout(func, opset_version, input_names, output_names,
                    context):
    # The exported graph is for inference, where dropout is the identity.
    if opset_version >= 12:
        return onnx_helper.make_node('Dropout', input_names, output_names),
    return onnx_helper.make_node(
        'Dropout', input_names, output_names,
        ratio=float(func.dropout_ratio)),
