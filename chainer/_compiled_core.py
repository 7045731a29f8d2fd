"""The one interface between the Python autograd core and the compiled one.

``chainer._compiled_autograd`` (sources in ``csrc/autograd``) is an
accelerator in the manner of :pep:`399`: :meth:`FunctionNode.apply
<chainer.FunctionNode.apply>` of :mod:`chainer.function_node` and the
backward traversal of :mod:`chainer._backprop` are the reference,
written once in Python; the compiled code takes their common case (NumPy
arrays, no function hooks, no debug mode) and hands every other one, and
every error, to them.

It owns the storage it works on:

* the fields of variables, of their nodes and of function nodes, the C
  base types of :class:`~chainer.Variable`,
  :class:`~chainer.variable.VariableNode` and :class:`~chainer.FunctionNode`
  (see :mod:`chainer._core_fields`, which puts the same fields on
  pure-Python bases when the compiled core is not used);
* the gradient table of its traversal, ``GradTable``, whose methods are
  those of ``_backprop._GradTable`` that the Python steps call;
* the per-thread depth of :mod:`chainer.utils.type_check`'s light mode,
  in which apply checks the input types as
  ``FunctionNode._check_data_type_forward`` does (a failed check goes on
  in ``_check_types_fully``, for the message).

Everything else it uses of the Python side is handed over here, once, by
:func:`install`, as the data of :func:`parts`: classes, the functions it
hands cases to or takes rules from, the configuration tables, and in
:data:`FUNCTION_NODE_NAMES` the names of the methods of a
:class:`~chainer.FunctionNode` it calls. It looks up no other name of the
Python side, but for the ``value`` of the nodes whose ``forward`` or
``_add_grad_into`` :mod:`chainer._constant_operands` lists (a node of
``x + 1.5``, ``x * 1.5`` or ``1.5 - x``), which it computes itself where
their constant is kept. ``tests/chainer_tests/test_core_fields.py``
checks this list against the Python classes.

The switch: ``CHAINER_USE_COMPILED_CORE=0`` when Chainer is imported
leaves the extension unloaded (the pure-Python bases, the Python
bookkeeping); ``chainer.config.use_compiled_core`` set to ``False`` (in
a thread, with :func:`chainer.using_config`) sends every call to the
Python code while it lasts. :func:`use` switches the entry points
themselves, for tests and benchmarks.
"""

import numpy

from chainer import _backprop
from chainer import _constant_operands
from chainer import _core_fields
from chainer import configuration
from chainer import function_hook
from chainer import function_node
from chainer import utils
from chainer import variable
from chainer.utils import type_check


#: The Python bookkeeping: ``(FunctionNode.apply, backprop_to_all)``.
python_core = function_node.FunctionNode.apply, _backprop.backprop_to_all

#: The compiled one, or ``None`` when it is not in use.
compiled_core = None

#: The methods of a :class:`~chainer.FunctionNode` the compiled core calls
#: or looks up, by role: those of an op and the in-place gradient protocol
#: (see :class:`~chainer.FunctionNode`). Its fields are the compiled core's
#: own (see :mod:`chainer._core_fields`).
FUNCTION_NODE_NAMES = {
    'check_data_type_forward': '_check_data_type_forward',
    'check_type_forward': 'check_type_forward',
    'check_types_fully': '_check_types_fully',
    'forward': 'forward',
    'backward': 'backward',
    'backward_accumulate': 'backward_accumulate',
    'add_grad_into': '_add_grad_into',
}


def _thread_state(config_local=configuration.config._local,
                  hooks_local=function_hook._thread_local):
    """The current thread's configuration entries and the dict that holds
    its function hooks (under ``'function_hooks'``), both the same objects
    for the life of the thread; the compiled core keeps them per thread."""
    return config_local.__dict__, hooks_local.__dict__


def parts():
    """Returns what :func:`install` hands to the compiled core."""
    return {
        # Classes: the variable, its node and the function node (on the
        # compiled core's fields) and the one array type it works on.
        'variable': variable.Variable,
        'variable_node': variable.VariableNode,
        'function_node': function_node.FunctionNode,
        'ndarray': numpy.ndarray,
        # The reference, which takes every case it does not.
        'python_apply': python_core[0],
        'python_backprop_to_all': python_core[1],
        'run_backward': _backprop._run_backward,
        # Rules and errors of the Python side.
        'as_variable': variable.as_variable,
        'as_grad_var': _backprop._as_grad_var,
        'check_forward_outputs': function_node._check_forward_outputs,
        'give_output_layouts': function_node._give_output_layouts,
        'normalize_grad_inputs': _backprop.normalize_grad_inputs,
        'check_grad_type': variable._check_grad_type,
        'no_output_grad_error': _backprop._raise_no_output_grad,
        'sum_grads': _backprop._sum_grads,
        'check_old_style_gradient':
            variable.VariableNode._check_old_style_gradient,
        'set_grad_var_if_available':
            variable.VariableNode._set_grad_var_if_available,
        'base_backward_accumulate':
            function_node.FunctionNode.backward_accumulate,
        # The light type check: the method it stands for, the class of the
        # raw arrays and the error that sends it to that method.
        'base_check_data_type_forward':
            function_node.FunctionNode._check_data_type_forward,
        'light_type_info_tuple': type_check.LightTypeInfoTuple,
        'invalid_type': type_check.InvalidType,
        # The checks of type_check._argument_check, which it runs itself
        # where the inputs pass them, and the dtypes that pass as floating.
        'argument_checks': type_check._ARGUMENT_CHECKS,
        'floating_dtypes': tuple(
            numpy.dtype(t) for t in (numpy.float16, numpy.float32,
                                     numpy.float64, numpy.longdouble)),
        # The constant operands of x + 1.5, x * 1.5, 1.5 - x: the methods
        # it computes where their constant is kept (as force_array makes
        # an array of a NumPy scalar).
        'kept_constants': _constant_operands.KEPT,
        'constant_forwards': _constant_operands.FORWARDS,
        'constant_grads_into': _constant_operands.GRADS_INTO,
        'force_array': utils.force_array,
        # State: memory layouts in use, configuration, function hooks.
        'layouts_in_use': variable._layouts_in_use,
        'thread_state': _thread_state,
        'global_settings': configuration._entry_tables()[1],
        'get_function_hooks': function_hook.get_function_hooks,
        'function_node_names': dict(FUNCTION_NODE_NAMES),
    }


def use(core):
    """Makes ``core``, an ``(apply, backprop_to_all)`` pair, the one in use.
    """
    function_node.FunctionNode.apply, _backprop.backprop_to_all = core
    _backprop._backprop_to_all = core[1]


def install():
    """Hands the Python parts to the compiled core and puts it in use,
    where it is built and allowed."""
    global compiled_core
    module = _core_fields.compiled
    if module is None or compiled_core is not None:
        return
    module.core_init(parts())
    type_check._use_light_depth(
        module.light_depth, module.enter_light, module.leave_light)
    compiled_core = (module.apply_method(function_node.FunctionNode),
                     module.backprop_to_all)
    use(compiled_core)


install()
