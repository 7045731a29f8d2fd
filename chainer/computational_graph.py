"""Export of computational graphs to the DOT language of Graphviz.

A graph is collected by walking backward from some output nodes through
``VariableNode.creator_node`` and ``FunctionNode.inputs``; the result can
be written as DOT text with :meth:`ComputationalGraph.dump`.
"""

import collections

from chainer import function_node, variable

_var_style = {'shape': 'octagon', 'fillcolor': '#E0E0E0', 'style': 'filled'}
_func_style = {'shape': 'record', 'fillcolor': '#6495ED', 'style': 'filled'}

_RANKDIRS = ('TB', 'BT', 'LR', 'RL')


def _check_rankdir(rankdir):
    if rankdir not in _RANKDIRS:
        raise ValueError('rankdir must be in TB, BT, LR or RL.')


def _resolve_style(style, default):
    """Returns the style dict meant by ``'default'``, ``None`` or a dict."""
    if isinstance(style, str) and style == 'default':
        return dict(default)
    if style is None:
        return {}
    return style


def _quote(value):
    """Returns ``value`` as a double-quoted DOT string."""
    text = str(value).replace('\\', '\\\\').replace('"', '\\"')
    return f'"{text}"'


class DotNode:
    """A node of the computational graph, as written in the DOT language.

    Variable nodes are drawn as ovals and function nodes as boxes unless
    ``attribute`` says otherwise.

    Args:
        node (~chainer.variable.VariableNode or ~chainer.FunctionNode): The
            node to describe.
        attribute (dict): DOT attributes of the node (``shape``, ``color``,
            ``fillcolor``, ``style``, ...). They override the defaults.
        show_name (bool): If ``True``, the ``name`` of a variable node is
            put in front of its label.

    Attributes:
        node: The described node.
        id_ (int): The identifier of the node in the DOT text.
        attribute (dict): All DOT attributes of the node, ``label`` first.

    """

    def __init__(self, node, attribute=None, show_name=True):
        if isinstance(node, variable.VariableNode):
            label = node.label
            if show_name and node.name is not None:
                label = f'{node.name}: {label}'
            shape = 'oval'
        elif isinstance(node, function_node.FunctionNode):
            label = node.label
            shape = 'box'
        else:
            raise TypeError(
                'node must be either VariableNode or FunctionNode, '
                f'not {type(node).__name__}.')
        self.node = node
        self.id_ = id(node)
        self.attribute = {'label': label, 'shape': shape}
        if attribute is not None:
            self.attribute.update(attribute)

    @property
    def label(self):
        """str: The DOT statement declaring this node."""
        attributes = ','.join(
            f'{key}={_quote(value)}'
            for key, value in self.attribute.items())
        return f'{self.id_} [{attributes}];'


class ComputationalGraph:
    """A computational graph of variable nodes and function nodes.

    The graph is assumed to be directed and acyclic. Usually it is made by
    :func:`build_computational_graph` rather than directly.

    Args:
        nodes (list): The nodes; each is a
            :class:`~chainer.variable.VariableNode` or a
            :class:`~chainer.FunctionNode`.
        edges (list): The edges, each a pair ``(source, target)`` of nodes.
        variable_style (dict or 'default'): DOT attributes of variable
            nodes. ``'default'`` means an octagon filled in light gray;
            ``None`` means no extra attribute.
        function_style (dict or 'default'): DOT attributes of function
            nodes. ``'default'`` means a record filled in blue; ``None``
            means no extra attribute.
        rankdir (str): Direction of the drawing: ``'TB'`` (top to bottom),
            ``'BT'``, ``'LR'`` or ``'RL'``.
        remove_variable (bool): If ``True``, the dump shows only function
            nodes, joined directly wherever a variable linked them.
        show_name (bool): If ``True``, variable names are put in the labels.

    """

    def __init__(self, nodes, edges, variable_style='default',
                 function_style='default', rankdir='TB',
                 remove_variable=False, show_name=True):
        _check_rankdir(rankdir)
        self.nodes = nodes
        self.edges = edges
        self.variable_style = _resolve_style(variable_style, _var_style)
        self.function_style = _resolve_style(function_style, _func_style)
        self.rankdir = rankdir
        self.remove_variable = remove_variable
        self.show_name = show_name

    def _dot_node(self, node):
        if isinstance(node, variable.VariableNode):
            style = self.variable_style
        else:
            style = self.function_style
        return DotNode(node, style, self.show_name)

    def _function_edges(self):
        """Returns the edges between function nodes that skip variables."""
        consumers = {}
        for source, target in self.edges:
            if isinstance(source, variable.VariableNode):
                consumers.setdefault(id(source), []).append(target)
        edges = []
        seen = set()
        for source, target in self.edges:
            if not isinstance(target, variable.VariableNode):
                continue
            for consumer in consumers.get(id(target), ()):
                key = (id(source), id(consumer))
                if key not in seen:
                    seen.add(key)
                    edges.append((source, consumer))
        return edges

    def _to_dot(self):
        """Returns the graph as DOT text."""
        if self.remove_variable:
            nodes = [node for node in self.nodes
                     if isinstance(node, function_node.FunctionNode)]
            edges = self._function_edges()
        else:
            nodes = self.nodes
            edges = self.edges
        parts = [f'digraph graphname{{rankdir={self.rankdir};']
        parts.extend(self._dot_node(node).label for node in nodes)
        parts.extend(f'{id(source)} -> {id(target)};'
                     for source, target in edges)
        parts.append('}')
        return ''.join(parts)

    def dump(self, format='dot'):
        """Returns the graph as text in the given format.

        Args:
            format (str): The output format. Only ``'dot'`` is supported.

        Returns:
            str: The text describing the graph.

        """
        if format != 'dot':
            raise NotImplementedError(
                'Currently, only dot format is supported.')
        return self._to_dot()


def _as_graph_node(output):
    if isinstance(output, variable.Variable):
        return output.node
    if isinstance(output, (variable.VariableNode, function_node.FunctionNode)):
        return output
    raise TypeError('element of outputs must be either Variable, '
                    'VariableNode,  or FunctionNode.')


def build_computational_graph(
        outputs, remove_split=True, variable_style='default',
        function_style='default', rankdir='TB', remove_variable=False,
        show_name=True):
    """Builds the graph of nodes backward-reachable from the outputs.

    The walk follows the creator of each variable node and the inputs of
    each function node, so it stops where ``unchain_backward`` cut the
    graph. A function node given as an output brings in its inputs but not
    its outputs.

    Args:
        outputs (~chainer.Variable, ~chainer.variable.VariableNode,
            ~chainer.FunctionNode or list): The node(s) to start from.
        remove_split (bool): Must be ``True``; kept for backward
            compatibility.
        variable_style (dict or 'default'): DOT attributes of variable
            nodes (``shape``, ``color``, ``fillcolor``, ``style``, ...).
        function_style (dict or 'default'): DOT attributes of function
            nodes.
        rankdir (str): Direction of the drawing: ``'TB'`` (top to bottom),
            ``'BT'`` (bottom to top), ``'LR'`` (left to right) or ``'RL'``
            (right to left).
        remove_variable (bool): If ``True``, the dump shows only function
            nodes.
        show_name (bool): If ``True``, variable names are put in the labels.

    Returns:
        ComputationalGraph: The nodes and edges reachable backward from at
        least one of the outputs.

    .. admonition:: Example

       >>> x = chainer.Variable(np.ones((2, 3), np.float32), name='x')
       >>> y = F.relu(x)
       >>> g = build_computational_graph(y)
       >>> g.dump()[:28]
       'digraph graphname{rankdir=TB'

    """
    if not remove_split:
        raise ValueError('remove_split=False is not supported anymore')
    _check_rankdir(rankdir)
    if not isinstance(outputs, (list, tuple)):
        outputs = [outputs]
    pending = collections.deque(_as_graph_node(output) for output in outputs)

    nodes = []
    edges = []
    seen_nodes = set()
    seen_edges = set()

    def add_edge(source, target):
        key = (id(source), id(target))
        if key not in seen_edges:
            seen_edges.add(key)
            edges.append((source, target))

    while pending:
        node = pending.popleft()
        if id(node) in seen_nodes:
            continue
        seen_nodes.add(id(node))
        nodes.append(node)
        if isinstance(node, variable.VariableNode):
            creator = node.creator_node
            if creator is not None:
                add_edge(creator, node)
                pending.append(creator)
        else:
            for input_node in node.inputs:
                add_edge(input_node, node)
                pending.append(input_node)

    return ComputationalGraph(
        nodes, edges, variable_style, function_style, rankdir,
        remove_variable, show_name)
