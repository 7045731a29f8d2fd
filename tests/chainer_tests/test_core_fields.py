"""What the compiled autograd core takes from the Python side, against the
Python side: the fields, the names handed over, and its sources."""

import copy
import glob
import os
import pickle
import re

import numpy
import pytest

import chainer
from chainer import _backprop
from chainer import _compiled_core
from chainer import _core_fields
from chainer import variable


SOURCES = os.path.join(
    os.path.dirname(__file__), '..', '..', 'csrc', 'autograd')

needs_compiled = pytest.mark.skipif(
    _core_fields.compiled is None, reason='the compiled core is not used')


@pytest.mark.parametrize('cls, fields', [
    (variable.Variable, _core_fields.VARIABLE_FIELDS),
    (variable.VariableNode, _core_fields.VARIABLE_NODE_FIELDS),
])
def test_the_fields_live_in_the_base(cls, fields):
    # A field added to the Python class instead of the base would be
    # missing from the compiled core's storage.
    assert cls.__base__.__slots__ == fields
    own = set(cls.__slots__) - {'__dict__', '__weakref__'}
    assert not own


@needs_compiled
@pytest.mark.parametrize('compiled, python', [
    ('VariableFields', _core_fields._PythonVariableFields),
    ('VariableNodeFields', _core_fields._PythonVariableNodeFields),
])
def test_compiled_and_python_bases_have_the_same_fields(compiled, python):
    ctype = getattr(_core_fields.compiled, compiled)
    assert ctype.__slots__ == python.__slots__
    for name in python.__slots__:
        # Member descriptors both: set, read and delete as slots are.
        assert type(ctype.__dict__[name]) is type(python.__dict__[name])


def test_function_node_fields():
    names = tuple(name for name, _ in _core_fields.FUNCTION_NODE_FIELDS)
    assert chainer.FunctionNode.__base__ is _core_fields.FunctionNodeFields
    if _core_fields.compiled is not None:
        assert _core_fields.FunctionNodeFields.__slots__ == names
    # None of them is defined again by the Python class.
    assert not set(names) & set(vars(chainer.FunctionNode))

    class Plain(chainer.FunctionNode):
        def __init__(self, scale):  # without FunctionNode.__init__
            self.scale = scale

    for node in (chainer.FunctionNode(), Plain(2)):
        for name, value in _core_fields.FUNCTION_NODE_FIELDS:
            assert getattr(node, name) == value, name
            assert type(getattr(node, name)) is type(value), name
    # Like object(), a class without __init__ takes no arguments.
    with pytest.raises(TypeError):
        chainer.FunctionNode(1)


def test_function_node_copies_and_pickles():
    x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
    y = chainer.functions.exp(x)
    node = y.creator_node
    for copied in (copy.copy(node), copy.deepcopy(node)):
        assert copied.rank == node.rank
        assert len(copied.inputs) == 1
        assert copied.lazy_grad_sum is False
    plain = chainer.functions.math.basic_math.Add()
    plain.mark = 'kept'
    loaded = pickle.loads(pickle.dumps(plain))
    assert loaded.mark == 'kept' and loaded.rank == 0 and loaded.inputs is None


def _every_field_set(obj, fields):
    for name in fields:
        getattr(obj, name)  # raises AttributeError if unset


@pytest.mark.parametrize('make', [
    lambda: chainer.Variable(numpy.ones(2, numpy.float32)),
    lambda: chainer.Variable(),
    lambda: chainer.Parameter(numpy.ones(2, numpy.float32)),
    lambda: chainer.Variable(numpy.ones(2, numpy.float32)) * 2,
    lambda: copy.copy(chainer.Variable(numpy.ones(2, numpy.float32))),
    lambda: pickle.loads(pickle.dumps(
        chainer.Variable(numpy.ones(2, numpy.float32)))),
], ids=['init', 'empty', 'parameter', 'output', 'copy', 'pickle'])
def test_every_field_is_set(make):
    v = make()
    _every_field_set(v, _core_fields.VARIABLE_FIELDS)
    _every_field_set(v.node, _core_fields.VARIABLE_NODE_FIELDS)


def test_function_node_names_exist():
    # A renamed method of FunctionNode fails here, not in the C code.
    for role, name in _compiled_core.FUNCTION_NODE_NAMES.items():
        assert name in vars(chainer.FunctionNode), (role, name)
    assert chainer.FunctionNode._add_grad_into is None  # the protocol's
    # default: absent unless an op defines it


def test_grad_table_methods_are_those_of_the_python_table():
    # The Python steps call these on either table.
    for name in ('get_as_list', 'own', 'owns', 'release', 'defer',
                 'settle', 'sum_list'):
        assert callable(getattr(_backprop._GradTable, name))
        if _core_fields.compiled is not None:
            assert callable(getattr(_core_fields.compiled.GradTable, name))


@needs_compiled
def test_core_init_takes_exactly_the_parts():
    parts = _compiled_core.parts()
    init = _core_fields.compiled.core_init
    for key in parts:
        incomplete = dict(parts)
        del incomplete[key]
        with pytest.raises(KeyError, match=key):
            init(incomplete)
    with pytest.raises(TypeError, match='expected'):
        init(dict(parts, unused=None))
    names = dict(parts['function_node_names'])
    names.pop('backward')
    with pytest.raises(KeyError, match='backward'):
        init(dict(parts, function_node_names=names))
    with pytest.raises(RuntimeError, match='has run already'):
        init(parts)


def _c_sources():
    paths = sorted(glob.glob(os.path.join(SOURCES, '*.[ch]pp')))
    assert paths
    return {os.path.basename(p): open(p).read() for p in paths}


def test_sources_look_up_no_private_python_name():
    # The only underscore names in the C sources are the fields the core
    # defines itself (and dunder names of the C API).
    own = set(_core_fields.VARIABLE_FIELDS) | set(
        _core_fields.VARIABLE_NODE_FIELDS) | {
            name for name, _ in _core_fields.FUNCTION_NODE_FIELDS}
    for name, text in _c_sources().items():
        for literal in re.findall(r'"(_[A-Za-z_]\w*)"', text):
            assert literal in own or re.fullmatch(r'__\w+__', literal), (
                name, literal)


def test_sources_use_no_addresses_as_ids_nor_foreign_slots():
    for name, text in _c_sources().items():
        for banned in ('PyLong_FromVoidPtr', 'PyMemberDescr',
                       'd_member', 'tp_dictoffset', '"__dict__"',
                       'pybind11', 'dnnl'):
            assert banned not in text, (name, banned)


def test_sources_are_split_by_concern():
    for name, text in _c_sources().items():
        assert text.count('\n') <= 800, name


@pytest.mark.parametrize('error,warned', [
    ("ImportError('undefined symbol: _Py_SomethingGone')", True),
    ('ModuleNotFoundError("No module named chainer._compiled_autograd", '
     'name=name)', False),
], ids=['built', 'not-built'])
def test_core_that_does_not_load(error, warned, import_with_failing_module):
    # A built module that does not load leaves the Python core in use,
    # with a warning; a module that is not built, silently.
    python_core, grad, messages = import_with_failing_module(
        'chainer._compiled_autograd', error, """
from chainer import _compiled_core
import numpy
x = chainer.Variable(numpy.array([1.0, 2.0], numpy.float32))
y = chainer.functions.sum(x * x)
y.backward()
print(json.dumps([_compiled_core.compiled_core is None, x.grad.tolist(),
                  runtime_warnings]))
""")
    assert python_core and grad == [2.0, 4.0]
    if warned:
        assert len(messages) == 1
        assert messages[0].startswith(
            'chainer._compiled_autograd is built but did not load '
            '(undefined symbol: _Py_SomethingGone)')
    else:
        assert messages == []
