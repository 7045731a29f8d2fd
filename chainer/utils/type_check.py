"""Type checking of function inputs by lazily evaluated expressions.

A function states the contract of its inputs in ``check_type_forward``
with expressions such as ``x_type.shape[1] == w_type.shape[0]``. Outside
the light mode, the inputs are :class:`Variable` expressions wrapping a
:class:`TypeInfo`; each comparison builds a :class:`BoolBinaryOperator`
that :func:`expect` evaluates and, when it fails, turns into an
:class:`InvalidType` whose message shows both the expression and the
values it took.

In the light mode (see :data:`light_mode`), the same code runs directly on
the raw arrays: comparisons are plain Python booleans and :func:`expect`
only checks their truth. This is the fast path taken on every call; the
expression path is only used to build a message once a check failed.
"""

import contextlib
import math
import operator
import sys
import threading

import numpy

_ATOM_PRIORITY = 8
_COMPARISON_PRIORITY = -1


class _ThreadState(threading.local):
    light_depth = 0
    current_function = None


_thread_local = _ThreadState()


def _light_depth():
    # How deeply the current thread is in the light mode.
    return _thread_local.light_depth


def _enter_light():
    _thread_local.light_depth += 1


def _leave_light():
    _thread_local.light_depth -= 1


def _use_light_depth(depth, enter, leave):
    """Keeps the light mode's depth in other per-thread storage: the
    compiled autograd core's, which checks types in the light mode itself
    (chainer._compiled_core). The three functions replace
    :func:`_light_depth`, :func:`_enter_light` and :func:`_leave_light`;
    call it only while no thread is in the light mode."""
    global _light_depth, _enter_light, _leave_light
    _light_depth, _enter_light, _leave_light = depth, enter, leave


def _is_array(value):
    if isinstance(value, numpy.ndarray):
        return True
    cupy = sys.modules.get('cupy')
    return cupy is not None and isinstance(value, cupy.ndarray)


class TypeInfo:
    """Shape and dtype of one array, as seen by a type check.

    Args:
        shape (tuple of int): The array's shape.
        dtype: Data type of the array (``None`` for an absent input).

    Attributes:
        shape (tuple of int): The array's shape.
        dtype: The array's dtype.
        ndim (int): Number of dimensions.

    """

    def __init__(self, shape, dtype):
        self.shape = shape
        self.dtype = dtype
        self.ndim = len(shape)

    @property
    def size(self):
        """int: Number of elements of the array."""
        return _prod_impl(self.shape)


class TypeInfoTuple(tuple):
    """Tuple of :class:`Variable` expressions describing the inputs.

    Attributes:
        name (str): Name of the tuple used in messages (``in_types``).

    """

    def size(self):
        """Returns the number of inputs as an expression.

        Returns:
            Variable: Expression named ``<name>.size`` that evaluates to
            the length of the tuple.

        """
        return Variable(len(self), f'{self.name}.size')


class LightTypeInfoTuple(tuple):
    """Tuple of raw arrays checked in the light mode."""

    def size(self):
        """Returns the number of inputs.

        Returns:
            int: How many items the tuple has.

        """
        return len(self)


def get_types(data, name, accept_none, *, shapes=None):
    """Builds the expressions describing a tuple of arrays.

    Args:
        data (tuple): Arrays (or ``None`` when ``accept_none`` is true).
        name (str): Name of the tuple, e.g. ``'in_types'``; the items are
            named ``name[0]``, ``name[1]``, ...
        accept_none (bool): Whether ``None`` items are allowed. Such an
            item is described by an empty shape and a ``None`` dtype.
        shapes (tuple of tuples): Shapes to use instead of the arrays'
            own shapes.

    Returns:
        TypeInfoTuple: One :class:`Variable` per array.

    """
    assert isinstance(data, tuple)
    if shapes is None:
        shapes = tuple(None if x is None else x.shape for x in data)
    info = TypeInfoTuple(
        _get_type(name, i, x, accept_none, shape)
        for i, (x, shape) in enumerate(zip(data, shapes)))
    info.name = name
    return info


def get_light_types(data, *, shapes=None):
    """Wraps raw arrays for a check run in the light mode.

    Args:
        data (tuple): Arrays.
        shapes (tuple of tuples): Shapes to use instead of the arrays'
            own shapes; the items then become :class:`TypeInfo` objects.

    Returns:
        LightTypeInfoTuple: The arrays (or their type information).

    """
    assert isinstance(data, tuple)
    if shapes is None:
        return LightTypeInfoTuple(data)
    return LightTypeInfoTuple(
        TypeInfo((), None) if x is None else TypeInfo(shape, x.dtype)
        for x, shape in zip(data, shapes))


def _get_type(name, index, array, accept_none, shape):
    var = f'{name}[{index}]'
    if accept_none and array is None:
        return Variable(TypeInfo((), None), var)
    assert _is_array(array)
    return Variable(TypeInfo(shape, array.dtype), var)


def _make_variable_from_array(array, name):
    if not _is_array(array):
        raise InvalidType(
            f'isinstance({name}, ndarray)',
            f'type({name}) == {type(array)}')
    return Variable(TypeInfo(array.shape, array.dtype), name)


def _repr(value):
    """Formats a value as it appears inside an expression."""
    if isinstance(value, Expr):
        return str(value)
    if isinstance(value, tuple):
        items = [_repr(x) for x in value]
        if len(items) == 1:
            return f'({items[0]},)'
        return '({})'.format(', '.join(items))
    if isinstance(value, list):
        return '[{}]'.format(', '.join(_repr(x) for x in value))
    if isinstance(value, (numpy.number, numpy.bool_)):
        return str(value)
    return repr(value)


def _str(value):
    """Formats a value as it appears in an :class:`InvalidType` message."""
    if isinstance(value, (Expr, tuple, list)):
        return _repr(value)
    return str(value)


def _eval_expr(value):
    if isinstance(value, Expr):
        return value.eval()
    if isinstance(value, tuple):
        return tuple(_eval_expr(x) for x in value)
    if isinstance(value, list):
        return [_eval_expr(x) for x in value]
    if isinstance(value, slice):
        return slice(_eval_expr(value.start), _eval_expr(value.stop),
                     _eval_expr(value.step))
    return value


def _operand_str(value, parenthesize):
    if parenthesize:
        return f'({value})'
    return _repr(value)


def _atom_operand_str(value):
    return _operand_str(
        value, isinstance(value, Expr) and value.priority < _ATOM_PRIORITY)


def _flip(f):
    """Swaps the two arguments of a binary function."""
    return lambda x, y: f(y, x)


def _make_bin_operator(exp, priority, func, right_associative=False):
    def operator_method(x, y):
        return BinaryOperator(priority, x, y, exp, func, right_associative)
    return operator_method


# The binary operators of expressions by precedence (higher binds tighter),
# each as its symbol and its function in the ``operator`` module.
_BINARY_OPERATORS = {
    7: {'**': operator.pow},
    5: {'*': operator.mul, '/': operator.truediv, '//': operator.floordiv,
        '%': operator.mod},
    4: {'+': operator.add, '-': operator.sub},
    3: {'<<': operator.lshift, '>>': operator.rshift},
    2: {'&': operator.and_},
    1: {'^': operator.xor},
    0: {'|': operator.or_},
}


def _with_binary_operators(cls):
    """Gives ``cls`` the methods of :data:`_BINARY_OPERATORS`: ``__add__``
    and its reflected ``__radd__``, and so on (``**`` is right
    associative)."""
    for priority, operators in _BINARY_OPERATORS.items():
        for exp, func in operators.items():
            name = func.__name__.rstrip('_')
            method = _make_bin_operator(exp, priority, func, exp == '**')
            setattr(cls, f'__{name}__', method)
            setattr(cls, f'__r{name}__', _flip(method))
    return cls


def _make_un_operator(exp, priority, func):
    def operator_method(x):
        return UnaryOperator(priority, x, exp, func)
    return operator_method


def _make_bool_operator(exp, inv, func):
    def operator_method(x, y):
        return BoolBinaryOperator(x, y, exp, inv, func)
    return operator_method


@_with_binary_operators
class Expr:
    """Node of a lazily evaluated type-check expression.

    Arithmetic, bitwise and comparison operators, attribute access,
    indexing and calls on an expression build new expressions. The value
    is computed by :meth:`eval` (or :func:`eval`); an expression cannot be
    used as a bool.

    Args:
        priority (int): Operator precedence, used to put parentheses in the
            string form (higher binds tighter).

    """

    __array_ufunc__ = None
    __hash__ = None

    def __init__(self, priority):
        self.priority = priority

    def eval(self):
        """Evaluates the expression.

        Returns:
            The value of the expression.

        """
        raise NotImplementedError()

    def __bool__(self):
        raise RuntimeError(
            'An Expr instance cannot be evaluated as bool. '
            'Please use chainer.utils.type_check.eval() to evaluate an '
            'expression.')

    def __getattr__(self, name):
        if name.startswith('__') and name.endswith('__'):
            raise AttributeError(
                f'{type(self).__name__!r} object has no attribute {name!r}')
        return GetAttr(self, name)

    def __getitem__(self, key):
        return GetItem(self, key)

    def __call__(self, *args):
        return Call(self, args)

    __eq__ = _make_bool_operator('==', '!=', operator.eq)
    __ne__ = _make_bool_operator('!=', '==', operator.ne)
    __lt__ = _make_bool_operator('<', '>=', operator.lt)
    __le__ = _make_bool_operator('<=', '>', operator.le)
    __gt__ = _make_bool_operator('>', '<=', operator.gt)
    __ge__ = _make_bool_operator('>=', '<', operator.ge)

    __neg__ = _make_un_operator('-', 6, operator.neg)
    __pos__ = _make_un_operator('+', 6, operator.pos)
    __invert__ = _make_un_operator('~', 6, operator.invert)


class Atom(Expr):
    """Expression that binds tighter than any operator."""

    def __init__(self):
        super().__init__(_ATOM_PRIORITY)


class Constant(Atom):
    """Expression of a fixed value, shown by its ``repr``.

    Args:
        value: The value.

    """

    def __init__(self, value):
        super().__init__()
        self.value = value

    def __str__(self):
        return _repr(self.value)

    def eval(self):
        return self.value


class Variable(Atom):
    """Named expression of a value, shown by its name.

    Args:
        value: The value, e.g. a :class:`TypeInfo`.
        name (str): Name shown in messages.

    """

    def __init__(self, value, name):
        super().__init__()
        self.value = value
        self.name = name

    def __str__(self):
        return self.name

    def eval(self):
        return self.value


class GetAttr(Atom):
    """Expression of an attribute access, ``obj.name``.

    Args:
        obj: Expression (or value) whose attribute is read.
        name: Attribute name, a string or an expression giving one.

    """

    def __init__(self, obj, name):
        super().__init__()
        self.obj = obj
        self.name = name

    def __str__(self):
        name = self.name
        if isinstance(name, Constant):
            name = name.value
        if isinstance(name, str):
            return f'{_atom_operand_str(self.obj)}.{name}'
        return f'getattr({_repr(self.obj)}, {_repr(self.name)})'

    def eval(self):
        return getattr(_eval_expr(self.obj), _eval_expr(self.name))


def _str_index(key):
    if isinstance(key, slice):
        start = '' if key.start is None else _repr(key.start)
        stop = '' if key.stop is None else _repr(key.stop)
        if key.step is None:
            return f'{start}:{stop}'
        return f'{start}:{stop}:{_repr(key.step)}'
    if key is Ellipsis:
        return '...'
    return _repr(key)


def _str_subscript(exp):
    """Formats an indexing key as written between brackets."""
    if isinstance(exp, tuple):
        return ', '.join(_str_index(key) for key in exp)
    return _str_index(exp)


class GetItem(Atom):
    """Expression of indexing, ``obj[key]``.

    Args:
        obj: Expression (or value) being indexed.
        key: Index, slice or tuple of them; may contain expressions.

    """

    def __init__(self, obj, key):
        super().__init__()
        self.obj = obj
        self.key = key

    def __str__(self):
        return f'{_atom_operand_str(self.obj)}[{_str_subscript(self.key)}]'

    def eval(self):
        return _eval_expr(self.obj)[_eval_expr(self.key)]


class Call(Atom):
    """Expression of a call, ``obj(*args)``.

    Args:
        obj: Expression (or value) of the callable.
        args (tuple): Arguments; may contain expressions.

    """

    def __init__(self, obj, args):
        assert isinstance(args, tuple)
        super().__init__()
        self.obj = obj
        self.args = args

    def __str__(self):
        return '{}({})'.format(
            _atom_operand_str(self.obj),
            ', '.join(_repr(arg) for arg in self.args))

    def eval(self):
        func = _eval_expr(self.obj)
        return func(*[_eval_expr(arg) for arg in self.args])


class UnaryOperator(Expr):
    """Expression of a prefix operator such as ``-x``.

    Args:
        priority (int): Precedence of the operator.
        term: Operand, an expression or a value.
        exp (str): Operator symbol.
        func (callable): Function computing the result from the operand.

    """

    def __init__(self, priority, term, exp, func):
        super().__init__(priority)
        self.term = term
        self.exp = exp
        self.func = func

    def __str__(self):
        term = self.term
        parenthesize = isinstance(term, Expr) and term.priority < self.priority
        return self.exp + _operand_str(term, parenthesize)

    def eval(self):
        return self.func(_eval_expr(self.term))


class BinaryOperator(Expr):
    """Expression of an infix operator such as ``x + y``.

    Args:
        priority (int): Precedence of the operator.
        lhs: Left operand, an expression or a value.
        rhs: Right operand, an expression or a value.
        exp (str): Operator symbol.
        func (callable): Function computing the result from the operands.
        right_associative (bool): Whether ``a op b op c`` means
            ``a op (b op c)``, as for ``**``.

    """

    def __init__(self, priority, lhs, rhs, exp, func,
                 right_associative=False):
        super().__init__(priority)
        self.lhs = lhs
        self.rhs = rhs
        self.exp = exp
        self.func = func
        self.right_associative = right_associative

    def _needs_parentheses(self, operand, associates):
        if not isinstance(operand, Expr):
            return False
        if operand.priority == self.priority:
            return not associates
        return operand.priority < self.priority

    def __str__(self):
        left = _operand_str(self.lhs, self._needs_parentheses(
            self.lhs, not self.right_associative))
        right = _operand_str(self.rhs, self._needs_parentheses(
            self.rhs, self.right_associative))
        return f'{left} {self.exp} {right}'

    def _eval_left(self):
        return _eval_expr(self.lhs)

    def _eval_right(self):
        return _eval_expr(self.rhs)

    def eval(self):
        return self.func(self._eval_left(), self._eval_right())


class Testable:
    """Mixin of expressions that :func:`expect` can check."""

    def expect(self):
        """Raises :class:`InvalidType` if the condition does not hold."""
        raise NotImplementedError()


class BoolBinaryOperator(BinaryOperator, Testable):
    """Expression of a comparison such as ``x.ndim == 2``.

    Args:
        lhs: Left operand, an expression or a value.
        rhs: Right operand, an expression or a value.
        exp (str): Comparison symbol.
        inv (str): Symbol of the negated comparison, shown with the actual
            values when the check fails.
        func (callable): Function comparing the operands.

    """

    def __init__(self, lhs, rhs, exp, inv, func):
        super().__init__(_COMPARISON_PRIORITY, lhs, rhs, exp, func)
        self.inv = inv

    def expect(self):
        left = self._eval_left()
        right = self._eval_right()
        if not self.func(left, right):
            raise InvalidType(
                f'{_str(self.lhs)} {self.exp} {_str(self.rhs)}',
                f'{_str(left)} {self.inv} {_str(right)}')


class InvalidType(Exception):
    """Raised when the types of a function's inputs are invalid.

    When raised inside :func:`get_function_check_context` without an
    explicit message, the message starts with the label of the function
    being checked.

    Args:
        expect (str): The condition that was expected.
        actual (str): What actually held.
        msg (str): Message replacing the one built from ``expect`` and
            ``actual``.

    Attributes:
        expect (str): The condition that was expected.
        actual (str): What actually held.

    """

    def __init__(self, expect, actual, msg=None):
        if msg is None:
            msg = f'Expect: {expect}\nActual: {actual}'
            function = _thread_local.current_function
            if function is not None:
                msg = ('\nInvalid operation is performed in: '
                       f'{function.label} (Forward)\n\n{msg}')
        super().__init__(msg)
        self.expect = expect
        self.actual = actual

    def __reduce__(self):
        return type(self), (self.expect, self.actual, self.args[0])


@contextlib.contextmanager
def get_function_check_context(f):
    """Names the function whose inputs are being checked.

    An :class:`InvalidType` created inside this context (without an
    explicit message) tells the label of ``f`` in its message.

    Args:
        f: The function, any object with a ``label`` attribute.

    """
    previous = _thread_local.current_function
    _thread_local.current_function = f
    try:
        yield
    finally:
        _thread_local.current_function = previous


class LightMode:
    """Context in which type checks run directly on raw arrays.

    Use the module-level instance :data:`light_mode`. Inside it,
    :func:`expect` only tests the truth of its arguments, and
    :func:`eval`, :func:`make_variable` and :func:`prod` work on plain
    values. The context may be nested.

    """

    def __enter__(self):
        _enter_light()

    def __exit__(self, exc_type, exc_value, traceback):
        _leave_light()


light_mode = LightMode()


def in_light_mode():
    """Tells whether the current thread is in the light mode.

    Returns:
        bool: ``True`` inside :data:`light_mode`.

    """
    return _light_depth() > 0


def expect(*bool_exprs):
    """Checks that all the given conditions hold.

    Args:
        *bool_exprs: Comparisons built from type-check expressions; plain
            truth values in the light mode.

    Raises:
        InvalidType: If a condition does not hold. In the light mode the
            error carries no message.

    """
    if _light_depth():
        if not all(bool_exprs):
            raise InvalidType('', '')
        return
    for expr in bool_exprs:
        assert isinstance(expr, Testable)
        expr.expect()


def eval(exp):
    """Evaluates a type-check expression.

    Args:
        exp: An expression; in the light mode, a plain value.

    Returns:
        The value of the expression (``exp`` itself in the light mode).

    """
    if _light_depth():
        return exp
    return _eval_expr(exp)


def make_variable(value, name):
    """Wraps a value in a named expression.

    Args:
        value: The value.
        name (str): Name shown in messages.

    Returns:
        Variable: The expression, or ``value`` itself in the light mode.

    """
    if _light_depth():
        return value
    return Variable(value, name)


def same_types(*arrays):
    """Tells whether all arrays belong to the same array module.

    Args:
        *arrays: Arrays to compare.

    Returns:
        bool: ``True`` if all are NumPy arrays or all are CuPy arrays.

    """
    if all(isinstance(x, numpy.ndarray) for x in arrays):
        return True
    cupy = sys.modules.get('cupy')
    return cupy is not None and all(isinstance(x, cupy.ndarray)
                                    for x in arrays)


def _broadcast_pair(a, b):
    """Broadcast shape of two shapes, or ``None`` if they do not match."""
    if len(a) < len(b):
        a, b = b, a
    lead = len(a) - len(b)
    dims = list(a[:lead])
    for p, q in zip(a[lead:], b):
        if p == q or q == 1:
            dims.append(p)
        elif p == 1:
            dims.append(q)
        else:
            return None
    return tuple(dims)


def _broadcastable(shapes):
    result = shapes[0]
    for shape in shapes[1:]:
        if shape != result:
            result = _broadcast_pair(result, shape)
            if result is None:
                return False
    return True


def expect_broadcast_shapes(*shape_types):
    """Checks that shapes can be broadcast together.

    Args:
        *shape_types: Shape expressions such as ``x_type.shape``; plain
            shape tuples in the light mode.

    Raises:
        InvalidType: If the shapes cannot be broadcast. The message lists
            each shape with its name.

    """
    if not shape_types:
        return
    if _light_depth():
        shapes = shape_types
    else:
        shapes = [_eval_expr(shape) for shape in shape_types]
    if _broadcastable(shapes):
        return
    lines = [f'{_str(expr)} = {_str(shape)}'
             for expr, shape in zip(shape_types, shapes)]
    raise InvalidType(
        '', '',
        'cannot broadcast inputs of the following shapes:\n'
        + '\n'.join(lines))


def _argname(in_types, names):
    """Names the input type expressions after the function's arguments.

    Args:
        in_types (tuple): Input type expressions.
        names (tuple of str): Argument names, one per input.

    Raises:
        InvalidType: If the numbers of inputs and names differ.

    """
    if len(in_types) != len(names):
        raise InvalidType(
            f'{len(names)} argument(s)',
            f'{len(in_types)} argument(s)',
            'Invalid number of arguments')
    if _light_depth():
        return
    for in_type, name in zip(in_types, names):
        if isinstance(in_type, Variable):
            in_type.name = name


argname = _argname


#: The checks made by :func:`_argument_check`, by function: the number of
#: inputs and whether the first must be of a floating dtype. The compiled
#: autograd core (``chainer._compiled_core``) runs these checks itself
#: where the inputs pass them.
_ARGUMENT_CHECKS = {}


def _argument_check(names, first_floating=False):
    """Makes a ``check_type_forward`` method that checks the arguments' count.

    The function takes one input per name in ``names`` (named after them in
    the messages) and, with ``first_floating``, the dtype of the first is a
    floating one. The method is that of a
    :class:`~chainer.FunctionNode` subclass whose inputs need nothing else::

        check_type_forward = type_check._argument_check(('x',), True)

    Args:
        names (tuple of str): The argument names.
        first_floating (bool): Whether the first input must be floating.

    Returns:
        function: The ``check_type_forward`` method.

    """
    names = tuple(names)

    def check_type_forward(self, in_types):
        _argname(in_types, names)
        if first_floating:
            expect(in_types[0].dtype.kind == 'f')

    _ARGUMENT_CHECKS[check_type_forward] = len(names), bool(first_floating)
    return check_type_forward


def _prod_impl(xs):
    return math.prod(xs)


_prod = Variable(_prod_impl, 'prod')


def prod(xs):
    """Product of the items of ``xs``, as an expression.

    Args:
        xs: Sequence (or expression of one) of numbers.

    Returns:
        Call: Expression ``prod(xs)``; in the light mode, the product
        itself (``1`` for an empty sequence).

    """
    if _light_depth():
        return _prod_impl(xs)
    return Call(_prod, (xs,))
