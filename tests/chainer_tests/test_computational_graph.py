import re
import shutil
import subprocess

import numpy
import pytest

import chainer
from chainer import computational_graph as c
from chainer import utils

# --- A small parser of the DOT subset the dump must stay within ----------

_TOKEN = re.compile(r'''
    (?P<space>\s+)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<arrow>->)
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*|-?[0-9]+)
  | (?P<punct>[{}\[\];,=])
''', re.VERBOSE)


def _tokenize(text):
    tokens = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            raise ValueError(f'bad character at {pos}: {text[pos:pos + 20]}')
        pos = match.end()
        if match.lastgroup != 'space':
            tokens.append((match.lastgroup, match.group()))
    return tokens


def _unquote(token):
    kind, text = token
    if kind == 'string':
        return re.sub(r'\\(.)', r'\1', text[1:-1])
    return text


class _Parser:

    def __init__(self, text):
        self.tokens = _tokenize(text)
        self.pos = 0

    def next(self, kind=None, value=None):
        if self.pos >= len(self.tokens):
            raise ValueError('unexpected end of input')
        token = self.tokens[self.pos]
        if kind is not None and token[0] != kind:
            raise ValueError(f'expected {kind}, got {token}')
        if value is not None and token[1] != value:
            raise ValueError(f'expected {value!r}, got {token}')
        self.pos += 1
        return token

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def parse(self):
        """Returns (graph attributes, {node id: attrs}, [(src, dst)])."""
        self.next('id', 'digraph')
        self.next('id')
        self.next('punct', '{')
        graph_attrs = {}
        nodes = {}
        edges = []
        while self.peek() != ('punct', '}'):
            first = _unquote(self.next())
            token = self.next()
            if token == ('punct', '='):
                graph_attrs[first] = _unquote(self.next())
            elif token[0] == 'arrow':
                edges.append((first, _unquote(self.next('id'))))
            elif token == ('punct', '['):
                if first in nodes:
                    raise ValueError(f'node {first} declared twice')
                nodes[first] = self.attributes()
            else:
                raise ValueError(f'unexpected {token}')
            self.next('punct', ';')
        self.next('punct', '}')
        if self.peek() is not None:
            raise ValueError('text after the closing brace')
        return graph_attrs, nodes, edges

    def attributes(self):
        attrs = {}
        while True:
            key = _unquote(self.next('id'))
            self.next('punct', '=')
            if key in attrs:
                raise ValueError(f'attribute {key} given twice')
            attrs[key] = _unquote(self.next())
            token = self.next('punct')
            if token[1] == ']':
                return attrs
            if token[1] != ',':
                raise ValueError(f'unexpected {token}')


def parse_dot(text):
    graph_attrs, nodes, edges = _Parser(text).parse()
    for source, target in edges:
        assert source in nodes, f'edge from undeclared node {source}'
        assert target in nodes, f'edge to undeclared node {target}'
    return graph_attrs, nodes, edges


def test_parser_rejects_broken_dot():
    with pytest.raises(ValueError):
        parse_dot('digraph g{1 [label="a"b"];}')
    with pytest.raises(ValueError):
        parse_dot('digraph g{1 [label="a"];')


# --- Tiny function nodes --------------------------------------------------

class Double(chainer.FunctionNode):

    def forward(self, inputs):
        return utils.force_array(inputs[0] * 2),


class Add(chainer.FunctionNode):

    def forward(self, inputs):
        a, b = inputs
        return a + b,


class Halves(chainer.FunctionNode):

    def forward(self, inputs):
        x, = inputs
        n = len(x) // 2
        return x[:n].copy(), x[n:].copy()


class Labelled(chainer.FunctionNode):

    @property
    def label(self):
        return 'my "op"'

    def forward(self, inputs):
        return inputs[0].copy(),


def _var(shape=(2, 3), name=None, requires_grad=True):
    data = numpy.arange(numpy.prod(shape), dtype=numpy.float32)
    return chainer.Variable(data.reshape(shape), name=name,
                            requires_grad=requires_grad)


def _dot_ids(nodes):
    return {str(id(node)) for node in nodes}


@pytest.fixture
def graph():
    """x -> Double -> h; (h, y) -> Add -> z."""
    x = _var(name='x')
    y = _var()
    h, = Double().apply((x,))
    z, = Add().apply((h, y))
    z.name = 'z'
    return x, y, h, z


def test_nodes_and_edges(graph):
    x, y, h, z = graph
    double, add = h.creator_node, z.creator_node
    g = c.build_computational_graph([z])
    assert isinstance(g, c.ComputationalGraph)
    assert isinstance(g.nodes, list)
    assert len(g.nodes) == 6
    assert {id(n) for n in g.nodes} == {
        id(n) for n in (x.node, y.node, h.node, z.node, double, add)}
    expected_edges = {
        (x.node, double), (double, h.node), (h.node, add), (y.node, add),
        (add, z.node)}
    assert len(g.edges) == len(expected_edges)
    assert {(id(a), id(b)) for a, b in g.edges} == {
        (id(a), id(b)) for a, b in expected_edges}


def test_dump_is_valid_dot_with_default_styles(graph):
    x, y, h, z = graph
    double, add = h.creator_node, z.creator_node
    text = c.build_computational_graph([z]).dump()
    assert text.startswith('digraph graphname{rankdir=TB;')
    assert text.endswith('}')
    graph_attrs, nodes, edges = parse_dot(text)
    assert graph_attrs == {'rankdir': 'TB'}
    assert set(nodes) == _dot_ids(
        [x.node, y.node, h.node, z.node, double, add])
    assert nodes[str(id(x.node))] == {
        'label': 'x: (2, 3), float32', 'shape': 'octagon',
        'fillcolor': '#E0E0E0', 'style': 'filled'}
    assert nodes[str(id(y.node))]['label'] == '(2, 3), float32'
    assert nodes[str(id(z.node))]['label'] == 'z: (2, 3), float32'
    assert nodes[str(id(double))] == {
        'label': 'Double', 'shape': 'record', 'fillcolor': '#6495ED',
        'style': 'filled'}
    assert sorted(edges) == sorted([
        (str(id(x.node)), str(id(double))),
        (str(id(double)), str(id(h.node))),
        (str(id(h.node)), str(id(add))),
        (str(id(y.node)), str(id(add))),
        (str(id(add)), str(id(z.node)))])


def test_dump_statement_layout(graph):
    # The attribute order and punctuation of the original's dumps.
    x, _, h, _ = graph
    double = h.creator_node
    text = c.build_computational_graph(h).dump()
    assert (f'{id(double)} [label="Double",shape="record",'
            f'fillcolor="#6495ED",style="filled"];') in text
    assert (f'{id(x.node)} [label="x: (2, 3), float32",shape="octagon",'
            f'fillcolor="#E0E0E0",style="filled"];') in text
    assert f'{id(x.node)} -> {id(double)};' in text
    assert f'{id(double)} -> {id(h.node)};' in text


def test_scalar_and_vector_labels():
    x = _var((3,), name='v')
    s, = Double().apply((chainer.Variable(numpy.array(2.0, numpy.float32)),))
    _, nodes, _ = parse_dot(c.build_computational_graph([x, s]).dump())
    assert nodes[str(id(x.node))]['label'] == 'v: (3), float32'
    assert nodes[str(id(s.node))]['label'] == 'float32'


@pytest.mark.parametrize('rankdir', ['TB', 'BT', 'LR', 'RL'])
def test_rankdir(graph, rankdir):
    g = c.build_computational_graph([graph[3]], rankdir=rankdir)
    assert g.rankdir == rankdir
    graph_attrs, _, _ = parse_dot(g.dump())
    assert graph_attrs == {'rankdir': rankdir}


@pytest.mark.parametrize('rankdir', ['XX', 'tb', ''])
def test_invalid_rankdir(graph, rankdir):
    with pytest.raises(ValueError, match='rankdir must be in TB, BT, LR'):
        c.build_computational_graph([graph[3]], rankdir=rankdir)
    with pytest.raises(ValueError, match='rankdir must be in TB, BT, LR'):
        c.ComputationalGraph([], [], rankdir=rankdir)


def test_remove_split_must_be_true(graph):
    with pytest.raises(ValueError,
                       match='remove_split=False is not supported anymore'):
        c.build_computational_graph([graph[3]], remove_split=False)


def test_remove_variable(graph):
    _, _, h, z = graph
    double, add = h.creator_node, z.creator_node
    g = c.build_computational_graph([z], remove_variable=True)
    assert g.remove_variable
    # The graph keeps every node; only the dump leaves variables out.
    assert len(g.nodes) == 6
    _, nodes, edges = parse_dot(g.dump())
    assert set(nodes) == _dot_ids([double, add])
    assert nodes[str(id(add))]['shape'] == 'record'
    assert edges == [(str(id(double)), str(id(add)))]


def test_remove_variable_with_shared_and_multiple_outputs():
    x = _var((4,), name='x')
    first, second = Halves().apply((x,))
    split = first.creator_node
    a, = Double().apply((first,))
    b, = Double().apply((first,))
    s1, = Add().apply((a, second))
    s2, = Add().apply((s1, b))
    g = c.build_computational_graph(s2, remove_variable=True)
    _, nodes, edges = parse_dot(g.dump())
    functions = [split, a.creator_node, b.creator_node, s1.creator_node,
                 s2.creator_node]
    assert set(nodes) == _dot_ids(functions)
    assert len(edges) == len(set(edges))
    expected = [
        (split, a.creator_node), (split, b.creator_node),
        (split, s1.creator_node), (a.creator_node, s1.creator_node),
        (b.creator_node, s2.creator_node),
        (s1.creator_node, s2.creator_node)]
    assert sorted(edges) == sorted(
        (str(id(src)), str(id(dst))) for src, dst in expected)


def test_unused_output_of_multi_output_function_is_left_out():
    x = _var((4,))
    first, second = Halves().apply((x,))
    y, = Double().apply((first,))
    g = c.build_computational_graph(y)
    ids = {id(n) for n in g.nodes}
    assert id(first.node) in ids
    assert id(second.node) not in ids


def test_variable_style_and_function_style(graph):
    x, _, h, _ = graph
    double = h.creator_node
    g = c.build_computational_graph(
        [h], variable_style={'shape': 'box', 'color': 'red'},
        function_style={'fillcolor': 'yellow'})
    _, nodes, _ = parse_dot(g.dump())
    assert nodes[str(id(x.node))] == {
        'label': 'x: (2, 3), float32', 'shape': 'box', 'color': 'red'}
    assert nodes[str(id(double))] == {
        'label': 'Double', 'shape': 'box', 'fillcolor': 'yellow'}


def test_none_styles_give_plain_shapes(graph):
    x, _, h, _ = graph
    g = c.build_computational_graph(
        [h], variable_style=None, function_style=None)
    assert g.variable_style == {}
    assert g.function_style == {}
    _, nodes, _ = parse_dot(g.dump())
    assert nodes[str(id(x.node))] == {
        'label': 'x: (2, 3), float32', 'shape': 'oval'}
    assert nodes[str(id(h.creator_node))] == {
        'label': 'Double', 'shape': 'box'}


def test_default_style_attributes(graph):
    g = c.build_computational_graph([graph[3]])
    assert g.variable_style == {
        'shape': 'octagon', 'fillcolor': '#E0E0E0', 'style': 'filled'}
    assert g.function_style == {
        'shape': 'record', 'fillcolor': '#6495ED', 'style': 'filled'}
    assert g.show_name is True
    assert g.remove_variable is False


def test_show_name_false(graph):
    x, _, _, z = graph
    g = c.build_computational_graph([z], show_name=False)
    _, nodes, _ = parse_dot(g.dump())
    assert nodes[str(id(x.node))]['label'] == '(2, 3), float32'
    assert nodes[str(id(z.node))]['label'] == '(2, 3), float32'


@pytest.mark.parametrize('kind', ['variable', 'variable_node', 'tuple'])
def test_output_kinds(graph, kind):
    x, _, h, _ = graph
    output = {'variable': h, 'variable_node': h.node, 'tuple': (h,)}[kind]
    g = c.build_computational_graph(output)
    assert {id(n) for n in g.nodes} == {
        id(x.node), id(h.creator_node), id(h.node)}


def test_function_node_output_brings_inputs_only(graph):
    x, y, h, z = graph
    add = z.creator_node
    g = c.build_computational_graph([add])
    ids = {id(n) for n in g.nodes}
    assert id(add) in ids
    assert id(z.node) not in ids
    assert {id(x.node), id(y.node), id(h.node)} <= ids
    assert (id(add), id(z.node)) not in {(id(a), id(b)) for a, b in g.edges}


def test_several_outputs_share_nodes(graph):
    _, _, h, z = graph
    w, = Double().apply((h,))
    g = c.build_computational_graph([z, w])
    assert len(g.nodes) == 8
    assert len({id(n) for n in g.nodes}) == 8
    _, nodes, edges = parse_dot(g.dump())
    assert len(nodes) == 8
    assert len(edges) == 7


def test_bad_output_type():
    with pytest.raises(TypeError, match='element of outputs must be either'):
        c.build_computational_graph([numpy.ones(3)])


def test_same_input_twice_gives_one_edge():
    x = _var(name='x')
    y, = Add().apply((x, x))
    g = c.build_computational_graph(y)
    assert len(g.edges) == 2
    _, _, edges = parse_dot(g.dump())
    assert edges.count((str(id(x.node)), str(id(y.creator_node)))) == 1


def test_leaf_variable_alone():
    x = _var(name='x')
    g = c.build_computational_graph([x])
    assert g.edges == []
    _, nodes, edges = parse_dot(g.dump())
    assert nodes == {str(id(x.node)): {
        'label': 'x: (2, 3), float32', 'shape': 'octagon',
        'fillcolor': '#E0E0E0', 'style': 'filled'}}
    assert edges == []


def test_inputs_without_grad_are_in_the_graph():
    # The node is linked while backprop is enabled, as in the original.
    x = _var(requires_grad=False)
    y, = Double().apply((x,))
    g = c.build_computational_graph(y)
    assert {id(n) for n in g.nodes} == {
        id(x.node), id(y.creator_node), id(y.node)}
    assert len(g.edges) == 2


def test_unchain_backward_stops_the_walk():
    x = _var()
    h, = Double().apply((x,))
    z, = Double().apply((h,))
    h.unchain_backward()
    g = c.build_computational_graph(z)
    ids = {id(n) for n in g.nodes}
    assert ids == {id(z.node), id(z.creator_node), id(h.node)}


def test_quotes_in_names_and_labels_are_escaped():
    x = _var(name='a"b\\')
    y, = Labelled().apply((x,))
    _, nodes, _ = parse_dot(c.build_computational_graph(y).dump())
    assert nodes[str(id(x.node))]['label'] == 'a"b\\: (2, 3), float32'
    assert nodes[str(id(y.creator_node))]['label'] == 'my "op"'


def test_dump_other_format(graph):
    g = c.build_computational_graph([graph[3]])
    with pytest.raises(NotImplementedError,
                       match='only dot format is supported'):
        g.dump(format='png')


def test_computational_graph_from_lists(graph):
    x, _, h, _ = graph
    double = h.creator_node
    g = c.ComputationalGraph(
        [x.node, double, h.node], [(x.node, double), (double, h.node)],
        variable_style=None, function_style='default', rankdir='LR')
    graph_attrs, nodes, edges = parse_dot(g.dump())
    assert graph_attrs == {'rankdir': 'LR'}
    assert nodes[str(id(x.node))]['shape'] == 'oval'
    assert nodes[str(id(double))]['shape'] == 'record'
    assert len(edges) == 2


def test_dot_node(graph):
    x, _, h, _ = graph
    node = c.DotNode(x.node)
    assert node.id_ == id(x.node)
    assert node.attribute == {'label': 'x: (2, 3), float32', 'shape': 'oval'}
    assert node.label == f'{id(x.node)} [label="x: (2, 3), float32",' \
        'shape="oval"];'
    styled = c.DotNode(h.creator_node, {'color': 'red'}, show_name=False)
    assert styled.label == f'{id(h.creator_node)} [label="Double",' \
        'shape="box",color="red"];'
    assert c.DotNode(x.node, show_name=False).attribute['label'] == \
        '(2, 3), float32'
    with pytest.raises(TypeError):
        c.DotNode(x)


@pytest.mark.skipif(shutil.which('dot') is None,
                    reason='Graphviz dot command is not installed')
def test_graphviz_accepts_dump(graph):
    text = c.build_computational_graph([graph[3]]).dump()
    result = subprocess.run(['dot', '-Tsvg'], input=text, text=True,
                            capture_output=True, check=False)
    assert result.returncode == 0, result.stderr
    assert '<svg' in result.stdout
