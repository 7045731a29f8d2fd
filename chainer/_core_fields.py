"""The storage of variables and of their nodes.

:class:`chainer.Variable` and :class:`chainer.variable.VariableNode` keep
their hot fields in a base class: the C type of the compiled autograd core
(``chainer._compiled_autograd``, whose ``FunctionNode.apply`` and backward
traversal reach the fields as struct members) where it is built and
allowed, else the pure-Python classes below with the same fields as
``__slots__``. Both behave the same from Python: the fields are
attributes, listed in ``__slots__``, unset until assigned.

The choice is made once, when Chainer is imported: the compiled core is
left out when ``CHAINER_USE_COMPILED_CORE=0``; the configuration entry
``chainer.config.use_compiled_core`` then reads ``False``, and setting it
turns the compiled bookkeeping off (not on) while the process runs.
"""

import importlib

from chainer import configuration


#: The fields of a variable, in the order of the C struct.
VARIABLE_FIELDS = (
    '_data', '_node', '_grad_var', '_requires_grad', '_loss_scale',
    '_layout')

#: The fields of a variable node, in the order of the C struct.
VARIABLE_NODE_FIELDS = (
    '_variable', '_creator_node', '_data', '_rank', 'name',
    '_requires_grad', 'dtype', 'shape', '_old_style_grad_generator',
    '_layout')


def _load_compiled():
    if not configuration.global_config.use_compiled_core:
        return None
    try:
        return importlib.import_module('chainer._compiled_autograd')
    except ImportError:
        return None


#: The extension module of the compiled core, or ``None`` when it is not
#: built or not allowed.
compiled = _load_compiled()


class _PythonVariableFields:
    """The fields of :class:`chainer.Variable`, stored by Python."""

    __slots__ = VARIABLE_FIELDS


class _PythonVariableNodeFields:
    """The fields of :class:`chainer.variable.VariableNode`, stored by
    Python.

    Attributes:
        name (str): A label for the variable.
        dtype: Data type of the variable's array.
        shape (tuple): Shape of the variable's array.
    """

    __slots__ = VARIABLE_NODE_FIELDS


if compiled is None:
    VariableFields = _PythonVariableFields
    VariableNodeFields = _PythonVariableNodeFields
else:
    VariableFields = compiled.VariableFields
    VariableNodeFields = compiled.VariableNodeFields
