"""Small helpers to build ONNX nodes from converters.

While one Chainer function is converted, the exporter sets its node name
(``'<FunctionName>_<count>'``) with :func:`set_func_name`; every node and
temporary value the converter creates is named after it, so names stay
unique and readable in the exported graph.
"""

import numpy as np
import onnx
from onnx import numpy_helper

_func_name = None
_opset_version = None

# Before opset 9, Constant holds only floating-point tensors.
_CONSTANT_OF_ANY_TYPE_SINCE = 9


def set_opset_version(opset_version):
    """Sets the opset of the graph being exported (``None``: unknown)."""
    global _opset_version
    _opset_version = opset_version


def set_func_name(func_name):
    """Records the ONNX node name for the function now being converted.

    Args:
        func_name (str): Node name such as ``'LinearFunction_0'``.
    """
    global _func_name
    _func_name = func_name


def get_func_name():
    """Returns the node name of the Chainer function being converted."""
    assert _func_name is not None, 'no function is being converted'
    return _func_name


def make_node(*args, **kwargs):
    """Makes an ONNX node named after the function being converted.

    A thin wrapper of :func:`onnx.helper.make_node`: it takes the same
    arguments (op type, input names, output names and attributes).

    Returns:
        onnx.NodeProto: The node.
    """
    return onnx.helper.make_node(*args, name=get_func_name(), **kwargs)


class GraphBuilder(object):
    """Builds a sequence of ONNX nodes that implement one function.

    Every node gets a unique name derived from the function's node name, and
    so does every output a caller does not name.
    """

    def __init__(self):
        self._nodes = []
        self._func_name = get_func_name()

    def node_name(self):
        """Returns the name the next node will get."""
        return '{}_tmp_{}'.format(self._func_name, len(self._nodes))

    def op(self, op_name, input_names, num_outputs=1, **kwargs):
        """Adds a node whose outputs get generated names.

        Args:
            op_name (str): ONNX operator type.
            input_names (list of str): Names of the inputs.
            num_outputs (int): Number of outputs.
            **kwargs: Attributes of the node.

        Returns:
            str or tuple of str: The output name, or the output names when
            ``num_outputs`` is not 1.
        """
        if num_outputs == 1:
            output_names = [self.node_name()]
        else:
            output_names = ['{}_{}'.format(self.node_name(), i)
                            for i in range(num_outputs)]
        return self.op_output_named(
            op_name, input_names, output_names, **kwargs)

    def op_output_named(self, op_name, input_names, output_names, **kwargs):
        """Adds a node with the given output names.

        Args:
            op_name (str): ONNX operator type.
            input_names (list of str): Names of the inputs.
            output_names (list of str): Names of the outputs.
            **kwargs: Attributes of the node.

        Returns:
            str or tuple of str: The output name, or the output names when
            there are several.
        """
        if isinstance(input_names, str):
            raise TypeError('input_names must be a list of names, not a str')
        node = onnx.helper.make_node(
            op_name, list(input_names), list(output_names),
            name=self.node_name(), **kwargs)
        self._nodes.append(node)
        if len(output_names) == 1:
            return node.output[0]
        return tuple(node.output)

    def const(self, array):
        """Adds a ``Constant`` node holding ``array``; returns its name.

        Before opset 9, where ``Constant`` holds only floating-point values,
        another dtype is stored as float64 and cast.
        """
        array = np.asarray(array)
        if _opset_version is not None and \
                _opset_version < _CONSTANT_OF_ANY_TYPE_SINCE and \
                array.dtype.kind not in 'f':
            tensor = numpy_helper.from_array(array.astype(np.float64))
            stored = self.op('Constant', [], value=tensor)
            return self.op('Cast', [stored],
                           to=onnx.helper.np_dtype_to_tensor_dtype(
                               array.dtype))
        tensor = numpy_helper.from_array(array)
        return self.op('Constant', [], value=tensor)

    def nodes(self, output_names=None):
        """Returns the nodes built so far.

        Args:
            output_names (list of str): If given, the outputs of the last
                node are renamed to these names (they are usually the names
                the exporter chose for the function's outputs).

        Returns:
            tuple of onnx.NodeProto: The nodes, in order.
        """
        if output_names is not None:
            last = self._nodes[-1]
            if len(last.output) != len(output_names):
                raise ValueError(
                    'the last node has {} outputs but {} names were '
                    'given'.format(len(last.output), len(output_names)))
            last.output[:] = output_names
        return tuple(self._nodes)


def write_tensor_pb(filename, name, value):
    """Writes ``value`` as a serialized ``TensorProto`` named ``name``."""
    tensor = numpy_helper.from_array(value, name)
    with open(filename, 'wb') as f:
        f.write(tensor.SerializeToString())


def cleanse_param_name(name):
    """Converts a Chainer parameter path to a valid ONNX name.

    Args:
        name (str): A parameter path such as ``'/l1/W'``.

    Returns:
        str: The ONNX name, such as ``'param_l1_W'``.
    """
    return 'param' + name.replace('/', '_')


def is_support_non_standard_domain():
    """Tells whether ``onnx.checker`` skips ops of non-standard domains.

    ONNX does so since 1.5.
    """
    parts = onnx.__version__.split('.')
    if len(parts) < 2 or not parts[0].isdecimal() or \
            not parts[1].isdecimal():
        raise RuntimeError(
            'cannot read the version of the onnx package: {}'.format(
                onnx.__version__))
    return (int(parts[0]), int(parts[1])) >= (1, 5)
