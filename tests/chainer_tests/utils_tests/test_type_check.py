import copy
import operator
import pickle
import threading

import numpy
import pytest

from chainer.utils import type_check as T


def _types(*arrays, name='in_types'):
    return T.get_types(arrays, name, False)


@pytest.fixture
def xy():
    x = numpy.zeros((2, 3), numpy.float32)
    y = numpy.zeros((3,), numpy.int32)
    return _types(x, y)


def _message(*bool_exprs):
    with pytest.raises(T.InvalidType) as info:
        T.expect(*bool_exprs)
    return str(info.value)


class _FakeFunction:

    label = 'ReLU'


# --- expression tree -------------------------------------------------------

_BINARY = [
    ('add', operator.add, 5, '+'),
    ('sub', operator.sub, -1, '-'),
    ('mul', operator.mul, 6, '*'),
    ('truediv', operator.truediv, 2 / 3, '/'),
    ('floordiv', operator.floordiv, 0, '//'),
    ('mod', operator.mod, 2, '%'),
    ('pow', operator.pow, 8, '**'),
    ('lshift', operator.lshift, 16, '<<'),
    ('rshift', operator.rshift, 0, '>>'),
    ('and', operator.and_, 2, '&'),
    ('xor', operator.xor, 1, '^'),
    ('or', operator.or_, 3, '|'),
]


@pytest.mark.parametrize(
    'func,expected,symbol', [case[1:] for case in _BINARY],
    ids=[case[0] for case in _BINARY])
def test_binary_operator(func, expected, symbol):
    a = T.Variable(2, 'a')
    b = T.Variable(3, 'b')
    expr = func(a, b)
    assert isinstance(expr, T.BinaryOperator)
    assert str(expr) == 'a {} b'.format(symbol)
    assert T.eval(expr) == expected


@pytest.mark.parametrize(
    'func,symbol', [(case[1], case[3]) for case in _BINARY],
    ids=[case[0] for case in _BINARY])
def test_reflected_binary_operator(func, symbol):
    b = T.Variable(3, 'b')
    expr = func(2, b)
    assert str(expr) == '2 {} b'.format(symbol)
    assert T.eval(expr) == func(2, 3)


@pytest.mark.parametrize('func,expected,text', [
    (operator.neg, -2, '-a'),
    (operator.pos, 2, '+a'),
    (operator.invert, -3, '~a'),
], ids=['neg', 'pos', 'invert'])
def test_unary_operator(func, expected, text):
    expr = func(T.Variable(2, 'a'))
    assert isinstance(expr, T.UnaryOperator)
    assert str(expr) == text
    assert T.eval(expr) == expected


_COMPARISONS = [
    ('eq', operator.eq, '==', '!='),
    ('ne', operator.ne, '!=', '=='),
    ('lt', operator.lt, '<', '>='),
    ('le', operator.le, '<=', '>'),
    ('gt', operator.gt, '>', '<='),
    ('ge', operator.ge, '>=', '<'),
]


@pytest.mark.parametrize(
    'func,symbol,inverse', [case[1:] for case in _COMPARISONS],
    ids=[case[0] for case in _COMPARISONS])
@pytest.mark.parametrize('lhs,rhs', [(2, 3), (3, 3), (4, 3)],
                         ids=['less', 'equal', 'greater'])
def test_comparison(func, symbol, inverse, lhs, rhs):
    expr = func(T.Variable(lhs, 'a'), rhs)
    assert isinstance(expr, T.BoolBinaryOperator)
    assert isinstance(expr, T.Testable)
    assert str(expr) == 'a {} {}'.format(symbol, rhs)
    assert T.eval(expr) is func(lhs, rhs)
    if func(lhs, rhs):
        T.expect(expr)
    else:
        assert _message(expr) == 'Expect: a {} {}\nActual: {} {} {}'.format(
            symbol, rhs, lhs, inverse, rhs)


def test_reflected_comparison_is_swapped():
    expr = 5 < T.Variable(2, 'a')
    assert str(expr) == 'a > 5'
    assert _message(expr) == 'Expect: a > 5\nActual: 2 <= 5'


_PARENTHESES = [
    (lambda a, b, c: (a + 1) * 2, '(a + 1) * 2'),
    (lambda a, b, c: a + 1 * b, 'a + 1 * b'),
    (lambda a, b, c: a + (b - c), 'a + (b - c)'),
    (lambda a, b, c: a - (b + c), 'a - (b + c)'),
    (lambda a, b, c: a - b - c, 'a - b - c'),
    (lambda a, b, c: a * (b / c), 'a * (b / c)'),
    (lambda a, b, c: a ** b ** c, 'a ** b ** c'),
    (lambda a, b, c: (a ** b) ** c, '(a ** b) ** c'),
    (lambda a, b, c: -a ** 2, '-a ** 2'),
    (lambda a, b, c: (-a) ** 2, '(-a) ** 2'),
    (lambda a, b, c: a ** -b, 'a ** (-b)'),
    (lambda a, b, c: -(a + 1), '-(a + 1)'),
    (lambda a, b, c: - -a, '--a'),
    (lambda a, b, c: ~-a, '~-a'),
    (lambda a, b, c: a & b | c, 'a & b | c'),
    (lambda a, b, c: a & (b | c), 'a & (b | c)'),
    (lambda a, b, c: (a | b) & c, '(a | b) & c'),
    (lambda a, b, c: a ^ b & c, 'a ^ b & c'),
    (lambda a, b, c: a << b + c, 'a << b + c'),
    (lambda a, b, c: (a << b) + c, '(a << b) + c'),
    (lambda a, b, c: a + -1, 'a + -1'),
    (lambda a, b, c: a * (b + 1) == 5, 'a * (b + 1) == 5'),
    (lambda a, b, c: a == (b == c), 'a == (b == c)'),
    (lambda a, b, c: (a + b).foo, '(a + b).foo'),
    (lambda a, b, c: (a + b)[0], '(a + b)[0]'),
    (lambda a, b, c: (-a)(1), '(-a)(1)'),
]


@pytest.mark.parametrize(
    'build,text', _PARENTHESES,
    ids=['case{:02d}'.format(i) for i in range(len(_PARENTHESES))])
def test_parentheses(build, text):
    a, b, c = (T.Variable(v, n) for v, n in ((2, 'a'), (3, 'b'), (4, 'c')))
    assert str(build(a, b, c)) == text


def test_operator_priorities():
    a = T.Variable(2, 'a')
    assert a.priority == 8
    assert (a ** 2).priority == 7
    assert (-a).priority == 6
    assert (a * 2).priority == 5
    assert (a + 2).priority == 4
    assert (a << 2).priority == 3
    assert (a & 2).priority == 2
    assert (a ^ 2).priority == 1
    assert (a | 2).priority == 0
    assert (a == 2).priority == -1
    assert (a ** 2).right_associative
    assert not (a - 2).right_associative


def test_pow_evaluates_power():
    a = T.Variable(2, 'a')
    assert T.eval((a ** 2) ** 2) == 16
    assert T.eval(3 ** a) == 9


def test_get_attr():
    a = T.Variable(numpy.dtype(numpy.float32), 'a')
    expr = a.kind
    assert isinstance(expr, T.GetAttr)
    assert str(expr) == 'a.kind'
    assert T.eval(expr) == 'f'


def test_get_attr_with_expression_name():
    a = T.Variable(numpy.zeros((2, 3)), 'a')
    expr = T.GetAttr(a, T.Variable('ndim', 'n'))
    assert str(expr) == 'getattr(a, n)'
    assert T.eval(expr) == 2


def test_get_attr_with_constant_name():
    a = T.Variable(numpy.zeros((2, 3)), 'a')
    assert str(T.GetAttr(a, T.Constant('ndim'))) == 'a.ndim'
    assert str(T.GetAttr(a, 3)) == 'getattr(a, 3)'


def test_dunder_attribute_is_not_an_expression():
    a = T.Variable(2, 'a')
    with pytest.raises(AttributeError):
        a.__array__
    assert T.eval(copy.copy(a) + 1) == 3
    assert str(copy.deepcopy(a.foo)) == 'a.foo'


@pytest.mark.parametrize('key,text,expected', [
    (0, 'a[0]', 4),
    (-1, 'a[-1]', 6),
    (slice(1, None), 'a[1:]', (5, 6)),
    (slice(None, -1), 'a[:-1]', (4, 5)),
    (slice(None, None, 2), 'a[::2]', (4, 6)),
    (slice(0, 3, 2), 'a[0:3:2]', (4, 6)),
    (slice(None), 'a[:]', (4, 5, 6)),
], ids=['index', 'negative', 'start', 'stop', 'step', 'full', 'all'])
def test_get_item(key, text, expected):
    expr = T.Variable((4, 5, 6), 'a')[key]
    assert isinstance(expr, T.GetItem)
    assert str(expr) == text
    assert T.eval(expr) == expected


def test_get_item_string_forms():
    a = T.Variable(numpy.zeros((2, 3)), 'a')
    assert str(a[..., 1]) == 'a[..., 1]'
    assert str(a[0, 1:2]) == 'a[0, 1:2]'
    assert str(a[None]) == 'a[None]'
    assert str(a['k']) == "a['k']"
    assert str(a[()]) == 'a[]'
    assert T._str_subscript((1, slice(None, 2), Ellipsis)) == '1, :2, ...'


def test_get_item_with_expression_keys():
    shape = T.Variable((4, 5, 6), 's')
    n = T.Variable(2, 'n')
    assert str(shape[n]) == 's[n]'
    assert T.eval(shape[n]) == 6
    assert str(shape[1:n]) == 's[1:n]'
    assert T.eval(shape[1:n]) == (5,)


def test_call():
    f = T.Variable(max, 'max')
    a = T.Variable(2, 'a')
    expr = f(a, 7)
    assert isinstance(expr, T.Call)
    assert str(expr) == 'max(a, 7)'
    assert T.eval(expr) == 7
    assert str(f('x', (1,))) == "max('x', (1,))"


def test_call_requires_tuple_args():
    with pytest.raises(AssertionError):
        T.Call(T.Variable(len, 'len'), [1])


def test_constant_and_variable_strings():
    assert str(T.Constant('f')) == "'f'"
    assert str(T.Constant((1, 2))) == '(1, 2)'
    assert str(T.Constant(numpy.dtype('int32'))) == "dtype('int32')"
    assert T.eval(T.Constant(4)) == 4
    assert str(T.Variable('f', 'v')) == 'v'
    assert T.Constant(-1).priority == 8


def test_raw_values_in_expression_use_repr():
    a = T.Variable(2, 'a')
    assert str(a == 'f') == "a == 'f'"
    assert str(a == numpy.dtype('int32')) == "a == dtype('int32')"
    assert str(a == numpy.float32) == "a == <class 'numpy.float32'>"
    assert str(a == numpy.float32(1.5)) == 'a == 1.5'
    assert str(a == (a, 1)) == 'a == (a, 1)'


def test_expression_is_not_a_bool():
    a = T.Variable(2, 'a')
    with pytest.raises(RuntimeError) as info:
        bool(a == 2)
    assert str(info.value) == (
        'An Expr instance cannot be evaluated as bool. Please use '
        'chainer.utils.type_check.eval() to evaluate an expression.')
    with pytest.raises(RuntimeError):
        if a:
            pass


def test_expression_is_unhashable():
    with pytest.raises(TypeError):
        hash(T.Variable(2, 'a'))


def test_base_expression_cannot_be_evaluated():
    with pytest.raises(NotImplementedError):
        T.Expr(3).eval()


def test_numpy_scalar_on_the_left():
    a = T.Variable(3, 'a')
    expr = numpy.int64(3) == a
    assert str(expr) == 'a == 3'
    assert T.eval(expr)
    assert T.eval(numpy.int64(2) + a) == 5


# --- get_types -------------------------------------------------------------

def test_get_types(xy):
    assert isinstance(xy, T.TypeInfoTuple)
    assert xy.name == 'in_types'
    assert len(xy) == 2
    x_type, y_type = xy
    assert isinstance(x_type, T.Variable)
    assert str(x_type) == 'in_types[0]'
    assert str(y_type) == 'in_types[1]'
    info = x_type.value
    assert isinstance(info, T.TypeInfo)
    assert info.shape == (2, 3)
    assert info.dtype == numpy.float32
    assert info.ndim == 2
    assert info.size == 6
    assert str(x_type.shape[0]) == 'in_types[0].shape[0]'
    assert T.eval(x_type.shape) == (2, 3)
    assert T.eval(x_type.ndim) == 2
    assert T.eval(x_type.size) == 6
    assert T.eval(x_type.dtype.kind) == 'f'
    assert T.eval(y_type.dtype) == numpy.int32


def test_get_types_with_shapes():
    x = numpy.zeros((2, 3), numpy.float32)
    types = T.get_types((x,), 'out', False, shapes=((5, 6, 7),))
    assert types.name == 'out'
    assert types[0].value.shape == (5, 6, 7)
    assert types[0].value.ndim == 3
    assert types[0].value.dtype == numpy.float32


def test_get_types_accept_none():
    x = numpy.zeros((2, 3), numpy.float32)
    types = T.get_types((x, None), 'in_types', True)
    info = types[1].value
    assert info.shape == ()
    assert info.dtype is None
    assert info.ndim == 0
    assert _message(types[1].ndim == 1) == (
        'Expect: in_types[1].ndim == 1\nActual: 0 != 1')


def test_get_types_rejects_none():
    with pytest.raises(AssertionError):
        T.get_types((numpy.zeros(2), None), 'in_types', False)


@pytest.mark.parametrize('data', [
    [numpy.zeros(2)],
    numpy.zeros(2),
    (numpy.float32(1),),
], ids=['list', 'array', 'scalar'])
def test_get_types_rejects_non_array_tuples(data):
    with pytest.raises(AssertionError):
        T.get_types(data, 'in_types', False)


def test_type_info_keeps_dtype_as_given():
    info = T.TypeInfo((4,), numpy.float32)
    assert info.dtype is numpy.float32
    assert info.ndim == 1
    assert T.TypeInfo((), None).size == 1


def test_type_info_tuple_size(xy):
    size = xy.size()
    assert isinstance(size, T.Variable)
    assert str(size) == 'in_types.size'
    assert T.eval(size) == 2
    T.expect(size == 2)
    assert _message(xy.size() == 1) == (
        'Expect: in_types.size == 1\nActual: 2 != 1')


def test_make_variable():
    v = T.make_variable(3, 'n')
    assert isinstance(v, T.Variable)
    assert str(v) == 'n'
    assert T.eval(v) == 3


def test_make_variable_from_array():
    v = T._make_variable_from_array(numpy.zeros((2, 5)), 'x')
    assert str(v) == 'x'
    assert v.value.shape == (2, 5)
    with pytest.raises(T.InvalidType) as info:
        T._make_variable_from_array(3, 'x')
    assert str(info.value) == (
        "Expect: isinstance(x, ndarray)\nActual: type(x) == <class 'int'>")


def test_prod():
    shape = T.Variable((2, 3, 4), 's')
    expr = T.prod(shape)
    assert isinstance(expr, T.Call)
    assert str(expr) == 'prod(s)'
    assert T.eval(expr) == 24
    assert str(T.prod([2, 3])) == 'prod([2, 3])'
    assert T._prod_impl(()) == 1
    assert isinstance(T._prod_impl((2, 3)), int)
    assert str(T._prod) == 'prod'


# --- messages --------------------------------------------------------------

@pytest.mark.parametrize('build,message', [
    (lambda x, y: x.dtype.kind == 'i',
     'Expect: in_types[0].dtype.kind == i\nActual: f != i'),
    (lambda x, y: x.dtype == numpy.int32,
     "Expect: in_types[0].dtype == <class 'numpy.int32'>\n"
     "Actual: float32 != <class 'numpy.int32'>"),
    (lambda x, y: x.dtype == numpy.dtype('int32'),
     'Expect: in_types[0].dtype == int32\nActual: float32 != int32'),
    (lambda x, y: x.dtype == y.dtype,
     'Expect: in_types[0].dtype == in_types[1].dtype\n'
     'Actual: float32 != int32'),
    (lambda x, y: y.ndim >= 2,
     'Expect: in_types[1].ndim >= 2\nActual: 1 < 2'),
    (lambda x, y: x.shape[0] == y.shape[0],
     'Expect: in_types[0].shape[0] == in_types[1].shape[0]\n'
     'Actual: 2 != 3'),
    (lambda x, y: x.shape[0] + 1 == y.shape[0] * 2 - 1,
     'Expect: in_types[0].shape[0] + 1 == in_types[1].shape[0] * 2 - 1\n'
     'Actual: 3 != 5'),
    (lambda x, y: x.shape == (1, 2),
     'Expect: in_types[0].shape == (1, 2)\nActual: (2, 3) != (1, 2)'),
    (lambda x, y: x.shape[1:] == (1, 2),
     'Expect: in_types[0].shape[1:] == (1, 2)\nActual: (3,) != (1, 2)'),
    (lambda x, y: x.shape[-1] != 3,
     'Expect: in_types[0].shape[-1] != 3\nActual: 3 == 3'),
    (lambda x, y: x.size == 5,
     'Expect: in_types[0].size == 5\nActual: 6 != 5'),
    (lambda x, y: T.prod(x.shape) == 5,
     'Expect: prod(in_types[0].shape) == 5\nActual: 6 != 5'),
    (lambda x, y: x.shape[0] / 2 == 5,
     'Expect: in_types[0].shape[0] / 2 == 5\nActual: 1.0 != 5'),
    (lambda x, y: -(x.shape[0] + 1) == 5,
     'Expect: -(in_types[0].shape[0] + 1) == 5\nActual: -3 != 5'),
    (lambda x, y: x.dtype.kind + 'q' == 'i',
     "Expect: in_types[0].dtype.kind + 'q' == i\nActual: fq != i"),
    (lambda x, y: T.Constant('i') == x.dtype.kind,
     "Expect: 'i' == in_types[0].dtype.kind\nActual: i != f"),
], ids=['kind', 'dtype_class', 'dtype', 'dtype_pair', 'ndim', 'shape_pair',
        'arithmetic', 'shape', 'shape_slice', 'ne', 'size', 'prod', 'div',
        'neg', 'concat', 'constant'])
def test_invalid_type_message(xy, build, message):
    expr = build(*xy)
    with pytest.raises(T.InvalidType) as info:
        T.expect(expr)
    assert str(info.value) == message
    expect, actual = message[len('Expect: '):].split('\nActual: ')
    assert info.value.expect == expect
    assert info.value.actual == actual


def test_expect_passes(xy):
    x_type, y_type = xy
    T.expect(
        x_type.dtype == numpy.float32,
        x_type.dtype.kind == 'f',
        x_type.ndim == 2,
        x_type.shape[1] == y_type.shape[0],
        y_type.dtype.kind == 'i',
        x_type.shape == (2, 3),
    )


def test_expect_stops_at_first_failure(xy):
    x_type, y_type = xy
    assert _message(x_type.ndim == 2, y_type.ndim == 2, y_type.ndim == 5) == (
        'Expect: in_types[1].ndim == 2\nActual: 1 != 2')


@pytest.mark.parametrize('value', [True, 1], ids=['bool', 'int'])
def test_expect_requires_comparisons(xy, value):
    with pytest.raises(AssertionError):
        T.expect(value)


def test_expect_rejects_combined_comparisons(xy):
    x_type, y_type = xy
    with pytest.raises(AssertionError):
        T.expect((x_type.ndim == 2) & (y_type.ndim == 1))


def test_invalid_type_with_explicit_message():
    error = T.InvalidType('a == b', '1 != 2', msg='custom')
    assert str(error) == 'custom'
    assert error.expect == 'a == b'
    assert error.actual == '1 != 2'
    assert str(T.InvalidType('a', 'b')) == 'Expect: a\nActual: b'


@pytest.mark.parametrize('msg', [None, 'custom'], ids=['built', 'given'])
def test_invalid_type_pickle(msg):
    error = T.InvalidType('a == b', '1 != 2', msg)
    restored = pickle.loads(pickle.dumps(error))
    assert type(restored) is T.InvalidType
    assert str(restored) == str(error)
    assert restored.expect == 'a == b'
    assert restored.actual == '1 != 2'


def test_invalid_type_pickle_keeps_header(xy):
    with pytest.raises(T.InvalidType) as info:
        with T.get_function_check_context(_FakeFunction()):
            T.expect(xy[0].ndim == 5)
    restored = pickle.loads(pickle.dumps(info.value))
    assert str(restored) == str(info.value)
    assert str(restored).startswith('\nInvalid operation is performed in:')


# --- function check context ------------------------------------------------

def test_function_check_context_header():
    x_type, = _types(numpy.zeros((3,), numpy.int32))
    T._argname((x_type,), ('x',))
    with pytest.raises(T.InvalidType) as info:
        with T.get_function_check_context(_FakeFunction()):
            T.expect(x_type.dtype.kind == 'f')
    assert str(info.value) == (
        '\nInvalid operation is performed in: ReLU (Forward)\n\n'
        'Expect: x.dtype.kind == f\nActual: i != f')
    assert info.value.expect == 'x.dtype.kind == f'
    assert info.value.actual == 'i != f'


def test_function_check_context_is_restored(xy):
    x_type = xy[0]
    outer = _FakeFunction()
    inner = _FakeFunction()
    inner.label = 'Inner'
    with pytest.raises(T.InvalidType) as info:
        with T.get_function_check_context(outer):
            with T.get_function_check_context(inner):
                pass
            T.expect(x_type.ndim == 5)
    assert 'performed in: ReLU (Forward)' in str(info.value)
    assert _message(x_type.ndim == 5) == (
        'Expect: in_types[0].ndim == 5\nActual: 2 != 5')


def test_function_check_context_with_explicit_message():
    with T.get_function_check_context(_FakeFunction()):
        assert str(T.InvalidType('p', 'q', 'mm')) == 'mm'
        assert str(T.InvalidType('p', 'q')) == (
            '\nInvalid operation is performed in: ReLU (Forward)\n\n'
            'Expect: p\nActual: q')


# --- argname and same_types -------------------------------------------------

def test_argname(xy):
    T._argname(xy, ('x', 'W'))
    assert [str(t) for t in xy] == ['x', 'W']
    assert xy.name == 'in_types'
    assert _message(xy[1].ndim == 2) == 'Expect: W.ndim == 2\nActual: 1 != 2'
    assert T.argname is T._argname


@pytest.mark.parametrize('names', [('x',), ('x', 'y', 'z')],
                         ids=['fewer', 'more'])
def test_argname_wrong_count(xy, names):
    with pytest.raises(T.InvalidType) as info:
        T._argname(xy, names)
    assert str(info.value) == 'Invalid number of arguments'
    assert info.value.expect == '{} argument(s)'.format(len(names))
    assert info.value.actual == '2 argument(s)'
    assert [str(t) for t in xy] == ['in_types[0]', 'in_types[1]']


def test_argname_in_light_mode():
    data = T.get_light_types((numpy.zeros(2), numpy.zeros(3)))
    with T.light_mode:
        T._argname(data, ('x', 'y'))
        with pytest.raises(T.InvalidType):
            T._argname(data, ('x',))


@pytest.mark.parametrize('first_floating', [False, True])
def test_argument_check(first_floating):
    check = T._argument_check(('x', 'y'), first_floating)
    assert T._ARGUMENT_CHECKS[check] == (2, first_floating)
    floats = numpy.zeros(2, numpy.float16), numpy.zeros(3, numpy.int8)
    ints = numpy.zeros(2, numpy.int32), numpy.zeros(3, numpy.float32)

    # On expressions: the inputs are named, and the messages are those of
    # _argname and expect.
    types = _types(*floats)
    check(None, types)
    assert [str(t) for t in types] == ['x', 'y']
    with pytest.raises(T.InvalidType) as info:
        check(None, _types(floats[0]))
    assert str(info.value) == 'Invalid number of arguments'
    if first_floating:
        with pytest.raises(T.InvalidType) as info:
            check(None, _types(*ints))
        assert str(info.value) == 'Expect: x.dtype.kind == f\nActual: i != f'
    else:
        check(None, _types(*ints))

    # On raw arrays in the light mode, the same answers.
    with T.light_mode:
        check(None, T.get_light_types(floats))
        with pytest.raises(T.InvalidType):
            check(None, T.get_light_types(floats * 2))
        if first_floating:
            with pytest.raises(T.InvalidType):
                check(None, T.get_light_types(ints))
        else:
            check(None, T.get_light_types(ints))


def test_same_types(xy):
    x = numpy.zeros(2)
    assert T.same_types(x, numpy.zeros(3, numpy.int32))
    assert T.same_types(x)
    assert T.same_types()
    assert not T.same_types(x, 1)
    assert not T.same_types(*xy)


# --- broadcast ---------------------------------------------------------------

def _broadcast_types():
    types = _types(*(numpy.zeros(s) for s in
                     ((2, 3), (4, 1, 3), (5,), (4, 2, 1))))
    return [t.shape for t in types]


@pytest.mark.parametrize('indices', [(0, 1), (1, 3), (0, 3), (0,), ()],
                         ids=['01', '13', '03', '0', 'none'])
def test_expect_broadcast_shapes(indices):
    shapes = _broadcast_types()
    T.expect_broadcast_shapes(*[shapes[i] for i in indices])


def test_expect_broadcast_shapes_failure():
    shapes = _broadcast_types()
    with pytest.raises(T.InvalidType) as info:
        T.expect_broadcast_shapes(*shapes)
    assert str(info.value) == (
        'cannot broadcast inputs of the following shapes:\n'
        'in_types[0].shape = (2, 3)\n'
        'in_types[1].shape = (4, 1, 3)\n'
        'in_types[2].shape = (5,)\n'
        'in_types[3].shape = (4, 2, 1)')
    assert info.value.expect == ''
    assert info.value.actual == ''


def test_expect_broadcast_shapes_has_no_header():
    types = _types(numpy.zeros((2, 3)), numpy.zeros(5))
    T._argname(types, ('lhs', 'rhs'))
    with pytest.raises(T.InvalidType) as info:
        with T.get_function_check_context(_FakeFunction()):
            T.expect_broadcast_shapes(types[0].shape, types[1].shape)
    assert str(info.value) == (
        'cannot broadcast inputs of the following shapes:\n'
        'lhs.shape = (2, 3)\nrhs.shape = (5,)')


@pytest.mark.parametrize('shapes,ok', [
    (((2, 3), (3,)), True),
    (((2, 3), (2, 3)), True),
    (((4, 1, 3), (2, 1), (3,)), True),
    (((0, 3), (1, 3)), True),
    (((), (5,)), True),
    (((2, 3), (5,)), False),
    (((0,), (2,)), False),
    (((2, 1), (3, 1), (1,)), False),
], ids=['trailing', 'same', 'three', 'zero', 'scalar', 'mismatch',
        'zero_mismatch', 'first_pair'])
def test_expect_broadcast_shapes_light_mode(shapes, ok):
    with T.light_mode:
        if ok:
            T.expect_broadcast_shapes(*shapes)
        else:
            with pytest.raises(T.InvalidType) as info:
                T.expect_broadcast_shapes(*shapes)
            lines = str(info.value).split('\n')
            assert lines[0] == (
                'cannot broadcast inputs of the following shapes:')
            assert lines[1:] == ['{} = {}'.format(s, s) for s in shapes]


# --- light mode --------------------------------------------------------------

def test_light_mode_flag():
    assert not T.in_light_mode()
    with T.light_mode:
        assert T.in_light_mode()
        with T.light_mode:
            assert T.in_light_mode()
        assert T.in_light_mode()
    assert not T.in_light_mode()
    assert isinstance(T.light_mode, T.LightMode)


def test_light_mode_restored_after_error():
    with pytest.raises(ValueError):
        with T.light_mode:
            raise ValueError()
    assert not T.in_light_mode()


def test_light_mode_is_per_thread():
    seen = []
    with T.light_mode:
        thread = threading.Thread(target=lambda: seen.append(
            T.in_light_mode()))
        thread.start()
        thread.join()
    assert seen == [False]


def test_light_mode_expect():
    with T.light_mode:
        T.expect(True, 1, numpy.bool_(True))
        for value in (False, 0, numpy.bool_(False)):
            with pytest.raises(T.InvalidType) as info:
                T.expect(True, value)
            assert str(info.value) == 'Expect: \nActual: '
            assert info.value.expect == ''
            assert info.value.actual == ''


def test_light_mode_plain_values():
    with T.light_mode:
        assert T.eval(5) == 5
        assert T.make_variable(3, 'n') == 3
        assert T.prod((2, 3)) == 6
        assert T.prod(()) == 1


def test_get_light_types():
    x = numpy.zeros((2, 3), numpy.float32)
    y = numpy.zeros((3,), numpy.int32)
    data = T.get_light_types((x, y))
    assert isinstance(data, T.LightTypeInfoTuple)
    assert data.size() == 2
    assert data[0] is x
    with pytest.raises(AssertionError):
        T.get_light_types([x, y])


def test_get_light_types_with_shapes():
    x = numpy.zeros((2, 3), numpy.float32)
    data = T.get_light_types((x,), shapes=((5, 6),))
    assert isinstance(data[0], T.TypeInfo)
    assert data[0].shape == (5, 6)
    assert data[0].dtype == numpy.float32


class _Linear:

    label = 'LinearFunction'

    def check_type_forward(self, in_types):
        T._argname(in_types, ('x', 'W'))
        x_type, w_type = in_types
        T.expect(
            in_types.size() == 2,
            x_type.dtype.kind == 'f',
            x_type.ndim == 2,
            w_type.ndim == 2,
        )
        T.expect(x_type.shape[1] == w_type.shape[1])

    def check(self, in_data):
        try:
            with T.light_mode:
                self.check_type_forward(T.get_light_types(in_data))
            return
        except T.InvalidType:
            pass
        in_types = T.get_types(in_data, 'in_types', False)
        with T.get_function_check_context(self):
            self.check_type_forward(in_types)


def test_two_stage_check_passes():
    _Linear().check((numpy.zeros((2, 3), numpy.float32),
                     numpy.zeros((4, 3), numpy.float32)))
    assert not T.in_light_mode()


@pytest.mark.parametrize('shapes,dtype,message', [
    (((2, 3), (4, 2)), numpy.float32,
     'Expect: x.shape[1] == W.shape[1]\nActual: 3 != 2'),
    (((2, 3), (4, 3)), numpy.int32,
     'Expect: x.dtype.kind == f\nActual: i != f'),
    (((2,), (4, 3)), numpy.float64,
     'Expect: x.ndim == 2\nActual: 1 != 2'),
], ids=['shape', 'dtype', 'ndim'])
def test_two_stage_check_fails(shapes, dtype, message):
    data = tuple(numpy.zeros(s, dtype) for s in shapes)
    with pytest.raises(T.InvalidType) as info:
        _Linear().check(data)
    assert str(info.value) == (
        '\nInvalid operation is performed in: LinearFunction (Forward)\n\n'
        + message)
    assert not T.in_light_mode()


def test_two_stage_check_argument_count():
    with pytest.raises(T.InvalidType) as info:
        _Linear().check((numpy.zeros((2, 3), numpy.float32),))
    assert str(info.value) == 'Invalid number of arguments'
