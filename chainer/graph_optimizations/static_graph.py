"""Static schedules: record a chain's computation once, replay it after.

A chain whose ``forward`` (or ``__call__``) is decorated with
:func:`static_graph` runs its define-by-run code once per input signature
(the shapes, dtypes and array types of its inputs, whether they require
gradients, and the ``train`` mode). While it runs, every function node it
applies is recorded, in order, with where each of its inputs comes from: an
input of the chain, a parameter, an output of an earlier node, the result
of a :func:`static_code` function, or a constant. Later calls with the same
signature replay the recorded steps: each node's ``forward`` runs directly
on arrays, with no graph construction, no type checks and no per-node
bookkeeping. The whole chain appears in the caller's graph as one
:class:`StaticScheduleFunction` node, whose inputs are the chain's inputs
and the parameters it reads. Its backward runs the recorded nodes' backward
in reverse order on gradient arrays (no heap, no rank ordering, no graph
building; see :mod:`.backward_plan`) and returns the gradients of its
inputs, which reach the parameters' ``.grad`` as for any function, so
optimizers, hooks and the trainer work unchanged.
"""

import weakref

import numpy

from chainer import _backprop
from chainer import backend
from chainer.backends import cuda
from chainer import configuration
from chainer import function_hook
from chainer import function_node
from chainer.graph_optimizations import backward_plan
from chainer import variable


def _print_schedule_built():
    # Chainer 7.8 prints this line, whatever the verbosity, each time it
    # has recorded a schedule: a forward one, or the backward one of a
    # forward schedule (which ``backward`` announces by another line).
    print('end of build_schedule()')


class _Dead:
    pass


def _dead_ref():
    return weakref.ref(_Dead())


def _is_array(x):
    return isinstance(x, (numpy.ndarray, cuda.ndarray))


_MISSING = object()

# Where the array of a schedule slot comes from.
_INPUT, _PARAM, _CONST, _COMPUTED = range(4)


class _Recorder(function_hook.FunctionHook):
    """Function hook that adds every applied node to a schedule."""

    name = 'StaticScheduleRecorder'

    def __init__(self, schedule):
        self.schedule = schedule

    def forward_preprocess(self, function, in_data):
        if not configuration.config.enable_backprop:
            raise RuntimeError(
                'static_graph cannot record {}: it is applied with '
                'enable_backprop=False inside a static chain, so its inputs '
                'cannot be traced. Move the no_backprop_mode block out of '
                'the static chain or into a function decorated with '
                '@static_code.'.format(function.label))
        self.schedule._record_node(function, in_data)

    def forward_postprocess(self, function, in_data):
        vars(function).pop('forward', None)


class _NodeStep:
    """A recorded function node and the slots of its inputs and outputs."""

    __slots__ = ('node', 'in_slots', 'out_slots', 'out_nodes', 'targets',
                 'target_slots', 'plan', 'initial_attributes',
                 'added_attributes', 'resets_attributes', 'kernel')

    def __init__(self, node, in_slots, out_slots, out_nodes, targets,
                 state_before, in_data):
        self.node = node
        self.in_slots = in_slots
        self.out_slots = out_slots
        self.out_nodes = out_nodes
        self.targets = targets
        self.target_slots = tuple([in_slots[i] for i in targets])
        self.plan = None
        # What forward changed in the node's attributes is undone before
        # each replay, so that a node computing something once (a dropout
        # mask drawn when none is given) computes it again, as a new node
        # of define-by-run code would.
        state_after = vars(node)
        self.initial_attributes = tuple([
            (name, value) for name, value in state_before.items()
            if state_after.get(name, _MISSING) is not value])
        self.added_attributes = tuple([
            name for name in state_after
            if name not in state_before
            and name not in backward_plan.NODE_ATTRIBUTES])
        self.resets_attributes = bool(
            self.initial_attributes or self.added_attributes)
        self.kernel = backward_plan.replay_kernel(node, in_data)

    def __call__(self, table):
        node = self.node
        if self.resets_attributes:
            attributes = vars(node)
            for name in self.added_attributes:
                attributes.pop(name, None)
            attributes.update(self.initial_attributes)
        in_slots = self.in_slots
        if len(in_slots) == 1:
            inputs = (table[in_slots[0]],)
        else:
            inputs = tuple([table[s] for s in in_slots])
        node._input_indexes_to_retain = node._output_indexes_to_retain = None
        outputs = node.forward(inputs)
        if (node._input_indexes_to_retain is not None
                or node._output_indexes_to_retain is not None):
            self._keep_retained(inputs, outputs)
        out_slots = self.out_slots
        if len(out_slots) == 1:
            s = out_slots[0]
            if s >= 0:
                table[s] = outputs[0]
        else:
            for s, y in zip(out_slots, outputs):
                if s >= 0:
                    table[s] = y

    def compiled(self):
        """This step as a function of the table, specialised for the most
        common step: a node whose attributes need no reset and whose
        outputs all get slots."""
        if self.resets_attributes or -1 in self.out_slots:
            return self
        node = self.node
        forward = node.forward
        in_slots = self.in_slots
        out_slots = self.out_slots
        keep_retained = self._keep_retained
        kernel = self.kernel
        if kernel is not None:
            (s_in,), (s_out,) = in_slots, out_slots

            def run_kernel(table):
                table[s_out] = kernel(table[s_in])
            return run_kernel
        if len(in_slots) == 1 and len(out_slots) == 1:
            (s_in,), (s_out,) = in_slots, out_slots

            def run_one(table):
                node._input_indexes_to_retain = None
                node._output_indexes_to_retain = None
                inputs = table[s_in],
                outputs = forward(inputs)
                if (node._input_indexes_to_retain is not None
                        or node._output_indexes_to_retain is not None):
                    keep_retained(inputs, outputs)
                table[s_out] = outputs[0]
            return run_one

        def run(table):
            node._input_indexes_to_retain = None
            node._output_indexes_to_retain = None
            inputs = tuple([table[s] for s in in_slots])
            outputs = forward(inputs)
            if (node._input_indexes_to_retain is not None
                    or node._output_indexes_to_retain is not None):
                keep_retained(inputs, outputs)
            for s, y in zip(out_slots, outputs):
                table[s] = y
        return run

    def compiled_backward(self):
        """``(output slot, target slots, gradient function)`` for a step
        of one output whose plan needs nothing but the output gradient, or
        ``None``. The function is ``None`` when the gradient passes on to
        the only target unchanged; otherwise it maps the output gradient to
        the target inputs' gradients."""
        plan = self.plan
        if plan is None or len(self.out_slots) != 1:
            return None
        s_out, = self.out_slots
        targets = self.target_slots
        if plan.passed_through is not None:
            if plan.passed_through == (0,) and len(targets) == 1:
                return s_out, targets, None
            return None
        if plan.single_op is None:
            return None
        grad_node, gy_indexes, attr_sources, out_indexes = plan.single_op
        if attr_sources or gy_indexes != (0,):
            return None
        kernel = plan.kernel
        if kernel is not None and out_indexes == (0,):
            return s_out, targets, lambda gy: (kernel(gy),)
        forward = grad_node.forward

        def gradients(gy):
            grad_node._input_indexes_to_retain = None
            grad_node._output_indexes_to_retain = None
            outputs = forward((gy,))
            return [None if j is None else outputs[j] for j in out_indexes]
        return s_out, targets, gradients

    def _keep_retained(self, inputs, outputs):
        """Keeps what forward retained, where backward looks for it."""
        node = self.node
        retained = node._input_indexes_to_retain
        if retained is not None:
            input_nodes = node.inputs
            for index in retained:
                input_nodes[index].data = inputs[index]
        retained = node._output_indexes_to_retain
        if retained is not None:
            out_nodes = self.out_nodes
            data = []
            for index in retained:
                y = outputs[index]
                out_node = out_nodes[index]
                if out_node is not None:
                    out_node.data = y
                data.append(y)
            node._retained_output_data = tuple(data)

    def backward_on_variables(self, gys):
        """Runs the node's backward on variables; returns gradient arrays."""
        gy_vars = _grad_variables(gys)
        gxs = _backprop.normalize_grad_inputs(
            self.node, self.targets, self.node.backward(self.targets, gy_vars))
        return [None if gx is None else gx.array for gx in gxs]

    def record_backward(self, gys, params):
        """Runs the backward on variables and records its plan.

        The plan is kept only if running it gives the same gradients.
        """
        node = self.node
        gy_vars = _grad_variables(gys)
        recorder = backward_plan.GradientRecorder()
        with configuration.using_config('enable_backprop', True), recorder:
            gxs = _backprop.normalize_grad_inputs(
                node, self.targets, node.backward(self.targets, gy_vars))
        gx_arrays = [None if gx is None else gx.array for gx in gxs]
        if not isinstance(node, StaticScheduleFunction):
            plan = backward_plan.build(node, gy_vars, gxs, recorder.calls,
                                       params)
            if plan is not None and backward_plan.same_arrays(
                    plan.run(node, gys), gx_arrays):
                self.plan = plan
        return gx_arrays


def _grad_variables(grads):
    make_variable = variable.Variable._init_unchecked
    return tuple([
        None if g is None else make_variable(g, requires_grad=False)
        for g in grads])


class _CodeStep:
    """A recorded call of a :func:`static_code` function."""

    __slots__ = ('func', 'args', 'kwargs', 'input_slots', 'out_slots',
                 'func_name')

    def __init__(self, func, args, kwargs, input_slots, out_slots,
                 func_name):
        self.func = func
        self.args = args
        self.kwargs = kwargs
        self.input_slots = input_slots
        self.out_slots = out_slots
        self.func_name = func_name

    def __call__(self, table):
        kwargs = self.kwargs
        if self.input_slots:
            inputs = list(kwargs['inputs'])
            for index, s in self.input_slots:
                inputs[index] = table[s]
            kwargs = dict(kwargs, inputs=inputs)
        ret = self.func(*self.args, **kwargs)
        if self.out_slots:
            for s, y in zip(self.out_slots, _returned_arrays(ret)):
                table[s] = y

    def compiled(self):
        return self


def _returned_arrays(ret):
    if _is_array(ret):
        return (ret,)
    if isinstance(ret, (list, tuple)):
        return tuple(ret)
    return ()


class StaticScheduleFunction(function_node.FunctionNode):
    """The function node that runs the static schedule of a chain.

    One instance holds the schedule of one input signature. It is recorded
    while the chain's define-by-run code runs for the first time, then
    applied, in place of that code, to the chain's flattened input
    variables on every call.

    Args:
        schedule_manager (ScheduleManager): The manager holding this
            schedule.
        verbosity_level (int): 0 prints nothing, 1 reports when a schedule
            is recorded, 2 also reports every call.
        enable_double_backprop (bool): Kept for the record; a chain with
            double backprop enabled runs define-by-run.
    """

    def __init__(self, schedule_manager, verbosity_level=0,
                 enable_double_backprop=False):
        self.schedule_manager = schedule_manager
        self.verbosity_level = verbosity_level
        self.enable_double_backprop = enable_double_backprop
        self.schedule_built = False
        self.chain = None
        self.out_vars = None
        self._reset_recording()

    def _reset_recording(self):
        self.schedule_built = False
        self._recorded = []
        self._array_sources = {}
        self._keep_alive = []
        self._params = []
        self._steps = ()
        self._node_steps = ()
        self._template = []
        self._n_inputs = 0
        self._param_slots = ()
        self._input_slots = ()
        self._out_slots = ()
        self._first_outputs = None
        self._out_structure = None
        self._backward_recorded = False
        # The steps as functions of the table (see _NodeStep.compiled),
        # and the backward program: per node step, ``(output slot, target
        # slots, gradient function, None)`` from its compiled_backward, or
        # ``(None, None, None, step)``. Made on the first replay of each.
        self._calls = None
        self._backward_program = None

    @property
    def params(self):
        """tuple of Variable: The parameters the schedule reads.

        With them come the other variables without a creator that the
        chain reads and that outlive the call. They are inputs of the
        schedule's node after the chain's own inputs, so that each call
        reads their current arrays and the backward pass accumulates their
        gradients as for any function.
        """
        return self._params

    def is_empty(self):
        """Returns ``True`` while the schedule has not been recorded."""
        return not self.schedule_built

    # Recording.

    def _start_recording(self, chain, in_vars):
        self.chain = chain
        self._n_inputs = len(in_vars)
        for k, x in enumerate(in_vars):
            self._note_array(x.array, (_INPUT, k))

    def _note_array(self, array, source):
        if array is not None:
            self._array_sources.setdefault(id(array), source)
            self._keep_alive.append(array)

    def _record_node(self, node, in_data):
        state = {name: value for name, value in vars(node).items()
                 if name not in backward_plan.NODE_ATTRIBUTES}
        index = len(self._recorded)
        self._recorded.append(('node', node, in_data, state))
        forward = node.forward

        def forward_noting_outputs(inputs):
            outputs = forward(inputs)
            for j, y in enumerate(outputs):
                self._note_array(y, (_COMPUTED, index, j))
            return outputs

        # Only for this application: the hook's postprocess removes it.
        node.forward = forward_noting_outputs

    def append_function(self, func, args, kwargs, func_name=None):
        """Runs a :func:`static_code` function and adds it to the schedule.

        Args:
            func (callable): The function.
            args (tuple): Its positional arguments.
            kwargs (dict): Its keyword arguments; the arrays of the list
                ``inputs`` are refreshed on every replay.
            func_name (str): A name for the schedule's description.

        Returns:
            What ``func`` returns.
        """
        if self.verbosity_level >= 2:
            print('Adding static code to the schedule: {}'.format(
                func_name or getattr(func, '__name__', func)))
        for param in self.chain.params():
            self._note_array(param.array, (_PARAM, param))
        input_sources = []
        for index, x in enumerate(kwargs.get('inputs', ())):
            source = self._array_sources.get(id(x)) if _is_array(x) else None
            if source is not None:
                input_sources.append((index, source))
        ret = func(*args, **kwargs)
        step_index = len(self._recorded)
        returned = _returned_arrays(ret)
        for j, y in enumerate(returned):
            if _is_array(y):
                self._array_sources[id(y)] = (_COMPUTED, step_index, j)
                self._keep_alive.append(y)
        self._recorded.append(
            ('code', func, args, kwargs, input_sources, len(returned),
             func_name))
        return ret

    def set_out_variables(self, out_vars):
        """Sets the chain's (flattened) output variables of the recording.

        Args:
            out_vars (list of ~chainer.Variable): The outputs.
        """
        self.out_vars = list(out_vars)

    def build_schedule(self, chain, in_vars):
        """Turns the recording into the schedule that later calls replay.

        Args:
            chain (~chainer.Chain): The static chain.
            in_vars (list of ~chainer.Variable): The input variables the
                recording started from.

        Raises:
            RuntimeError: If an output of the chain or an input of a
                recorded function cannot be computed by the schedule.
        """
        sources_by_node = {}
        for k, x in enumerate(in_vars):
            sources_by_node[id(x.node)] = (_INPUT, k)
        for index, step in enumerate(self._recorded):
            if step[0] == 'node':
                for j, ref in enumerate(step[1].outputs or ()):
                    out_node = ref()
                    if out_node is not None:
                        sources_by_node[id(out_node)] = (_COMPUTED, index, j)

        template = [None] * len(in_vars)
        slot_of = {}
        differentiable = set([
            k for k, x in enumerate(in_vars) if x.requires_grad])

        def slot(source, array=None):
            key = source if source[0] != _PARAM else (_PARAM, id(source[1]))
            if source[0] == _CONST:
                key = (_CONST, id(array))
            s = slot_of.get(key)
            if s is None:
                if source[0] == _INPUT:
                    s = source[1]
                else:
                    s = len(template)
                    template.append(array if source[0] == _CONST else None)
                    if source[0] == _PARAM:
                        self._params.append(source[1])
                        if source[1].requires_grad:
                            differentiable.add(s)
                slot_of[key] = s
            return s

        for k in range(len(in_vars)):
            slot((_INPUT, k))

        steps = []
        node_steps = []
        # Outputs that static code reads need a slot even if no variable
        # holds them any more.
        read_by_code = set([
            source for step in self._recorded if step[0] == 'code'
            for _, source in step[4]])
        graph_nodes = []
        for index, step in enumerate(self._recorded):
            if step[0] == 'code':
                (_, func, args, kwargs, input_sources, n_returned,
                 func_name) = step
                input_slots = tuple(
                    (i, slot(source)) for i, source in input_sources)
                out_slots = tuple(
                    slot((_COMPUTED, index, j)) for j in range(n_returned))
                steps.append(_CodeStep(func, args, kwargs, input_slots,
                                       out_slots, func_name))
                continue
            _, node, in_data, state_before = step
            in_slots = []
            targets = []
            for i, in_node in enumerate(node.inputs):
                source, connected = self._input_source(
                    node, i, in_node, in_data[i], sources_by_node)
                s = slot(source, in_data[i])
                in_slots.append(s)
                if connected and s in differentiable:
                    targets.append(i)
                graph_nodes.append(in_node)
            targets = tuple(targets)
            out_slots = []
            out_nodes = []
            for j, ref in enumerate(node.outputs):
                out_node = ref()
                out_nodes.append(out_node)
                if out_node is None and (
                        _COMPUTED, index, j) not in read_by_code:
                    out_slots.append(-1)
                    continue
                if out_node is not None:
                    graph_nodes.append(out_node)
                s = slot((_COMPUTED, index, j))
                out_slots.append(s)
                if targets:
                    differentiable.add(s)
            node_step = _NodeStep(node, tuple(in_slots), tuple(out_slots),
                                  tuple(out_nodes), targets, state_before,
                                  in_data)
            steps.append(node_step)
            node_steps.append(node_step)

        out_slots = []
        first_outputs = []
        for y in self.out_vars:
            source = None
            if isinstance(y, variable.Variable):
                source = sources_by_node.get(id(y.node))
            if source is None or source[0] != _COMPUTED:
                raise RuntimeError(
                    'An output of the static chain {} is not computed by a '
                    'function of the chain (got {!r}): a static schedule '
                    'can only return variables that functions called in '
                    'the chain created'.format(type(chain).__name__, y))
            out_slots.append(slot(source))
            first_outputs.append(y.array)

        # The recorded graph is only read by the replay: its variable
        # nodes give the retained arrays to ``backward`` and must not hand
        # out the recording's variables.
        read_variables = set([id(var) for var in self._params])
        for graph_node in graph_nodes:
            if id(graph_node.get_variable_or_none()) not in read_variables:
                graph_node._variable = _dead_ref()

        self._steps = tuple(steps)
        # Only nodes with an input to differentiate and an output that can
        # get a gradient take part in the backward pass.
        self._node_steps = tuple(reversed([
            s for s in node_steps
            if s.targets and any(slot >= 0 for slot in s.out_slots)]))
        self._template = template
        self._param_slots = tuple(
            [slot_of[(_PARAM, id(param))] for param in self._params])
        self._input_slots = tuple(range(len(in_vars))) + self._param_slots
        self._params = tuple(self._params)
        self._out_slots = tuple(out_slots)
        self._first_outputs = tuple(first_outputs)
        self._recorded = []
        self._array_sources = {}
        self._keep_alive = []
        self.out_vars = None
        self.schedule_built = True
        _print_schedule_built()
        if self.verbosity_level >= 1:
            print('Recorded a static schedule of {} steps for {}'.format(
                len(self._steps), type(chain).__name__))

    def _input_source(self, node, i, in_node, array, sources_by_node):
        """Finds where input ``i`` of ``node`` comes from.

        Returns:
            tuple: The source, and whether the gradient flows back along
            it: an array that only shares its data with an input, a
            parameter or an earlier output (a new variable made of its
            array) gets the new data on a replay but, as in define-by-run,
            no gradient.
        """
        source = sources_by_node.get(id(in_node))
        if source is not None:
            return source, True
        var = in_node.get_variable_or_none()
        if var is not None and in_node.creator_node is None:
            # A parameter, or another variable that outlives the call: its
            # array is read on every call, and it gets its gradient.
            return (_PARAM, var), True
        if in_node.creator_node is not None:
            raise RuntimeError(
                'Input {} of {} in the static chain {} was computed outside '
                'the chain and is not one of its arguments: a static '
                'schedule would replay it as a constant. Pass it to the '
                'chain as an argument.'.format(
                    i, node.label, type(self.chain).__name__))
        source = self._array_sources.get(id(array))
        if source is not None:
            return source, False
        return (_CONST,), False

    # Replay.

    def forward(self, inputs):
        if not self.schedule_built:
            raise RuntimeError(
                'the static schedule is run before it was recorded')
        if self._first_outputs is not None:
            outputs = self._first_outputs
            self._first_outputs = None
            return outputs
        if self.verbosity_level >= 2:
            print('Replaying the static schedule of {}'.format(
                type(self.chain).__name__))
        table = list(self._template)
        n_inputs = self._n_inputs
        table[:n_inputs] = inputs[:n_inputs]
        for s, array in zip(self._param_slots, inputs[n_inputs:]):
            table[s] = array
        calls = self._calls
        if calls is None:
            calls = self._calls = tuple([
                step.compiled() for step in self._steps])
        if inputs and isinstance(inputs[0], cuda.ndarray):
            with backend.using_device(backend.get_device_from_array(
                    *inputs)):
                for call in calls:
                    call(table)
        else:
            for call in calls:
                call(table)
        return tuple([table[s] for s in self._out_slots])

    def backward(self, target_input_indexes, grad_outputs):
        self.schedule_manager.end_forward()
        recording = not self._backward_recorded
        if recording:
            print('Creating new backward schedule...')
        if configuration.config.enable_backprop:
            with configuration.using_config('enable_backprop', False):
                gxs = self._replay_backward(
                    target_input_indexes, grad_outputs)
        else:
            gxs = self._replay_backward(target_input_indexes, grad_outputs)
        if recording:
            _print_schedule_built()
        return gxs

    def _replay_backward(self, target_input_indexes, grad_outputs):
        grads = [None] * len(self._template)
        for s, gy in zip(self._out_slots, grad_outputs):
            if gy is not None:
                _accumulate(grads, s, gy.array)
        program = self._backward_program
        if program is None:
            if self._backward_recorded:
                program = self._backward_program = tuple([
                    _backward_entry(step) for step in self._node_steps])
            else:
                program = [(None, None, None, step)
                           for step in self._node_steps]
        recording = not self._backward_recorded
        params = self._params
        for s, targets, gradients, step in program:
            if step is None:
                g = grads[s]
                if g is None:
                    continue
                grads[s] = None
                if gradients is None:
                    t = targets[0]
                    h = grads[t]
                    grads[t] = g if h is None else h + g
                    continue
                for t, gx in zip(targets, gradients(g)):
                    if gx is not None:
                        h = grads[t]
                        grads[t] = gx if h is None else h + gx
                continue
            out_slots = step.out_slots
            single = len(out_slots) == 1
            if single:
                s = out_slots[0]
                g = grads[s]
                if g is None:
                    continue
                grads[s] = None
                gys = [g]
            else:
                gys = []
                for s in out_slots:
                    g = None
                    if s >= 0:
                        g = grads[s]
                        grads[s] = None
                    gys.append(g)
                if all([g is None for g in gys]):
                    continue
            plan = step.plan
            if recording:
                gxs = step.record_backward(gys, params)
            elif plan is not None and (single or plan.matches(gys)):
                gxs = plan.run(step.node, gys)
            else:
                gxs = step.backward_on_variables(gys)
            for s, gx in zip(step.target_slots, gxs):
                if gx is not None:
                    g = grads[s]
                    grads[s] = gx if g is None else g + gx
        self._backward_recorded = True
        slots = self._input_slots
        return _grad_variables([grads[slots[i]] for i in target_input_indexes])

    def __repr__(self):
        lines = ['StaticScheduleFunction: {} steps'.format(len(self._steps))]
        for step in self._steps:
            if isinstance(step, _NodeStep):
                lines.append('  function: {}'.format(step.node.label))
            else:
                lines.append('  static code: {}'.format(
                    step.func_name or getattr(step.func, '__name__', '?')))
        return '\n'.join(lines)


def _backward_entry(step):
    compiled = step.compiled_backward()
    if compiled is None:
        return None, None, None, step
    return compiled + (None,)


def _accumulate(grads, s, g):
    if grads[s] is None:
        grads[s] = g
    else:
        grads[s] = grads[s] + g


class ScheduleManager:
    """The static schedules of one static chain.

    A schedule is kept per input signature. In training with backprop
    enabled, each call of the chain within an iteration gets its own
    schedule (the recorded nodes hold the state their backward needs), and
    the schedules become free again when the backward of the chain runs or
    :meth:`end_forward` is called. Otherwise (test mode or backprop
    disabled) calls of the same signature share one schedule.

    Args:
        minimize_cache_size (bool): If ``True``, the schedules are dropped
            whenever ``chainer.config.train`` changes.
        verbosity_level (int): As in :func:`static_graph`.
    """

    def __init__(self, minimize_cache_size=True, verbosity_level=0):
        self.schedules = {}
        self.minimize_cache_size = minimize_cache_size
        self.in_use_count = {}
        self.forward_over = False
        self.prev_train_config = None
        self.max_in_use_train = 0
        self.train_count = 0
        self.verbosity_level = verbosity_level

    def get_schedule(self, in_vars, enable_double_backprop=False):
        """Returns the schedule for the inputs and the configuration.

        The returned schedule is empty (:meth:`StaticScheduleFunction.
        is_empty`) when it has not been recorded yet.

        Args:
            in_vars (tuple of ~chainer.Variable): The flattened inputs.
            enable_double_backprop (bool): Passed to a new schedule.

        Returns:
            StaticScheduleFunction: The schedule.
        """
        config = configuration.config
        self.forward_over = False
        train = bool(config.train)
        if self.minimize_cache_size and train != self.prev_train_config:
            self.prev_train_config = train
            self.schedules.clear()
            self.in_use_count.clear()
        shared = not (train and config.enable_backprop)
        key = (train, shared, tuple([
            (type(x.array), x.shape, x.dtype, x.requires_grad)
            for x in in_vars]))
        schedules = self.schedules.get(key)
        if schedules is None:
            schedules = self.schedules[key] = []
            self.in_use_count[key] = 0
        if shared:
            index = 0
        else:
            self.train_count += 1
            index = self.in_use_count[key]
            self.in_use_count[key] = index + 1
        if index == len(schedules):
            schedules.append(StaticScheduleFunction(
                self, verbosity_level=self.verbosity_level,
                enable_double_backprop=enable_double_backprop))
        return schedules[index]

    def end_forward(self):
        """Makes the schedules of this iteration available to the next one.

        The backward of the chain calls it; call it yourself after a
        training-mode forward pass that is not followed by a backward pass.
        """
        if self.forward_over:
            return
        for key in self.in_use_count:
            self.in_use_count[key] = 0
        self.forward_over = True
        if self.train_count > self.max_in_use_train:
            self.max_in_use_train = self.train_count
            if self.verbosity_level >= 2:
                print('Maximum in-use schedules per training iteration: '
                      '{}'.format(self.max_in_use_train))
        self.train_count = 0

    def __repr__(self):
        lines = ['ScheduleManager:']
        for key, schedules in self.schedules.items():
            lines.append('  {}: {} schedule(s)'.format(key, len(schedules)))
        return '\n'.join(lines)


_OPTIONS = ('force_test_define_by_run', 'minimize_cache_size',
            'verbosity_level', 'enable_double_backprop')


def static_graph(*args, **kwargs):
    """Marks the ``forward`` of a chain as a static graph.

    The chain's define-by-run code runs on the first call for each input
    signature (input shapes, dtypes, array types and whether they require
    gradients, and ``chainer.config.train``); the function nodes it applies
    are recorded as a schedule, which later calls of the same signature
    replay on the new input arrays and the parameters' current arrays,
    without building a graph. Gradients reach the parameters' ``.grad`` as
    in define-by-run.

    Only function nodes and functions decorated with :func:`static_code` are
    replayed: other Python code of ``forward`` (a print, a counter, a
    stateful link's update) runs on the first call only. The decorated code
    must compute the same graph on every call; it may differ between
    training and test mode. A static chain may not be called inside the
    recording of another one.

    The arguments of the chain are variables or arrays, or lists and tuples
    of them (nested at will); keyword arguments are not allowed. It returns
    a variable, or (nested) tuples of variables created by its functions;
    lists come back as tuples.

    During training, the backward pass of a chain called several times in
    an iteration must run (or ``chain.schedule_manager.end_forward()`` be
    called) before the next iteration.

    The decorator is used bare (``@static_graph``) or with options. Setting
    ``chainer.config.use_static_graph`` to ``False`` runs the chain
    define-by-run.

    Args:
        force_test_define_by_run (bool): If ``True``, run define-by-run in
            test mode (``chainer.config.train`` is ``False``). Default
            ``False``.
        minimize_cache_size (bool): If ``True``, drop the recorded schedules
            whenever the training mode changes. Default ``False``.
        verbosity_level (int): 0 prints nothing, 1 reports each recording,
            2 also reports every call. Default 0.
        enable_double_backprop (bool): If ``True``, the chain runs
            define-by-run so that its gradients can be differentiated.
            Default ``False``.

    Returns:
        The wrapped method.

    .. admonition:: Example

        >>> class MLP(chainer.Chain):
        ...     def __init__(self):
        ...         super(MLP, self).__init__()
        ...         with self.init_scope():
        ...             self.l1 = chainer.links.Linear(3, 4)
        ...     @chainer.static_graph
        ...     def forward(self, x):
        ...         return chainer.functions.relu(self.l1(x))
        >>> model = MLP()
        >>> x = numpy.ones((2, 3), numpy.float32)
        >>> model(x).shape
        end of build_schedule()
        (2, 4)
    """
    if len(args) == 1 and not kwargs and callable(args[0]):
        return _wrap_static_graph(args[0], {})
    if args:
        raise TypeError('static_graph takes only keyword arguments')
    unknown = set(kwargs) - set(_OPTIONS)
    if unknown:
        raise TypeError('unexpected arguments of static_graph: {}'.format(
            ', '.join(sorted(unknown))))
    return lambda func: _wrap_static_graph(func, kwargs)


def _wrap_static_graph(func, options):
    force_test_define_by_run = options.get('force_test_define_by_run', False)
    minimize_cache_size = options.get('minimize_cache_size', False)
    verbosity_level = options.get('verbosity_level', 0)
    enable_double_backprop = options.get('enable_double_backprop', False)

    def wrapped_func(chain, *chain_args, **chain_kwargs):
        config = configuration.config
        if (not config.use_static_graph or enable_double_backprop
                or (force_test_define_by_run and not config.train)):
            return func(chain, *chain_args, **chain_kwargs)
        if chain_kwargs:
            raise TypeError(
                'a static chain takes no keyword arguments (got {})'.format(
                    ', '.join(sorted(chain_kwargs))))
        if verbosity_level >= 2:
            print('Calling static chain {}'.format(type(chain).__name__))
        flat_args, structure = _flatten_args(chain_args)
        flat_vars = tuple([_as_input_variable(x) for x in flat_args])
        manager = chain.__dict__.get('schedule_manager')
        if manager is None:
            manager = ScheduleManager(
                minimize_cache_size=minimize_cache_size,
                verbosity_level=verbosity_level)
            chain.schedule_manager = manager
        schedule = manager.get_schedule(
            flat_vars, enable_double_backprop=enable_double_backprop)
        chain.static_schedule = schedule
        if schedule.is_empty():
            _record(func, chain, schedule, flat_vars, structure)
        outputs = schedule.apply(flat_vars + schedule.params)
        return _unflatten_args(outputs, schedule._out_structure)

    wrapped_func.__name__ = getattr(func, '__name__', 'forward')
    wrapped_func.__doc__ = func.__doc__
    wrapped_func.__wrapped__ = func
    return wrapped_func


def _as_input_variable(x):
    if isinstance(x, variable.Variable):
        return x
    if _is_array(x):
        # As for any function, an array is an input without a gradient.
        return variable.Variable(x, requires_grad=False)
    raise TypeError(
        'the arguments of a static chain must be variables, arrays, or '
        'lists and tuples of them; got {}'.format(type(x).__name__))


def _record(func, chain, schedule, flat_vars, structure):
    if configuration.config.schedule_func is not None:
        raise RuntimeError(
            'Not allowed to nest static chains: {} is called while the '
            'static schedule of another chain is being recorded'.format(
                type(chain).__name__))
    in_vars = [variable.Variable(x.array, requires_grad=x.requires_grad)
               for x in flat_vars]
    inner_args = _unflatten_args(in_vars, structure, as_list=True)
    schedule._start_recording(chain, in_vars)
    try:
        with configuration.using_config('schedule_func', schedule), \
                configuration.using_config('enable_backprop', True), \
                _Recorder(schedule):
            out = func(chain, *inner_args)
        flat_out, out_structure = _flatten_args(out)
        schedule.set_out_variables(flat_out)
        schedule.build_schedule(chain, in_vars)
    except BaseException:
        schedule._reset_recording()
        raise
    schedule._out_structure = out_structure


def _flatten_args(xs):
    """Flattens nested lists and tuples.

    Returns:
        tuple: The flat tuple of the leaves and the structure that
        :func:`_unflatten_args` needs to rebuild ``xs``; a lone leaf has the
        structure ``None``.
    """
    if not isinstance(xs, (list, tuple)):
        return (xs,), None
    flat = []
    structure = []
    for x in xs:
        if isinstance(x, (list, tuple)):
            sub_flat, sub_structure = _flatten_args(x)
            structure.append((len(sub_flat), sub_structure))
            flat.extend(sub_flat)
        else:
            structure.append(None)
            flat.append(x)
    return tuple(flat), structure


def _unflatten_args(flat, structure, as_list=False):
    """Rebuilds what :func:`_flatten_args` flattened, with tuples.

    Args:
        flat (sequence): The leaves.
        structure: The structure given by :func:`_flatten_args`.
        as_list (bool): If ``True``, the outermost level is a list.
    """
    if structure is None:
        return flat[0]
    ys = []
    i = 0
    for item in structure:
        if item is None:
            ys.append(flat[i])
            i += 1
        else:
            n, sub_structure = item
            ys.append(_unflatten_args(flat[i:i + n], sub_structure))
            i += n
    return ys if as_list else tuple(ys)
