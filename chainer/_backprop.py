"""Backpropagation: the traversal of the graph behind backward and grad.

Function nodes wait in a heap keyed by rank, the highest popped first, so a
node runs once, after every node that consumed its outputs. Nodes of equal
rank run in the order they were reached. The gradients of a variable node
are collected in a table until its creator runs.
"""

import heapq
import shutil
import traceback
import warnings

import numpy

import chainer
from chainer import _kernels
from chainer import backend
from chainer import configuration
from chainer import function_hook
from chainer.utils import argument


_config = configuration.config


def _as_grad_var(gx):
    # A gradient made here requires a gradient itself, as in Chainer.
    if isinstance(gx, chainer.variable.Variable):
        return gx
    return chainer.variable.Variable(gx)


def _sum_grads(grads, as_node=False):
    """Returns the sum of the gradient variables ``grads``.

    The sum is an application of :func:`chainer.functions.add`, as in
    Chainer, when ``as_node`` (the traversal is observed) or under double
    backprop; otherwise a plain addition of the arrays.
    """
    if len(grads) == 1:
        return grads[0]
    if as_node or _config.enable_backprop:
        return chainer.functions.add(*grads)
    first, second = grads[0]._data, grads[1]._data
    total = _kernels.arithmetic('add', first, second)
    if total is None:
        total = first + second
    if not isinstance(total, chainer.variable._ARRAY_TYPES):
        total = numpy.asarray(total)
    for g in grads[2:]:
        total += g._data
    total = chainer.variable.Variable(total)
    if grads[0]._layout is not None:
        # As F.add would, the sum keeps the memory layout of the gradients.
        chainer.variable._give_layout(total, grads[0]._layout)
    return total


def _add_into_sums(func, indexes, grad_outputs, grad_inputs, table):
    """Lets ``func`` add gradients into the table's own sums in place.

    The protocol of :attr:`FunctionNode._add_grad_into
    <chainer.FunctionNode>`: for an input without a gradient yet, ``func``
    may return its gradient as a new array, which the table then owns; for
    an input whose one gradient is a sum the table owns, it may add into
    that array and return ``True``, or return an
    :class:`~chainer.function_node.Addend` to be added later. Returns the
    indexes whose gradients are still to be computed by ``backward``.
    """
    inputs = func.inputs
    left = []
    for i in indexes:
        grads = grad_inputs[inputs[i]]
        if not grads:
            gx = func._add_grad_into(i, grad_outputs, None)
            if gx is not False and gx is not None:
                grads.append(table.own(_as_grad_var(gx)))
                continue
        elif len(grads) == 1:
            total = grads[0]
            if table.owns(total):
                done = func._add_grad_into(i, grad_outputs, total._data)
                if done:
                    if done is not True:
                        table.defer(total, done)
                    continue
        left.append(i)
    return tuple(left)


class _GradTable:
    """Gradients of variable nodes, a list per node.

    A backward step appends the gradients it computes for each input node
    to that node's list and, unless its function node sets
    ``lazy_grad_sum``, sums a list of several right away (in place into
    the first gradient when the table alone holds it); a node's list is
    summed at the latest when the node's creator pops it.

    With ``load_grads`` (``Variable.backward``), a node met for the first
    time starts from its variable's own gradient: a leaf adds to it, and
    an output the traversal gave no gradient takes it (and its variable
    drops it), as a ``.grad`` set on an output beside the one backward
    started from flows on in Chainer.

    It is the reference of the compiled traversal's table
    (``chainer._compiled_autograd.GradTable``, see
    :mod:`chainer._compiled_core`), which has the methods the steps of
    :func:`_run_backward` call: ``get_as_list``, ``own``, ``owns``,
    ``release``, ``defer``, ``settle``, ``sum_list`` and ``observed``.

    Args:
        load_grads (bool): Whether leaves start from their own gradients.
        observed (bool): Whether the traversal is observed (function
            hooks, debug mode). Such a table owns no sums: every sum of
            several gradients is an application of
            :func:`chainer.functions.add` that the hooks see, as in
            Chainer.

    Attributes:
        grads (dict): The list of gradient variables of each node.
        sums (dict): ``id(sum) -> sum``: the gradient variables the table
            made (sums, and gradients a node returned through
            ``_add_grad_into``) and alone holds. Later gradients of the
            same node may be added into them in place, which spares a new
            array per addition; a sum leaves when it leaves the table.
        pending (dict): ``id(sum) -> (sum, addend)``: an
            :class:`~chainer.function_node.Addend` still to be added into
            a sum of ``sums``; it is added when the sum is next summed or
            popped.
    """

    __slots__ = ('grads', 'sums', 'pending', 'observed', '_load_grads')

    def __init__(self, load_grads, observed=False):
        self.grads = {}
        self.sums = {}
        self.pending = {}
        self.observed = observed
        self._load_grads = load_grads

    def own(self, grad):
        """Registers ``grad``, which nothing else holds, as a sum of the
        table; returns it."""
        if not _config.enable_backprop and not self.observed:
            self.sums[id(grad)] = grad
        return grad

    def owns(self, grad):
        """Whether ``grad`` is a sum of the table."""
        return self.sums.get(id(grad)) is grad

    def release(self, grad):
        """Unregisters ``grad`` as it leaves the table; returns it."""
        if self.sums and grad is not None:
            self.sums.pop(id(grad), None)
        return grad

    def defer(self, total, addend):
        """Keeps ``addend`` to be added into the table's sum ``total``."""
        pending = self.pending.get(id(total))
        if pending is not None:
            if pending[1].absorb(addend):
                return
            pending[1].add_to(total._data)
        self.pending[id(total)] = total, addend

    def settle(self, grads):
        """Adds the addends kept for the gradients in ``grads``."""
        if self.pending:
            for g in grads:
                pending = self.pending.pop(id(g), None)
                if pending is not None:
                    pending[1].add_to(g._data)
        return grads

    def sum_list(self, grads):
        """Replaces the gradients in the list ``grads`` by their sum: in
        place into the first when it is a sum of the table."""
        first = grads[0]
        if self.sums.get(id(first)) is first and \
                not _config.enable_backprop:
            total = first._data
            rest = grads[1:]
            if all([type(g._data) is type(total)
                    and g._data.shape == total.shape
                    and g._data.dtype == total.dtype for g in rest]):
                for g in rest:
                    total += g._data
                del grads[1:]
                return
        grads[:] = [self.own(_sum_grads(self.settle(grads), self.observed))]

    def accumulate(self, node, grad):
        if grad is not None:
            self.get_as_list(node).append(grad)

    def get_as_list(self, node):
        grads = self.grads.get(node)
        if grads is None:
            grads = []
            if self._load_grads and node._creator_node is None:
                node._check_old_style_gradient()
                grad_var = node.grad_var
                if grad_var is not None:
                    grads.append(grad_var)
            self.grads[node] = grads
        return grads

    def pop(self, node):
        grads = self.grads.pop(node, None)
        if not grads:
            if grads is None and self._load_grads:
                return _take_grad(node)
            return None
        return self.release(_sum_grads(self.settle(grads), self.observed))

    def pop_outputs(self, func):
        """Returns the output nodes of ``func`` (``None`` where gone) and
        their gradients, popped."""
        output_nodes = []
        grad_outputs = []
        for ref in func.outputs:
            y = ref()
            output_nodes.append(y)
            grad_outputs.append(
                self.pop(y) if y is not None and y._creator_node is not None
                else None)
        return output_nodes, tuple(grad_outputs)

    def __setitem__(self, node, grad):
        self.grads[node] = [] if grad is None else [grad]

    def assert_no_grads(self):
        """Asserts that every gradient collected has been popped."""
        for grads in self.grads.values():
            assert not grads


def _take_grad(node):
    """The gradient of the variable of ``node``, which drops it."""
    var = node.get_variable_or_none()
    if var is None:
        return None
    grad = var._grad_var
    if grad is not None:
        var._grad_var = None
    return grad


class _FunctionHeap:
    """Function nodes to visit, highest rank first, each pushed once."""

    __slots__ = ('_heap', '_seen')

    def __init__(self):
        self._heap = []
        self._seen = set()

    def push(self, func):
        seen = self._seen
        if func not in seen:
            heapq.heappush(self._heap, (-func.rank, len(seen), func))
            seen.add(func)

    def pop(self):
        return heapq.heappop(self._heap)[2]

    def __bool__(self):
        return bool(self._heap)


def normalize_grad_inputs(func, target_input_indexes, gxs):
    """Returns the gradients of the target inputs from what backward gave.

    ``backward`` may return the gradients of the targets only, or of all
    inputs; anything else is a bug of the function, reported here.
    """
    n_grads = len(gxs)
    n_targets = len(target_input_indexes)
    if n_grads == n_targets:
        return gxs
    n_inputs = len(func.inputs)
    if n_grads == n_inputs:
        return tuple([gxs[i] for i in target_input_indexes])
    expected = str(n_inputs) if n_inputs == n_targets else '{} or {}'.format(
        n_inputs, n_targets)
    raise ValueError(_error_message(
        func, 'number of gradients returned from backward is incorrect: '
        '{} != expected {}'.format(n_grads, expected)))


def _error_message(func, message):
    """Returns ``message`` followed by the inputs and outputs of ``func``."""
    lines = [message, '  function={} ({})'.format(
        type(func).__name__, func.label)]
    for i, node in enumerate(func.inputs or ()):
        lines.append('    input {}: shape={} dtype={}'.format(
            i, node.shape, node.dtype))
    for i, ref in enumerate(func.outputs or ()):
        node = ref()
        if node is None:
            lines.append('    output {}: not available'.format(i))
        else:
            lines.append('    output {}: shape={} dtype={}'.format(
                i, node.shape, node.dtype))
    return '\n'.join(lines)


def _check_debug_grad(func, index, node, gx, current):
    """Checks a new input gradient against its node and earlier gradients.

    Debug mode only: the messages name the function and input at fault
    before the gradients are summed.
    """
    if gx.shape != node.shape:
        raise ValueError(_error_message(
            func, 'shape of gradients returned from backward is incorrect: '
            'input-index={}, actual {} != expected {}'.format(
                index, gx.shape, node.shape)))
    # The gradients already collected have the node's shape (checked here
    # or when they were set); only their dtype can disagree.
    if current and gx.dtype != current[0].dtype:
        raise ValueError(_error_message(
            func, 'dtype of gradients returned from backward is '
            'incorrect: input-index={}, actual {} != expected {}'.format(
                index, gx.dtype, current[0].dtype)))


def _grad_shortcut(func, table, observed):
    """Returns ``func._add_grad_into`` where its step may use it, or None.

    The traversal's half of the one decision whether a node's
    :meth:`~chainer.FunctionNode.backward` may be bypassed (the class's
    half is ``FunctionNode.__init_subclass__``, which drops the protocol
    of a class whose ``backward`` it does not match): ``backward`` runs
    whenever its application is observed (a function hook of the thread or
    of the node, debug mode), under double backprop or ``lazy_grad_sum``,
    and where the gradient lists are not a table's own, so that hooks see
    exactly Chainer's function applications.
    """
    add_grad_into = func._add_grad_into
    if add_grad_into is None or observed or table is None \
            or table.observed or func.lazy_grad_sum \
            or _config.enable_backprop:
        return None
    return add_grad_into


def _backprop_step(func, target_input_indexes, grad_outputs, grad_inputs,
                   is_debug, table=None, hooked=False):
    """Runs backward of ``func``, appending to the lists in ``grad_inputs``.

    Args:
        func (FunctionNode): The node.
        target_input_indexes (tuple of int): Inputs whose gradients are
            wanted.
        grad_outputs (tuple): Gradient variables of the outputs.
        grad_inputs (dict): The gradient lists of the target input nodes,
            updated in place.
        is_debug (bool): Whether to look for NaN in the gradients.
        table (_GradTable): The table of the traversal if the lists are
            its own, whose sums may then be added into in place. Without
            it, gradients are summed by :func:`chainer.functions.add`, as
            in Chainer.
        hooked (bool): Whether function hooks observe the node.
    """
    inputs = func.inputs
    function_node_type = chainer.function_node.FunctionNode
    indexes = target_input_indexes
    as_node = table is None or table.observed
    if type(func).backward_accumulate is function_node_type \
            .backward_accumulate:
        if _grad_shortcut(func, table, is_debug or hooked) is not None:
            indexes = _add_into_sums(func, indexes, grad_outputs,
                                     grad_inputs, table)
            if not indexes:
                return
        gxs = func.backward(indexes, grad_outputs)
        if is_debug:
            for gx in gxs:
                if gx is not None and not isinstance(
                        gx, chainer.variable.Variable):
                    raise ValueError(_error_message(
                        func, 'type of gradients returned from backward is '
                        'incorrect: {} != expected {}'.format(
                            type(gx), chainer.variable.Variable)))
        if len(gxs) != len(indexes):
            gxs = normalize_grad_inputs(func, indexes, gxs)
    else:
        # The node adds its gradients to the current ones itself; an input
        # given twice gets the current gradient at its first position only.
        current = []
        seen = set()
        for i in target_input_indexes:
            node = inputs[i]
            if node in seen:
                current.append(None)
                continue
            seen.add(node)
            grads = grad_inputs[node]
            if not grads:
                current.append(None)
            elif table is None:
                current.append(_sum_grads(grads, True))
            else:
                current.append(table.release(
                    _sum_grads(table.settle(grads), as_node)))
            del grads[:]
        gxs = func.backward_accumulate(
            target_input_indexes, grad_outputs, tuple(current))
        if len(gxs) != len(target_input_indexes):
            normalize_grad_inputs(func, target_input_indexes, gxs)

    for i, gx in zip(indexes, gxs):
        if gx is None:
            continue
        gx = _as_grad_var(gx)
        if gx._data is None:
            continue
        node = inputs[i]
        if is_debug:
            _check_debug_grad(func, i, node, gx, grad_inputs[node])
        grad_inputs[node].append(gx)
    if is_debug:
        # As in Chainer, every gradient of the targets is checked, those
        # collected before this step included.
        for grads in grad_inputs.values():
            if any([backend._contains_nan(g._data) for g in grads]):
                raise RuntimeError(
                    'NaN is detected on backward computation of {}'.format(
                        func.label))

    if not func.lazy_grad_sum:
        for grads in grad_inputs.values():
            if len(grads) > 1:
                if table is not None:
                    table.sum_list(grads)
                else:
                    grads[:] = [_sum_grads(grads, True)]


def _append_stack_to_message(error, stack):
    """Appends where a function was applied to the message of an error.

    The message itself is changed (not a note), so that every exception
    type, NaN checks' RuntimeError and NumPy's FloatingPointError alike,
    names the line of user code that built the failing node.
    """
    text = '\n{}\nStacktrace of the function is below:\n{}'.format(
        '-' * shutil.get_terminal_size().columns,
        ''.join(traceback.format_list(stack[:-1])))
    if error.args:
        error.args = (str(error.args[0]) + text,) + error.args[1:]
    else:
        error.args = (text,)


def _run_backward(func, target_input_indexes, grad_outputs, grads,
                  is_debug, hooks):
    """Runs backward of one node with its hooks; returns the input grads.
    """
    inputs = func.inputs
    in_grads = {}
    for i in target_input_indexes:
        node = inputs[i]
        if node not in in_grads:
            in_grads[node] = grads.get_as_list(node)

    if func._n_local_function_hooks:
        hooks = dict(hooks)
        hooks.update(func._local_function_hooks)
    if hooks:
        in_data = tuple([x.data for x in inputs])
        out_grad_data = tuple([
            None if g is None else g._data for g in grad_outputs])
        for hook in hooks.values():
            hook.backward_preprocess(func, in_data, out_grad_data)

    device = None
    for g in grad_outputs:
        if g is not None:
            if not isinstance(g._data, numpy.ndarray):
                device = chainer.backend.get_device_from_array(g._data)
            break
    try:
        if device is None:
            _backprop_step(func, target_input_indexes, grad_outputs,
                           in_grads, is_debug, grads, bool(hooks))
        else:
            with chainer.backend.using_device(device):
                _backprop_step(func, target_input_indexes, grad_outputs,
                               in_grads, is_debug, grads, bool(hooks))
    except Exception as e:
        if func.stack is not None:
            _append_stack_to_message(e, func.stack)
        raise

    check_grad_type = chainer.variable._check_grad_type
    for node, node_grads in in_grads.items():
        for gx in node_grads:
            check_grad_type(func, node, True, gx._data)

    if hooks:
        for hook in hooks.values():
            hook.backward_postprocess(func, in_data, out_grad_data)
    return in_grads


def _raise_no_output_grad(func, error):
    # As in Chainer, a node runs even when none of its outputs has a
    # gradient (a non-scalar output whose grad was never set): most backward
    # implementations then fail, reported as this TypeError.
    raise TypeError(
        'backward of {} got no gradient for any of its outputs: set the '
        'grad of a non-scalar variable before calling its backward (it is '
        'cleared after each backward unless retain_grad=True)'.format(
            func.label)) from error


def backprop_to_all(outputs, retain_grad, loss_scale):
    """Backprops from the outputs to every leaf that requires a gradient.

    The gradients are added to the ``grad_var`` of the leaf variables.

    Args:
        outputs (list): ``(variable node, gradient variable)`` pairs.
        retain_grad (bool): Whether intermediate variables keep their
            gradients.
        loss_scale (float): Recorded on the leaves for the optimizer.
    """
    is_debug = _config.debug
    hooks = function_hook.get_function_hooks()
    grads = _GradTable(load_grads=True, observed=bool(hooks) or is_debug)
    funcs = _FunctionHeap()
    leaf_nodes = {}
    for node, grad in outputs:
        grads.accumulate(node, grad)
        creator = node._creator_node
        if creator is None:
            leaf_nodes[node] = None
        else:
            funcs.push(creator)

    while funcs:
        func = funcs.pop()
        output_nodes, grad_outputs = grads.pop_outputs(func)
        if retain_grad:
            for y, gy in zip(output_nodes, grad_outputs):
                if y is not None:
                    y._set_grad_var_if_available(gy)
        target_input_indexes = []
        for i, x in enumerate(func.inputs):
            if x._requires_grad:
                target_input_indexes.append(i)
        if not target_input_indexes:
            continue
        target_input_indexes = tuple(target_input_indexes)
        try:
            in_grads = _run_backward(
                func, target_input_indexes, grad_outputs, grads, is_debug,
                hooks)
        except Exception as e:
            if any([gy is not None for gy in grad_outputs]):
                raise
            _raise_no_output_grad(func, e)
        del grad_outputs
        for node, node_grads in in_grads.items():
            if not node_grads:
                continue
            creator = node._creator_node
            if creator is None:
                leaf_nodes[node] = None
            else:
                funcs.push(creator)
        del in_grads

    for node in leaf_nodes:
        grad = grads.pop(node)
        var = node._variable()
        if var is not None:
            var._grad_var = grad
            var._loss_scale = loss_scale


# The name Chainer 7 code reaches for.
_backprop_to_all = backprop_to_all


def _nodes_between(output_nodes, input_nodes):
    """Returns the variable nodes on some path from an input to an output.
    """
    funcs = []
    seen = set()
    stack = [node._creator_node for node in output_nodes]
    while stack:
        func = stack.pop()
        if func is None or func in seen:
            continue
        seen.add(func)
        funcs.append(func)
        for x in func.inputs:
            # A gradient made by an old-style function has a creator whose
            # own inputs are unknown: it cannot be differentiated again.
            x._check_old_style_gradient()
            if x._requires_grad:
                stack.append(x._creator_node)
    funcs.sort(key=lambda f: f.rank)

    on_path = set(input_nodes)
    for func in funcs:
        if any([x in on_path for x in func.inputs]):
            for ref in func.outputs:
                node = ref()
                if node is not None:
                    on_path.add(node)
    return on_path


def backprop_to_inputs(output_nodes, input_nodes, initial_grads,
                       retain_grad, loss_scale):
    """Backprops from the outputs to the given inputs only.

    Args:
        output_nodes (list of VariableNode): The outputs.
        input_nodes (list of VariableNode): The inputs.
        initial_grads (dict): The starting gradient variable of each output,
            and the gradients to add to those of the inputs.
        retain_grad (bool): Whether intermediate variables keep their
            gradients.
        loss_scale (float): Recorded on the variables that keep gradients.

    Returns:
        list of Variable: The gradient of each input, or ``None``.
    """
    on_path = _nodes_between(output_nodes, input_nodes)
    input_set = set(input_nodes)
    is_debug = _config.debug
    hooks = function_hook.get_function_hooks()
    grads = _GradTable(load_grads=False, observed=bool(hooks) or is_debug)
    for node, grad in initial_grads.items():
        grads.accumulate(node, grad)
    funcs = _FunctionHeap()
    for node in output_nodes:
        creator = node._creator_node
        if creator is not None and node in on_path:
            funcs.push(creator)

    results = {}
    while funcs:
        func = funcs.pop()
        output_nodes, grad_outputs = grads.pop_outputs(func)
        for y, gy in zip(output_nodes, grad_outputs):
            if y is None:
                continue
            if y in input_set:
                results[y] = gy
            if retain_grad:
                var = y._variable()
                if var is not None:
                    var._set_grad_var_without_check(gy)
                    var._loss_scale = loss_scale
        target_input_indexes = tuple([
            i for i, x in enumerate(func.inputs) if x in on_path])
        if not target_input_indexes or all(
                [gy is None for gy in grad_outputs]):
            continue
        in_grads = _run_backward(
            func, target_input_indexes, grad_outputs, grads, is_debug,
            hooks)
        for node, node_grads in in_grads.items():
            creator = node._creator_node
            if node_grads and creator is not None:
                funcs.push(creator)

    for node in input_nodes:
        if node not in results:
            results[node] = grads.pop(node)
    return [results[node] for node in input_nodes]


def check_variables(name, item_name, variables):
    """Raises TypeError unless ``variables`` is a list or tuple of them."""
    if not isinstance(variables, (tuple, list)):
        raise TypeError('{} must be a tuple or a list, not {}.'.format(
            name, type(variables)))
    for v in variables:
        if not isinstance(v, chainer.variable.Variable):
            raise TypeError('each {} must be a Variable, not {}'.format(
                item_name, type(v)))


def check_grads(name, grads, variables_name, variables):
    """Raises unless ``grads`` is a list or tuple as long as ``variables``.
    """
    if not isinstance(grads, (tuple, list)):
        raise TypeError('{} must be a tuple or a list or None, not {}.'
                        .format(name, type(grads)))
    if len(grads) != len(variables):
        raise ValueError(
            '{0} must be of the same length as {1}.\n'
            'len({1}) = {2}, len({0}) = {3}'.format(
                name, variables_name, len(variables), len(grads)))


def backward(outputs, grad_outputs=None, **kwargs):
    """Runs backprop from several outputs at once.

    Unlike :meth:`Variable.backward`, no default gradient is set: each
    output uses the given gradient or, when ``grad_outputs`` is omitted,
    its own ``grad_var``, which is then cleared (an output given twice
    counts once). Given gradients of an output listed twice are summed.

    Args:
        outputs (tuple or list of Variable): The outputs.
        grad_outputs (tuple or list): The gradient of each output
            (variables, arrays or ``None``); by default their ``grad_var``.
        enable_double_backprop (bool): If ``True``, the gradients are
            differentiable again.
    """
    enable_double_backprop, = argument.parse_kwargs(
        kwargs, ('enable_double_backprop', False),
        retain_grad='semantics for retain_grad=True is under discussion',
        loss_scale='chainer.backward does not support loss_scale option')
    check_variables('outputs', 'output', outputs)
    if grad_outputs is None:
        # Each output's own gradient is consumed, so an output given twice
        # counts once.
        grad_outputs = []
        for y in outputs:
            grad_var = y._grad_var
            if grad_var is None:
                warnings.warn(
                    'outputs contains a Variable without grad, or '
                    'duplicate outputs. Note that chainer.backward does '
                    'not set default grad.', RuntimeWarning)
            y._grad_var = None
            grad_outputs.append(grad_var)
    else:
        check_grads('grad_outputs', grad_outputs, 'outputs', outputs)

    pairs = []
    for y, gy in zip(outputs, grad_outputs):
        if gy is None:
            continue
        if not isinstance(gy, chainer.variable.Variable):
            gy = chainer.variable.Variable(gy)
        node = y._node
        node._check_old_style_gradient()
        pairs.append((node, gy))
    if not pairs:
        return
    with configuration.using_config(
            'enable_backprop', enable_double_backprop):
        backprop_to_all(pairs, False, None)
