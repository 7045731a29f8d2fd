"""The backward of one recorded function node, as a list of array operations.

A function node's ``backward`` works on variables: it applies gradient
function nodes, which on a replay would build variables and check types for
nothing. The first time a static schedule runs backward, each node's
``backward`` runs define-by-run while the gradient nodes it applies are
recorded; when every array those nodes read can be traced to a source that
is current on later replays, the node gets a :class:`BackwardPlan` that
calls the gradient nodes' ``forward`` directly on arrays.

The sources are: the gradients of the node's outputs, the node's retained
inputs and outputs, arrays held as attributes by the node (set again by its
``forward`` on every replay), parameters, and outputs of earlier gradient
nodes of the same plan. An array held by a gradient node as an attribute is
traced the same way and set again before the gradient node runs. Anything
else (an array computed by Python code inside ``backward``, a constant
made there, an array inside a container attribute, a node whose backward is
not made of function nodes) leaves the node without a plan: its
``backward`` then runs on variables on every replay, which is always right.
"""

import itertools

import numpy

from chainer import backend
from chainer.backends import cuda
from chainer import function_hook


_GY, _RETAINED_INPUT, _RETAINED_OUTPUT, _ATTRIBUTE, _PARAM, _COMPUTED = \
    range(6)

# The attributes FunctionNode keeps for the graph: a plan does not trace
# them, and a replay does not reset them.
NODE_ATTRIBUTES = frozenset([
    'inputs', 'outputs', 'rank', 'stack', 'lazy_grad_sum',
    '_input_indexes_to_retain', '_output_indexes_to_retain',
    '_retained_output_data', '_local_function_hooks',
    '_n_local_function_hooks'])

_recorder_ids = itertools.count()


def _is_array(x):
    return isinstance(x, (numpy.ndarray, cuda.ndarray))


_PLAIN_TYPES = (type(None), bool, int, float, complex, str, bytes,
                numpy.generic, numpy.dtype, type)


def _holds_array(value, depth=4):
    """Tells whether ``value`` may hold an array somewhere inside.

    Containers, objects' attributes and closures are searched a few levels
    deep; what is deeper counts as holding one.
    """
    if isinstance(value, _PLAIN_TYPES):
        return False
    if _is_array(value):
        return True
    if depth == 0:
        return True
    if isinstance(value, dict):
        items = list(value.values())
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
    else:
        items = []
        attributes = getattr(value, '__dict__', None)
        if isinstance(attributes, dict):
            items.extend(attributes.values())
        for name in getattr(type(value), '__slots__', ()):
            items.append(getattr(value, name, None))
        for cell in getattr(value, '__closure__', None) or ():
            items.append(cell.cell_contents)
    return any(_holds_array(item, depth - 1) for item in items)


class GradientRecorder(function_hook.FunctionHook):
    """Function hook that lists the nodes applied during a backward."""

    def __init__(self):
        self.name = 'StaticScheduleGradientRecorder{}'.format(
            next(_recorder_ids))
        self.calls = []

    def forward_preprocess(self, function, in_data):
        self.calls.append((function, in_data))


class BackwardPlan:
    """The array operations of one node's backward.

    Args:
        ops (tuple): ``(node, input sources, attribute sources)`` of each
            gradient node, in the order they ran.
        gx_sources (tuple): The source of each target input's gradient, or
            ``None`` where the backward gave none.
        missing (tuple of bool): Which output gradients were ``None`` when
            the plan was recorded; the plan serves only that pattern.
        kernel: The :func:`replay_kernel` of the only gradient node, when
            there is one node, of one input and one output.
    """

    __slots__ = ('ops', 'gx_sources', 'missing', 'passed_through',
                 'single_op', 'kernel')

    def __init__(self, ops, gx_sources, missing, kernel=None):
        self.ops = ops
        self.gx_sources = gx_sources
        self.missing = missing
        # A backward that hands output gradients on as they are (an
        # addition, a constant shift) needs no computation at all.
        self.passed_through = None
        if not ops and all(source is not None and source[0] == _GY
                           for source in gx_sources):
            self.passed_through = tuple([
                source[1] for source in gx_sources])
        # The most common backward: one gradient node, applied to output
        # gradients, giving the input gradients.
        self.single_op = None
        if len(ops) == 1:
            grad_node, in_sources, attr_sources = ops[0]
            if (all(source[0] == _GY for source in in_sources)
                    and all(source is None or source[0] == _COMPUTED
                            for source in gx_sources)):
                self.single_op = (
                    grad_node, tuple([source[1] for source in in_sources]),
                    attr_sources, tuple([
                        None if source is None else source[2]
                        for source in gx_sources]))
        self.kernel = kernel if self.single_op is not None else None

    def matches(self, gys):
        """Tells whether the plan serves these output gradients."""
        if len(gys) == 1:
            # The only output has a gradient, or the node would not run.
            return True
        return self.missing == tuple([gy is None for gy in gys])

    def run(self, node, gys):
        """Computes the target inputs' gradient arrays.

        Args:
            node (~chainer.FunctionNode): The node whose backward this is,
                after its forward ran for this replay.
            gys (list of arrays): The output gradients (``None`` where
                missing).

        Returns:
            list: The gradient arrays of the target inputs.
        """
        passed_through = self.passed_through
        if passed_through is not None:
            return [gys[j] for j in passed_through]
        single_op = self.single_op
        if single_op is not None:
            grad_node, gy_indexes, attr_sources, out_indexes = single_op
            if attr_sources:
                for name, source in attr_sources:
                    setattr(grad_node, name, _get(source, node, gys, None))
            grad_node._input_indexes_to_retain = None
            grad_node._output_indexes_to_retain = None
            outputs = grad_node.forward(tuple([gys[j] for j in gy_indexes]))
            return [None if j is None else outputs[j] for j in out_indexes]
        computed = []
        for grad_node, in_sources, attr_sources in self.ops:
            for name, source in attr_sources:
                setattr(grad_node, name, _get(source, node, gys, computed))
            inputs = tuple([_get(source, node, gys, computed)
                            for source in in_sources])
            grad_node._input_indexes_to_retain = None
            grad_node._output_indexes_to_retain = None
            computed.append(grad_node.forward(inputs))
        return [None if source is None else _get(source, node, gys, computed)
                for source in self.gx_sources]


def _get(source, node, gys, computed):
    """The array of a source in a replay."""
    kind = source[0]
    if kind == _COMPUTED:
        return computed[source[1]][source[2]]
    if kind == _GY:
        return gys[source[1]]
    if kind == _RETAINED_INPUT:
        return node.inputs[source[1]].data
    if kind == _RETAINED_OUTPUT:
        return node._retained_output_data[source[1]]
    if kind == _ATTRIBUTE:
        return getattr(node, source[1])
    return source[1].array


def build(node, gys, gxs, calls, params):
    """Makes the plan of a backward that just ran define-by-run.

    Args:
        node (~chainer.FunctionNode): The node.
        gys (tuple of ~chainer.Variable): The output gradients it got.
        gxs (tuple of ~chainer.Variable): The target inputs' gradients it
            returned.
        calls (list): ``(grad_node, in_data)`` of every node applied by the
            backward, in order (see :class:`GradientRecorder`).
        params (list of ~chainer.Parameter): The chain's parameters.

    Returns:
        BackwardPlan or None: ``None`` when some array cannot be traced.
    """
    by_node = {}
    by_array = {}

    def note(var_node, array, source):
        if var_node is not None:
            by_node.setdefault(id(var_node), source)
        if array is not None:
            by_array.setdefault(id(array), source)

    for j, gy in enumerate(gys):
        if gy is not None:
            note(gy.node, gy.array, (_GY, j))
    for i in node._input_indexes_to_retain or ():
        in_node = node.inputs[i]
        note(in_node, in_node.data, (_RETAINED_INPUT, i))
    retained = node._output_indexes_to_retain or ()
    for k, (index, array) in enumerate(
            zip(retained, node._retained_output_data or ())):
        out_node = node.outputs[index]()
        note(out_node, array, (_RETAINED_OUTPUT, k))
    for name, value in vars(node).items():
        if name not in NODE_ATTRIBUTES and _is_array(value):
            note(None, value, (_ATTRIBUTE, name))
    for param in params:
        note(param.node, param.array, (_PARAM, param))

    def trace(var_node, array):
        source = by_node.get(id(var_node)) if var_node is not None else None
        if source is None and array is not None:
            source = by_array.get(id(array))
        return source

    kernel = None
    if len(calls) == 1:
        kernel = replay_kernel(*calls[0])
    ops = []
    for m, (grad_node, in_data) in enumerate(calls):
        if grad_node.inputs is None or grad_node.outputs is None:
            return None
        in_sources = []
        for in_node, array in zip(grad_node.inputs, in_data):
            source = trace(in_node, array)
            if source is None:
                return None
            in_sources.append(source)
        attr_sources = []
        for name, value in vars(grad_node).items():
            if name in NODE_ATTRIBUTES:
                continue
            if _is_array(value):
                source = by_array.get(id(value))
                if source is None:
                    return None
                attr_sources.append((name, source))
            elif _holds_array(value):
                return None
        for j, ref in enumerate(grad_node.outputs):
            out_node = ref()
            if out_node is not None:
                var = out_node.get_variable_or_none()
                note(out_node, None if var is None else var.array,
                     (_COMPUTED, m, j))
        ops.append((grad_node, tuple(in_sources), tuple(attr_sources)))

    gx_sources = []
    for gx in gxs:
        if gx is None:
            gx_sources.append(None)
            continue
        source = trace(gx.node, gx.array)
        if source is None:
            return None
        gx_sources.append(source)

    for grad_node, _, _ in ops:
        # The plan only calls forward: drop the graph of the recording.
        grad_node.inputs = None
        grad_node.outputs = None
        grad_node._retained_output_data = None
    return BackwardPlan(tuple(ops), tuple(gx_sources),
                        tuple([gy is None for gy in gys]), kernel)


def replay_kernel(node, in_data):
    """The node's kernel for a replay of its forward on arrays like
    ``in_data``, or ``None``.

    A node class may define ``_replay_forward(inputs)``: for a node of one
    input and one output, a function of the input array that returns the
    output array ``forward`` would return, made for arrays like ``inputs``
    (and handing others to ``forward``), or ``None``. It serves only the
    class that defines it, not subclasses, which may compute otherwise,
    and only a node whose forward retained nothing.
    """
    method = vars(type(node)).get('_replay_forward')
    if (method is None or len(in_data) != 1 or node.outputs is None
            or len(node.outputs) != 1
            or node._input_indexes_to_retain is not None
            or node._output_indexes_to_retain is not None):
        return None
    return method(node, in_data)


def same_arrays(xs, ys):
    """Tells whether two lists of gradient arrays hold the same values."""
    for x, y in zip(xs, ys):
        if (x is None) != (y is None):
            return False
        if x is None:
            continue
        if x.shape != y.shape or x.dtype != y.dtype:
            return False
        xp = backend.get_array_module(x)
        if not bool(xp.allclose(x, y, rtol=1e-6, atol=0, equal_nan=True)):
            return False
    return True
