"""The storage of variables, of their nodes and of function nodes.

:class:`chainer.Variable`, :class:`chainer.variable.VariableNode` and
:class:`chainer.FunctionNode` keep their hot fields in a base class: the C
type of the compiled autograd core (``chainer._compiled_autograd``, whose
``FunctionNode.apply`` and backward traversal reach the fields as struct
members) where it is built and allowed, else the pure-Python classes below
with the same fields. Both behave the same from Python: the fields are
attributes; those of variables and their nodes are unset until assigned,
and those of a function node start with the values of a node not yet
applied.

The choice is made once, when Chainer is imported: the compiled core is
left out when ``CHAINER_USE_COMPILED_CORE=0``; the configuration entry
``chainer.config.use_compiled_core`` then reads ``False``, and setting it
turns the compiled bookkeeping off (not on) while the process runs.
"""

import importlib
import warnings

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


#: The fields of a function node and their values before it is applied,
#: in the order of the C struct.
FUNCTION_NODE_FIELDS = (
    ('inputs', None), ('outputs', None), ('rank', 0), ('stack', None),
    ('lazy_grad_sum', False), ('_input_indexes_to_retain', None),
    ('_output_indexes_to_retain', None), ('_retained_output_data', None),
    ('_n_local_function_hooks', 0), ('_local_function_hooks', None),
    ('_input_layouts', None), ('_output_layouts', None))


def refuse_redefined(cls, fields):
    """Raises TypeError if the class ``cls`` defines one of ``fields``.

    The fields are the storage the autograd core reads and writes directly
    (as Chainer reads ``Variable._data``): a subclass that defined one
    again (a property, a slot, a class attribute) would be seen by the
    Python core and not by the compiled one. A plain class attribute that
    repeats a field's starting value (``rank = 0`` in a function node's
    class, as Chainer's own class has it) is dropped instead: every node
    starts with that value anyway.

    Args:
        cls (type): The new subclass.
        fields: The names of the fields, or a dict of the value each field
            starts with.
    """
    defaults = fields if isinstance(fields, dict) else {}
    redefined = []
    for name in sorted(set(fields) & set(vars(cls))):
        value = vars(cls)[name]
        if name in defaults and type(value) is type(defaults[name]) \
                and value == defaults[name]:
            delattr(cls, name)
        else:
            redefined.append(name)
    if redefined:
        raise TypeError(
            '{} defines {}, a field of the storage of {}; use another '
            'name'.format(cls.__qualname__, ', '.join(redefined),
                          cls.__mro__[1].__name__))


def _load_compiled():
    # The module, or None where it is not allowed or not built. A module
    # that is built and does not load (built for another Python, say)
    # leaves the Python core in use with a warning: it would be slower
    # without saying why.
    if not configuration.global_config.use_compiled_core:
        return None
    name = 'chainer._compiled_autograd'
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            _warn_not_loaded(e)
    except ImportError as e:
        _warn_not_loaded(e)
    return None


def _warn_not_loaded(error):
    warnings.warn(
        'chainer._compiled_autograd is built but did not load ({}); the '
        'autograd core runs in Python, which is slower. Reinstalling '
        'Chainer rebuilds it; CHAINER_USE_COMPILED_CORE=0 silences this '
        'warning.'.format(error), RuntimeWarning, stacklevel=2)


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


class _PythonFunctionNodeFields:
    """The fields of :class:`chainer.FunctionNode`, stored by Python: the
    values of a node not yet applied are class attributes, and
    :meth:`~chainer.FunctionNode.apply` sets the node's own."""


for _name, _value in FUNCTION_NODE_FIELDS:
    setattr(_PythonFunctionNodeFields, _name, _value)
del _name, _value


if compiled is None:
    VariableFields = _PythonVariableFields
    VariableNodeFields = _PythonVariableNodeFields
    FunctionNodeFields = _PythonFunctionNodeFields
else:
    VariableFields = compiled.VariableFields
    VariableNodeFields = compiled.VariableNodeFields
    FunctionNodeFields = compiled.FunctionNodeFields
