"""FunctionNode: the differentiable operation of the computational graph."""

import collections
import traceback
import weakref

import numpy

import chainer
from chainer import _backprop
from chainer import _core_fields
from chainer import backend
from chainer.backends import cuda
from chainer import configuration
from chainer import function_hook
from chainer.utils import type_check
from chainer import variable


_Variable = variable.Variable
_ARRAY_TYPES = variable._ARRAY_TYPES
_init_variable = variable._init_variable
_new_object = object.__new__
_config_local, _global_settings = configuration._entry_tables()
_hooks_local = function_hook._thread_local
_layouts_in_use = variable._layouts_in_use


_FIELD_DEFAULTS = dict(_core_fields.FUNCTION_NODE_FIELDS)


class FunctionNode(_core_fields.FunctionNodeFields):
    """A differentiable function of arrays, a node of the graph.

    A subclass implements :meth:`forward` (on arrays) and :meth:`backward`
    (on variables, so that gradients are differentiable again). Calling
    :meth:`apply` runs the forward computation and, whenever backprop is
    enabled, links the node into the graph, also when no input requires a
    gradient (its outputs then do not require one either).

    A node is applied once: make a new instance for each call.

    Attributes:
        inputs (tuple of VariableNode): The input nodes, set by
            :meth:`apply` when the node joins the graph.
        outputs (tuple of weakref): Weak references to the output nodes.
        rank (int): The highest rank of the inputs: backward visits nodes
            from the highest rank down.
        stack (list): The stack where the node was applied, kept in debug
            mode only.
        lazy_grad_sum (bool): Whether gradients of an input used several
            times are summed at once at the end (from
            ``chainer.config.lazy_grad_sum``).
        is_elementwise (bool): Whether the function works element by
            element (a class attribute; ``False`` unless a subclass says
            so).

    Example:
        >>> class Square(chainer.FunctionNode):
        ...     def forward(self, inputs):
        ...         x, = inputs
        ...         self.retain_inputs((0,))
        ...         return x * x,
        ...     def backward(self, target_input_indexes, grad_outputs):
        ...         x, = self.get_retained_inputs()
        ...         gy, = grad_outputs
        ...         return 2 * x * gy,
        >>> x = chainer.Variable(numpy.array([1, 2, 3], numpy.float32))
        >>> y, = Square().apply((x,))
        >>> y.array
        array([1., 4., 9.], dtype=float32)

    .. rubric:: Adding gradients into their sums in place

    The gradient of a variable used many times (a recurrent network's
    weight, a sequence sliced step by step) is the sum of the gradients
    of its uses. A node may compute its share straight into that sum
    instead of returning a new array to be added, by defining
    ``_add_grad_into(index, grad_outputs, total)``; both the Python and
    the compiled traversal call it, on a backward without double backprop,
    debug mode, function hooks or ``lazy_grad_sum``, before
    :meth:`backward`:

    * with ``total=None`` when input ``index`` has no gradient yet: it
      returns that gradient as a new array, which nothing else may hold,
      or ``False`` to leave it to :meth:`backward`;
    * with ``total`` the array of the input's gradient when that is a sum
      the traversal made and alone holds: it adds its gradient into
      ``total`` in place and returns ``True``, or returns an
      :class:`Addend` that the traversal adds when the sum is first read
      (so that the addends of several steps become one computation), or
      returns ``False`` to leave it to :meth:`backward`.

    :meth:`backward` is then called for the remaining inputs only. The
    gradient given to the user is always the same as without the
    protocol, up to the rounding of a different order of additions.
    Where the traversal is observed (a function hook, global or of the
    node, or debug mode), every node runs :meth:`backward` and the
    gradients of an input used several times are summed by
    :func:`chainer.functions.add`, as in Chainer, so that the hooks see
    the same function applications. A subclass that overrides
    :meth:`backward` but not ``_add_grad_into`` runs its
    :meth:`backward` always.
    """

    # The fields (inputs, outputs, rank, stack, lazy_grad_sum, the retained
    # arrays, the node's own hooks, the memory layouts of its inputs and
    # outputs where one is not the standard one) are those of the base
    # (chainer._core_fields).
    is_elementwise = False
    # The optional in-place gradient protocol (see the class docstring).
    _add_grad_into = None
    #: The ChainerX device of a node run on ChainerX arrays: always ``None``
    #: (ChainerX is not available).
    chainerx_device = None

    def __init_subclass__(cls, **kwargs):
        """Refuses a subclass that defines a field of the node again, and
        drops the in-place gradient protocol a subclass cannot keep.

        ``_add_grad_into`` is a shortcut of one ``backward``: a class whose
        ``backward`` comes from below the class that gives its
        ``_add_grad_into`` (a subclass overriding ``backward`` alone)
        computes its gradients with that ``backward`` only. This is the
        one place where the traversals learn whether a node's
        ``backward`` may be bypassed; when it is observed is decided by
        the traversal (see :mod:`chainer._backprop`).
        """
        super().__init_subclass__(**kwargs)
        _core_fields.refuse_redefined(cls, _FIELD_DEFAULTS)
        if cls._add_grad_into is not None and not issubclass(
                _defining_class(cls, '_add_grad_into'),
                _defining_class(cls, 'backward')):
            cls._add_grad_into = None

    @property
    def local_function_hooks(self):
        """Ordered dictionary of the hooks registered on this node only."""
        hooks = self._local_function_hooks
        if hooks is None:
            hooks = collections.OrderedDict()
            self._local_function_hooks = hooks
        return hooks

    @property
    def label(self):
        """A short name of the function; its class name by default."""
        return self.__class__.__name__

    @property
    def _impl_name(self):
        return self.__class__.__name__

    @property
    def output_data(self):
        """Tuple of the retained output arrays (``None`` where not kept)."""
        if self._retained_output_data is None:
            raise RuntimeError('retained output data is gone')
        out_data = [None] * len(self.outputs)
        for index, data in zip(self._output_indexes_to_retain,
                               self._retained_output_data):
            out_data[index] = data
        return tuple(out_data)

    @property
    def input_layouts(self):
        """tuple: The memory layouts of the inputs, set by :meth:`apply`.

        ``None`` stands for the standard layout. Where an input has a
        non-standard one, the layouts are known from the start of
        :meth:`apply` (:meth:`check_layout_forward` and :meth:`forward`
        may read them); otherwise, once the node is in the graph.

        Raises:
            AssertionError: if they are not known yet.
        """
        layouts = self._input_layouts
        if layouts is None:
            layouts = _standard_layouts(self.inputs, 'input_layouts')
        return layouts

    @property
    def output_layouts(self):
        """tuple: The memory layouts of the outputs.

        :meth:`forward` may set it (a tuple, one layout per output) to give
        its outputs non-standard layouts; by default the outputs of an
        element-wise function (:attr:`is_elementwise`) take the layout of
        the first input and the others the standard one (``None``).

        Raises:
            AssertionError: if read before it is known, or set to something
                other than a tuple.
        """
        layouts = self._output_layouts
        if layouts is None:
            layouts = _standard_layouts(self.outputs, 'output_layouts')
        return layouts

    @output_layouts.setter
    def output_layouts(self, layouts):
        if not isinstance(layouts, tuple):
            raise AssertionError(
                'output_layouts must be a tuple, not {}'.format(
                    type(layouts)))
        if not _layouts_in_use and any(
                [layout is not None for layout in layouts]):
            _layouts_in_use.append(True)
        self._output_layouts = layouts

    def __call__(self, *args, **kwargs):
        """Raises RuntimeError: a node is run by :meth:`apply`, not called.
        """
        name = type(self).__name__
        if type(self).__module__.startswith('chainer.'):
            raise RuntimeError(
                "Chainer's built-in function class object ({}) which is "
                'derived from chainer.FunctionNode has been called as if it '
                'were a callable. Use FunctionNode.apply() method instead.\n'
                "Furthermore, it's not recommended that you use built-in "
                'function classes directly; use corresponding function '
                'aliases (those with snake_case name, such as '
                'F.convolution_nd) instead.'.format(name))
        raise RuntimeError(
            'A function class object ({}) which is derived from '
            'chainer.FunctionNode has been called as if it were a callable. '
            'Use apply() method instead.'.format(name))

    def apply(self, inputs):
        """Computes the outputs and links the node into the graph.

        Args:
            inputs: Input variables or arrays. Arrays are treated as
                constants (variables with ``requires_grad=False``).

        Returns:
            tuple of Variable: The outputs.
        """
        # One loop, not three comprehensions: this runs for every op.
        input_vars = []
        in_data = []
        requires_grad = False
        for x in inputs:
            if not isinstance(x, _Variable):
                x = variable.as_variable(x)
            input_vars.append(x)
            in_data.append(x._data)
            if x._requires_grad:
                requires_grad = True
        in_data = tuple(in_data)
        local = _config_local.__dict__
        settings = _global_settings
        layouts = _nonstandard_layouts(input_vars) if _layouts_in_use \
            else None
        if layouts is not None:
            self._input_layouts = layouts

        if local.get('type_check', settings['type_check']):
            self._check_data_type_forward(in_data)
        if layouts is not None:
            self.check_layout_forward(input_vars)

        # The thread's hooks without the call of get_function_hooks (None
        # until the thread registers one).
        hooks = _hooks_local.__dict__.get('function_hooks')
        if self._n_local_function_hooks:
            hooks = collections.OrderedDict(hooks or ())
            hooks.update(self._local_function_hooks)
        if hooks:
            hooks = hooks.values()
            for hook in hooks:
                hook.forward_preprocess(self, in_data)

        if self._input_indexes_to_retain is not None:
            self._input_indexes_to_retain = None
        if self._output_indexes_to_retain is not None:
            self._output_indexes_to_retain = None
        if in_data and not isinstance(in_data[0], numpy.ndarray) \
                and isinstance(in_data[0], cuda.ndarray):
            with backend.using_device(backend.get_device_from_array(
                    *in_data)):
                outputs = self.forward(in_data)
        else:
            outputs = self.forward(in_data)
        _check_forward_outputs(self, outputs)

        if hooks:
            for hook in hooks:
                hook.forward_postprocess(self, in_data)

        if local.get('debug', settings['debug']):
            if any([y is not None and backend._contains_nan(y)
                    for y in outputs]):
                raise RuntimeError(
                    'NaN is detected on forward computation of {}'.format(
                        self.label))
            self.stack = traceback.extract_stack()

        init = _init_variable
        if len(outputs) == 1:
            ret = init(_new_object(_Variable), outputs[0], None,
                       requires_grad),
        else:
            ret = tuple([
                init(_new_object(_Variable), y, None, requires_grad)
                for y in outputs])
        if _layouts_in_use:
            _give_output_layouts(self, ret)

        if local.get('enable_backprop', settings['enable_backprop']):
            self._link(input_vars, ret, outputs, local)
        return ret

    def _link(self, input_vars, output_vars, outputs, local):
        input_nodes = []
        rank = 0
        for x in input_vars:
            node = x._node
            input_nodes.append(node)
            if node._rank > rank:
                rank = node._rank
        input_nodes = tuple(input_nodes)
        self.rank = rank
        self.inputs = input_nodes
        out_rank = rank + 1
        output_refs = []
        for y in output_vars:
            node = y._node
            node._creator_node = self
            node._rank = out_rank
            output_refs.append(weakref.ref(node))
        self.outputs = tuple(output_refs)

        retained = self._input_indexes_to_retain
        if retained is not None:
            for index in retained:
                input_nodes[index]._data = input_vars[index]._data
        retained = self._output_indexes_to_retain
        if retained is not None:
            data = []
            for index in retained:
                output_vars[index]._node._data = outputs[index]
                data.append(outputs[index])
            self._retained_output_data = tuple(data)
        self.lazy_grad_sum = local.get(
            'lazy_grad_sum', _global_settings['lazy_grad_sum'])

    def _check_data_type_forward(self, in_data):
        layouts = self._input_layouts
        if layouts is not None:
            # Inputs of a non-standard layout are checked by their
            # semantic shapes.
            in_data = _semantic_arrays(in_data, layouts)
        type_check._enter_light()
        try:
            self.check_type_forward(type_check.LightTypeInfoTuple(in_data))
            return
        except type_check.InvalidType:
            pass
        finally:
            type_check._leave_light()
        self._check_types_fully(in_data)

    def _check_types_fully(self, in_data):
        # The check on type-check expressions, which raises InvalidType with
        # the message; run where the light check failed.
        in_type = type_check.get_types(in_data, 'in_types', False)
        with type_check.get_function_check_context(self):
            self.check_type_forward(in_type)

    def check_type_forward(self, in_types):
        """States the conditions the inputs must satisfy.

        Override it with :func:`chainer.utils.type_check.expect` calls. It
        runs before :meth:`forward` while ``chainer.config.type_check`` is
        on; a violated condition raises
        :class:`~chainer.utils.type_check.InvalidType`.

        Args:
            in_types (~chainer.utils.type_check.TypeInfoTuple): The types
                of the inputs.
        """

    def check_layout_forward(self, inputs):
        """Checks the memory layouts of the inputs before :meth:`forward`.

        :meth:`apply` calls it when an input has a non-standard layout
        (see :mod:`chainer.memory_layouts`). By default an element-wise
        function (:attr:`is_elementwise`) accepts inputs of one layout, and
        any other function only the standard layout. A function that works
        on other layouts overrides it, and sets :attr:`output_layouts` in
        :meth:`forward`.

        Args:
            inputs (tuple of Variable): The input variables.

        Raises:
            RuntimeError: if the layouts are not accepted.
        """
        layouts = [x.layout for x in inputs]
        if self.is_elementwise:
            if all([layout == layouts[0] for layout in layouts]):
                return
            problem = 'mixed memory layouts were given to an elementwise ' \
                'function'
        else:
            if all([layout is None for layout in layouts]):
                return
            problem = 'non-standard layouts were given to a function ' \
                'without explicit `check_layout_forward` implementation'
        raise RuntimeError(
            'Inputs with {}.\nFunction: {}\nInput layouts: {}\n'.format(
                problem, self.label,
                ', '.join([str(layout) for layout in layouts])))

    def forward(self, inputs):
        """Runs the computation on raw arrays.

        By default it calls :meth:`forward_cpu` or :meth:`forward_gpu`
        according to the array type of the first input.

        Args:
            inputs (tuple of arrays): The input arrays.

        Returns:
            tuple of arrays: The outputs.
        """
        assert len(inputs) > 0
        if isinstance(inputs[0], cuda.ndarray):
            return self.forward_gpu(inputs)
        return self.forward_cpu(inputs)

    def forward_cpu(self, inputs):
        """Computes the outputs from NumPy arrays."""
        raise NotImplementedError()

    def forward_gpu(self, inputs):
        """Computes the outputs from CuPy arrays."""
        raise NotImplementedError()

    def forward_chainerx(self, inputs):
        """Computes the outputs from ChainerX arrays.

        ChainerX is not available (:func:`chainerx.is_available` is
        ``False``), so :meth:`apply` never calls it; this default says that
        the node falls back to :meth:`forward`, as a node without a
        ChainerX implementation does.

        Args:
            inputs (tuple of arrays): The input arrays.

        Returns:
            ``chainer.Fallback``.
        """
        return chainer.Fallback

    def retain_inputs(self, indexes):
        """Keeps the given inputs for backward; call it in forward.

        Args:
            indexes (tuple of int): Indexes of the inputs to keep.
        """
        self._input_indexes_to_retain = indexes

    def retain_outputs(self, indexes):
        """Keeps the given outputs for backward; call it in forward.

        Args:
            indexes (tuple of int): Indexes of the outputs to keep.
        """
        self._output_indexes_to_retain = indexes

    def backward(self, target_input_indexes, grad_outputs):
        """Computes the gradients of the inputs, on variables.

        Written with differentiable functions, it makes double backprop
        possible.

        Args:
            target_input_indexes (tuple of int): Indexes of the inputs whose
                gradients are needed, in increasing order.
            grad_outputs (tuple of Variable): Gradients of the outputs;
                ``None`` for an output that got no gradient.

        Returns:
            tuple: Gradient variables (or ``None``) of either all inputs or
            only the targets.
        """
        return (None,) * len(target_input_indexes)

    def backward_accumulate(self, target_input_indexes, grad_outputs,
                            grad_inputs):
        """Computes gradients of the inputs and adds them to given ones.

        Override it to fuse the accumulation into the computation.

        Args:
            target_input_indexes (tuple of int): As in :meth:`backward`.
            grad_outputs (tuple of Variable): As in :meth:`backward`.
            grad_inputs (tuple of Variable): The gradients already computed
                for the target inputs (``None`` where there are none).

        Returns:
            tuple of Variable: The sums, one for each target input.
        """
        gxs = _backprop.normalize_grad_inputs(
            self, target_input_indexes,
            self.backward(target_input_indexes, grad_outputs))
        return tuple([
            gx if g_input is None else g_input if gx is None
            else gx + g_input for gx, g_input in zip(gxs, grad_inputs)])

    def get_retained_inputs(self):
        """Returns the inputs kept by :meth:`retain_inputs` as variables."""
        indexes = self._input_indexes_to_retain
        inputs = self.inputs
        if indexes is None or inputs is None:
            return ()
        # An input given as None stays None.
        return tuple([
            None if inputs[index]._data is None
            else inputs[index].get_variable() for index in indexes])

    def get_retained_outputs(self):
        """Returns the outputs kept by :meth:`retain_outputs` as variables.

        An output whose variable is gone is recreated as a variable of the
        same node's array, created by this node.
        """
        indexes = self._output_indexes_to_retain
        if indexes is None or self.outputs is None:
            return ()
        outputs = self.outputs
        new_outputs = list(outputs)
        changed = False
        ret = []
        for index, data in zip(indexes, self._retained_output_data):
            node = outputs[index]()
            if node is None:
                output_var = _Variable(data)
                output_var.creator_node = self
                new_outputs[index] = weakref.ref(output_var._node)
                changed = True
            else:
                output_var = node.get_variable()
            ret.append(None if output_var._data is None else output_var)
        if changed:
            self.outputs = tuple(new_outputs)
        return tuple(ret)

    def unchain(self):
        """Cuts the node out of the graph, freeing its outputs' links."""
        for ref in self.outputs:
            node = ref()
            if node is not None:
                node.unchain()
        self.inputs = None

    def add_hook(self, hook, name=None):
        """Registers a hook on this node only.

        Args:
            hook (~chainer.FunctionHook): The hook.
            name (str): Its key; ``hook.name`` by default.
        """
        if not isinstance(hook, function_hook.FunctionHook):
            raise TypeError('Hook must be of type FunctionHook')
        if name is None:
            name = hook.name
        hooks = self.local_function_hooks
        if name in hooks:
            raise KeyError('Hook {} already exists'.format(name))
        hooks[name] = hook
        self._n_local_function_hooks = len(hooks)
        hook.added(self)

    def delete_hook(self, name):
        """Unregisters a hook added by :meth:`add_hook`.

        Args:
            name (str): Key of the hook.
        """
        hooks = self.local_function_hooks
        if name not in hooks:
            raise KeyError('Hook {} does not exist'.format(name))
        hooks[name].deleted(self)
        del hooks[name]
        self._n_local_function_hooks = len(hooks)


def _defining_class(cls, name):
    """Returns the class of ``cls.__mro__`` whose own attribute ``name`` is
    the one ``cls`` has."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass
    return object


def _nonstandard_layouts(input_vars):
    """The layouts of the inputs, or ``None`` if all are standard."""
    for x in input_vars:
        if x._layout is not None:
            return tuple([x._layout for x in input_vars])
    return None


def _standard_layouts(nodes, name):
    # The layouts of a node's inputs or outputs, all standard, where only
    # their number is recorded.
    if nodes is None:
        raise AssertionError(
            '{} are not known before the function node is applied'.format(
                name))
    return (None,) * len(nodes)


def _semantic_arrays(arrays, layouts):
    """Views of raw arrays in the semantic (channel-first) axis order."""
    transpose = chainer.memory_layouts._transpose_array
    return tuple([
        x if layout is None or x is None else transpose(x, layout, None)
        for x, layout in zip(arrays, layouts)])


def _give_output_layouts(func, output_vars):
    """Gives the outputs of ``func`` the layouts it decided on.

    An element-wise function passes the layout of its first input on; any
    other gives what its forward set in ``output_layouts`` (standard by
    default).
    """
    input_layouts = func._input_layouts
    if func.is_elementwise and input_layouts is not None:
        layouts = (input_layouts[0],) * len(output_vars)
        func._output_layouts = layouts
    else:
        layouts = func._output_layouts
        if layouts is None:
            return
    for y, layout in zip(output_vars, layouts):
        if layout is not None:
            variable._give_layout(y, layout)


def _check_forward_outputs(func, outputs):
    """Raises TypeError unless ``outputs`` is a tuple of arrays or None."""
    if type(outputs) is not tuple:
        raise TypeError(
            'forward output must be a tuple ({})\nActual: {}'.format(
                func.label, type(outputs)))
    for y in outputs:
        if not isinstance(y, _ARRAY_TYPES) and y is not None:
            raise TypeError(
                'forward output must be a tuple of ndarrays.\n'
                'Function: {}\nActual output types: {}'.format(
                    func.label, tuple([type(y) for y in outputs])))


class Addend:
    """A gradient that a node will add into a sum of the traversal later.

    ``FunctionNode._add_grad_into`` may return one instead of adding at
    once (see :class:`FunctionNode`): the traversal keeps it with the sum
    and adds it when the sum is first read (popped, or handed to
    ``backward_accumulate``). Several addends of the same sum may be
    combined into one computation by :meth:`absorb`; additions in place
    into the same sum may come in between, as they commute with it.
    """

    def absorb(self, other):
        """Takes ``other``, a later addend of the same sum, into this one.

        Returns:
            bool: Whether it did; if not, this addend is added at once and
            ``other`` is kept in its place.
        """
        return False

    def add_to(self, total):
        """Adds the gradient to the array ``total`` in place."""
        raise NotImplementedError


def static_forward_optimizations(func, inputs):
    """Runs the forward computation of a function node inside a schedule.

    While a static schedule is being recorded, every function node applied
    by the chain becomes a step of the schedule; this helper computes the
    node's outputs from its input arrays, as the replay does.

    Args:
        func (~chainer.FunctionNode): The function node.
        inputs (tuple of arrays): Its input arrays.

    Returns:
        tuple of arrays: The outputs of ``func``.
    """
    schedule = configuration.config.schedule_func
    if schedule is not None and schedule.verbosity_level >= 2:
        print('Adding to the static schedule: {}'.format(func.label))
    return func.forward(tuple(inputs))


def grad(outputs, inputs, grad_outputs=None, grad_inputs=None,
         set_grad=False, retain_grad=False, enable_double_backprop=False,
         loss_scale=None):
    """Computes the gradients of outputs with respect to given inputs.

    Unlike :meth:`Variable.backward`, it returns the gradients and leaves
    the ``grad`` of every variable alone (unless ``set_grad`` is set). Only
    the part of the graph between the inputs and the outputs is traversed.

    Args:
        outputs (tuple or list of Variable): The outputs.
        inputs (tuple or list of Variable): The inputs to differentiate
            with respect to.
        grad_outputs (tuple or list): Initial gradients of the outputs
            (variables, arrays or ``None``); by default each output's
            ``grad_var``, or ones.
        grad_inputs (tuple or list): Gradients to add to those computed
            for the inputs.
        set_grad (bool): If ``True``, the results are also stored in the
            inputs' ``grad_var``.
        retain_grad (bool): If ``True``, intermediate variables keep their
            gradients in ``grad_var``.
        enable_double_backprop (bool): If ``True``, the gradients are
            differentiable again.
        loss_scale (float): Scales the default initial gradients.

    Returns:
        list of Variable: The gradient of each input (``None`` where no
        gradient reached it).
    """
    _backprop.check_variables('outputs', 'output', outputs)
    # A gradient made by an old-style function cannot be differentiated
    # again: that is reported before anything about the inputs.
    for y in outputs:
        y._node._check_old_style_gradient()
    _backprop.check_variables('inputs', 'input', inputs)
    if grad_outputs is not None:
        _backprop.check_grads('grad_outputs', grad_outputs, 'outputs',
                              outputs)
    if grad_inputs is not None:
        _backprop.check_grads('grad_inputs', grad_inputs, 'inputs', inputs)

    # Each output starts from its given gradient or ones (never its own
    # grad_var); an output or input given twice keeps its last gradient.
    initial_grads = {}
    for i, y in enumerate(outputs):
        gy = None if grad_outputs is None else grad_outputs[i]
        if gy is None:
            gy = variable._ones_grad(y, loss_scale)
        elif not isinstance(gy, _Variable):
            gy = _Variable(gy)
        initial_grads[y._node] = gy
    if grad_inputs is not None:
        for x, gx in zip(inputs, grad_inputs):
            if gx is None:
                continue
            if not isinstance(gx, _Variable):
                gx = _Variable(gx)
            initial_grads[x._node] = gx

    with configuration.using_config(
            'enable_backprop', enable_double_backprop):
        results = _backprop.backprop_to_inputs(
            [y._node for y in outputs], [x._node for x in inputs],
            initial_grads, retain_grad, loss_scale)

    if set_grad:
        for x, gx in zip(inputs, results):
            x._set_grad_var_without_check(gx)
    return results
