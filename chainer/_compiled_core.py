"""The one interface between the Python autograd core and the compiled one.

``chainerx_cpp`` holds, besides the kernels, the bookkeeping of the
autograd core in C (``chainerx_cpp/core.cpp``): :meth:`FunctionNode.apply
<chainer.FunctionNode.apply>` and the backward traversal behind
:meth:`Variable.backward <chainer.Variable.backward>`. The Python code of
:mod:`chainer.function_node` and :mod:`chainer._backprop` stays the
reference: the compiled code takes the common case (NumPy arrays, no
function hooks, no debug mode) and hands every other one, and every error,
to it.

Everything the compiled code knows of the Python side is handed to it here,
once, by :func:`install`:

* the classes ``Variable``, ``VariableNode`` and ``numpy.ndarray``, whose
  ``__slots__`` it reads and writes at their offsets: ``Variable._data``,
  ``_node``, ``_grad_var``, ``_requires_grad``, ``_loss_scale``;
  ``VariableNode._variable``, ``_creator_node``, ``_data``, ``_rank``,
  ``name``, ``_requires_grad``, ``dtype``, ``shape``,
  ``_old_style_grad_generator``, ``_layout``;
* the configuration tables (the thread's ``chainer.config`` entries and the
  global ones) and the thread's function hooks;
* the Python core's functions it hands cases to (``python_apply``,
  ``python_backprop_to_all``, ``run_backward``) or takes rules from
  (``check_forward_outputs``, ``normalize_grad_inputs``, ``as_grad_var``,
  ``check_grad_type``, ``no_output_grad_error``);
* memory layouts (:mod:`chainer.memory_layouts`): the list
  ``variable._layouts_in_use``, empty until the process makes its first
  non-standard layout; once it is not, an input whose ``_layout`` is not
  ``None`` sends the call to ``python_apply``, and the outputs of a node
  whose forward set ``_output_layouts`` get them from
  ``function_node._give_output_layouts``;
* the gradient table class ``_backprop._GradTable``, whose three dicts
  (``grads``, ``sums``, ``pending``) it reads and writes as the class does,
  and whose methods ``pop``, ``sum_list`` and ``defer`` it calls for what is
  rare.

Of a function node it uses the attributes any node has (``inputs``,
``outputs``, ``rank``, ``stack``, ``lazy_grad_sum``, the retention lists,
``_n_local_function_hooks``) and calls ``check_type_forward`` (through
``_check_data_type_forward``), ``forward``, ``backward`` and the in-place
gradient protocol ``_add_grad_into`` (see :class:`chainer.FunctionNode`;
the attribute is ``None`` where the class's ``backward`` may not be
bypassed, and a node with hooks of its own, the one case of an observed
node that the compiled traversal meets, goes to ``run_backward``).

The compiled core is used when the kernels are built, unless
``CHAINER_USE_CHAINERX_CPP`` is ``'never'`` when Chainer is imported;
:func:`use` switches between the two (for tests and benchmarks).
"""

import numpy

from chainer import _backprop
from chainer import _kernels
from chainer import configuration
from chainer import function_hook
from chainer import function_node
from chainer import variable


#: The Python bookkeeping: ``(FunctionNode.apply, backprop_to_all)``.
python_core = function_node.FunctionNode.apply, _backprop.backprop_to_all

#: The compiled one, or ``None`` when it is not in use.
compiled_core = None


def _python_parts():
    config_local, global_settings = configuration._entry_tables()
    return {
        'variable': variable.Variable,
        'variable_node': variable.VariableNode,
        'ndarray': numpy.ndarray,
        'as_variable': variable.as_variable,
        'python_apply': python_core[0],
        'check_forward_outputs': function_node._check_forward_outputs,
        'config_local': config_local,
        'global_settings': global_settings,
        'hooks_local': function_hook._thread_local,
        'config': configuration.config,
        'get_function_hooks': function_hook.get_function_hooks,
        'python_backprop_to_all': python_core[1],
        'grad_table': _backprop._GradTable,
        'run_backward': _backprop._run_backward,
        'normalize_grad_inputs': _backprop.normalize_grad_inputs,
        'as_grad_var': _backprop._as_grad_var,
        'check_grad_type': variable._check_grad_type,
        'base_backward_accumulate':
            function_node.FunctionNode.backward_accumulate,
        'no_output_grad_error': _backprop._raise_no_output_grad,
        'layouts_in_use': variable._layouts_in_use,
        'give_output_layouts': function_node._give_output_layouts,
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
    module = _kernels.compiled_core()
    if module is None or compiled_core is not None:
        return
    module.core_init(_python_parts())
    compiled_core = (module.apply_method(function_node.FunctionNode),
                     module.backprop_to_all)
    use(compiled_core)


install()
