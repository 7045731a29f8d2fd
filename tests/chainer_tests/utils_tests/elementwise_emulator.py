"""Runs the source of an element-wise CUDA kernel on NumPy arrays.

The tests of the kernel generators (``chainer.utils.conv_nd_kernel`` and
the N-dimensional pooling kernels) check what the generated source
computes without a GPU: this module translates it into Python and runs it
for each value of the loop index ``i``, as :class:`cupy.ElementwiseKernel`
would. It understands the C these generators write: declarations of
``int``, ``T`` and ``S`` variables, assignments, ``/=``, ``if`` / ``else``
blocks, ``for`` loops counting up, ``continue``, ``max``, ``min``, casts to
``T`` and C's integer division and remainder (which truncate toward zero).
``T`` is computed in float64.
"""

import ast
import math
import re

import numpy


def _cdiv(a, b):
    if isinstance(a, (int, numpy.integer)) and \
            isinstance(b, (int, numpy.integer)):
        q = abs(int(a)) // abs(int(b))
        return q if (a >= 0) == (b >= 0) else -q
    if b == 0:
        return math.copysign(math.inf, a)
    return a / b


def _cmod(a, b):
    return int(a) - int(b) * _cdiv(a, b)


class _CArithmetic(ast.NodeTransformer):

    def visit_BinOp(self, node):
        self.generic_visit(node)
        helper = {ast.Div: '_cdiv', ast.Mod: '_cmod'}.get(type(node.op))
        if helper is None:
            return node
        return ast.Call(ast.Name(helper, ast.Load()),
                        [node.left, node.right], [])


def _rename(text):
    # ``in`` is a keyword of Python.
    return re.sub(r'\bin\b', 'in_', text)


def _expression(text):
    text = _rename(text).replace('&&', ' and ').replace('||', ' or ')
    text = re.sub(r'\(T\)(\w+|\([^()]*\))', r'_T(\1)', text)
    tree = _CArithmetic().visit(ast.parse(text.strip(), mode='eval'))
    return ast.unparse(ast.fix_missing_locations(tree))


_STATEMENTS = [
    (r'for \(int (\w+) = (.+); \1 < (.+); \+\+\1\) \{$',
     lambda m: ('for {} in range(int({}), int({})):'.format(
         m[1], _expression(m[2]), _expression(m[3])), 1)),
    (r'if \((.*)\) continue;$',
     lambda m: ('if {}: continue'.format(_expression(m[1])), 0)),
    (r'if \((.*)\) \{$',
     lambda m: ('if {}:'.format(_expression(m[1])), 1)),
    (r'\} else \{$', lambda m: ('else:', 0)),
    (r'\}$', lambda m: (None, -1)),
    (r'(?:int|T|S) (\w+) = (.*);$',
     lambda m: ('{} = {}'.format(m[1], _expression(m[2])), 0)),
    (r'(\w+) /= (.*);$',
     lambda m: ('{0} = _cdiv({0}, {1})'.format(m[1], _expression(m[2])), 0)),
    (r'(\w+) = (.*);$',
     lambda m: ('{} = {}'.format(_rename(m[1]), _expression(m[2])), 0)),
]


def translate(operation):
    """Translates the operation of a kernel into lines of Python."""
    lines = []
    depth = 1
    for line in operation.split('\n'):
        line = line.strip()
        for pattern, make in _STATEMENTS:
            match = re.match(pattern, line)
            if match:
                break
        else:
            raise ValueError('cannot translate: {!r}'.format(line))
        python, change = make(match)
        if python == 'else:':
            lines.append('    ' * (depth - 1) + python)
            lines.append('    ' * depth + 'pass')
            continue
        if python is not None:
            lines.append('    ' * depth + python)
        if change == 1:
            lines.append('    ' * (depth + 1) + 'pass')
        depth += change
    if depth != 1:
        raise ValueError('unbalanced blocks')
    return lines


def check_well_formed(operation):
    """Checks that brackets balance and that each line ends a statement or
    opens or closes a block."""
    for opening, closing in ('{}', '()', '[]'):
        depth = 0
        for c in operation:
            depth += (c == opening) - (c == closing)
            assert depth >= 0, operation
        assert depth == 0, operation
    for line in operation.split('\n'):
        assert line.rstrip().endswith((';', '{', '}')), line


def _params(text):
    # (is raw, name) of each declared parameter.
    params = []
    for declaration in text.split(','):
        words = declaration.split()
        params.append((words[0] == 'raw', _rename(words[-1])))
    return params


def run(kernel, size, *args):
    """Runs a kernel as ``cupy.ElementwiseKernel(*kernel)(*args)``.

    Args:
        kernel (tuple): ``(in_params, out_params, operation, name)``.
        size (int): The number of values of the loop index ``i``.
        args: The arguments: NumPy arrays (raw ones are read flat, the
            others element by element) and Python scalars; the outputs are
            arrays of ``size`` elements, written in place.
    """
    in_params, out_params, operation, _ = kernel
    inputs = _params(in_params)
    outputs = _params(out_params)
    names = [name for _, name in inputs + outputs]
    out_names = [name for _, name in outputs]
    source = ['def _kernel(i, {}):'.format(', '.join(names))]
    source += translate(operation)
    source.append('    return ({},)'.format(', '.join(out_names)))
    namespace = {'_cdiv': _cdiv, '_cmod': _cmod, '_T': numpy.float64}
    exec('\n'.join(source), namespace)
    kernel_function = namespace['_kernel']

    flat_args = [a.reshape(-1) if isinstance(a, numpy.ndarray) else a
                 for a in args]
    out_arrays = flat_args[len(inputs):]
    for i in range(size):
        values = []
        for (raw, _), a in zip(inputs + outputs, flat_args):
            if raw or not isinstance(a, numpy.ndarray):
                values.append(a)
            elif a.size == 1:
                values.append(a[0])
            else:
                values.append(a[i])
        results = kernel_function(i, *values)
        for out, value in zip(out_arrays, results):
            out[i] = value
