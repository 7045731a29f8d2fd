"""Converters from Chainer function nodes to ONNX nodes.

Each ``convert_<Name>`` converts the function node class ``<Name>`` (or the
function wrapped under that name). A converter takes
``(func, opset_version, input_names, output_names, context)`` and returns a
sequence of ``onnx.NodeProto`` whose last nodes write ``output_names``; the
:func:`~onnx_chainer.functions.opset_version.support` decorator states the
oldest opset it supports.
"""

from onnx_chainer.functions import activation
from onnx_chainer.functions import array
from onnx_chainer.functions import connection
from onnx_chainer.functions import loss
from onnx_chainer.functions import math
from onnx_chainer.functions import noise
from onnx_chainer.functions import normalization
from onnx_chainer.functions import pooling
from onnx_chainer.functions import rnn


def _export_converters(*modules):
    for module in modules:
        for name in dir(module):
            if name.startswith('convert_'):
                globals()[name] = getattr(module, name)


_export_converters(activation, array, connection, loss, math, noise,
                   normalization, pooling, rnn)
