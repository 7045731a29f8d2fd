"""Conversion of a traced Chainer graph to a list of ONNX nodes."""

import collections
import heapq

import chainer

from onnx_chainer.functions.converter import FunctionConverterParams
from onnx_chainer.functions.opset_version import function_name
from onnx_chainer import onnx_helper


def _unwrap_function(node):
    # An old-style Function runs inside an adapter node; converters are
    # keyed by the Function's class, and read its attributes.
    if isinstance(node, chainer.function.FunctionAdapter):
        return node.function
    return node


class Graph(object):
    """ONNX nodes of the functions between the network's inputs and outputs.

    Args:
        context (~onnx_chainer.context.Context): Names of the values.
        converters (dict): Converters keyed by function name.
        opset_version (int): The opset being exported.
        explicit_input_names (set of str): Names of the network inputs and
            parameters; any other variable that feeds a function without
            being computed by one is an implicit input.
        network_outputs (collections.OrderedDict): Output variables keyed by
            name; the names of outputs computed by a function are replaced
            with the function's output names, in place and in order.
    """

    def __init__(self, context, converters, opset_version,
                 explicit_input_names, network_outputs):
        self.context = context
        self.converters = converters
        self.opset_version = opset_version
        self.explicit_input_names = explicit_input_names
        self.network_outputs = network_outputs
        self.graph = []
        self.outputs = set()
        self.func_name_counts = collections.defaultdict(int)
        self.function_nodes = self._trace(network_outputs.values())

    @staticmethod
    def _trace(outputs):
        # Functions ordered so that each comes after those computing its
        # inputs: pop the highest rank first, then reverse.
        heap = []
        order = 0
        for out in outputs:
            heapq.heappush(heap, (-out.node.rank, order, out.node))
            order += 1
        found = collections.OrderedDict()
        while heap:
            _, _, vnode = heapq.heappop(heap)
            creator = vnode.creator_node
            if creator is None or id(creator) in found:
                continue
            found[id(creator)] = creator
            for inode in creator.inputs:
                heapq.heappush(heap, (-inode.rank, order, inode))
                order += 1
        return list(reversed(found.values()))

    def _input_name(self, vnode):
        var = vnode.get_variable_or_none()
        if var is None:
            return self.context.get_name(vnode)
        name = self.context.get_name(var)
        if name not in self.explicit_input_names and \
                name not in self.outputs:
            self.context.implicit_inputs[name] = var
        return name

    def _output_names(self, node, base_name):
        names = []
        n_outputs = len(node.outputs)
        for i, ref in enumerate(node.outputs):
            vnode = ref()
            if vnode is None:
                key = ref
            else:
                key = vnode.get_variable_or_none()
                if key is None:
                    key = vnode
            name = self.context.get_name(key)
            if not self.context.is_pinned(key):
                new_name = base_name if n_outputs == 1 else \
                    '{}_{}'.format(base_name, i)
                if name in self.network_outputs:
                    self._rename_output(name, new_name)
                self.context.set_name(key, new_name)
                name = new_name
            self.outputs.add(name)
            names.append(name)
        return names

    def _rename_output(self, old, new):
        items = [(new if k == old else k, v)
                 for k, v in self.network_outputs.items()]
        self.network_outputs.clear()
        self.network_outputs.update(items)

    def convert_node(self, node):
        """Appends the ONNX nodes of one function node to :attr:`graph`."""
        func = _unwrap_function(node)
        func_name = function_name(func)
        base_name = '{}_{}'.format(
            func_name, self.func_name_counts[func_name])
        self.func_name_counts[func_name] += 1

        input_names = [self._input_name(v) for v in node.inputs]
        output_names = self._output_names(node, base_name)

        converter = self.converters.get(func_name)
        if converter is None:
            raise ValueError('{} is not supported'.format(func_name))
        onnx_helper.set_func_name(base_name)
        onnx_helper.set_opset_version(self.opset_version)
        params = FunctionConverterParams(
            func, self.opset_version, input_names, output_names,
            self.context)
        nodes = list(converter(params))
        self.graph.extend(self.context.constants)
        self.context.constants.clear()
        self.graph.extend(nodes)

    def to_onnx_graph(self):
        """Converts every traced function, in order."""
        for node in self.function_nodes:
            self.convert_node(node)
