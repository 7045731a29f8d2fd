"""Export of Chainer models to the ONNX format.

``onnx_chainer.export(model, args)`` runs ``model`` once on ``args``, records
every :class:`~chainer.FunctionNode` applied on the way, and writes the traced
graph as an ONNX ``ModelProto`` whose initializers are the model's
parameters. ``onnx_chainer.export_testcase`` also writes the inputs and
outputs of that run in the layout of ONNX's own test cases.

The package needs the ``onnx`` package (``pip install onnx``, or the
``onnx`` extra of this project); checking exported models against a runtime
also needs ``onnxruntime``.
"""

try:
    import onnx  # NOQA
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        'onnx_chainer needs the onnx package, which is not installed. '
        'Install it with:\n\n\t$ pip install onnx onnxruntime\n\n'
        '(or install this project with its "onnx" extra).') from e

from onnx_chainer import functions  # NOQA
from onnx_chainer import onnx_helper  # NOQA
from onnx_chainer import replace_func  # NOQA
from onnx_chainer.export import convert_parameter  # NOQA
from onnx_chainer.export import default_opset_version  # NOQA
from onnx_chainer.export import export  # NOQA
from onnx_chainer.export import MAXIMUM_OPSET_VERSION  # NOQA
from onnx_chainer.export import MINIMUM_OPSET_VERSION  # NOQA
from onnx_chainer.export_testcase import export_testcase  # NOQA

import chainer as _chainer

__version__ = _chainer.__version__
