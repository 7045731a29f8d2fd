"""Einstein summation, :func:`einsum`."""

from chainer import backend
from chainer.functions.array import cast
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


# Letters of the axes, in the order of the integers of the sublist form
# (and of the implicit output, which is sorted), and the set of them.
einsum_symbols = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
einsum_symbols_set = set(einsum_symbols)
# Subscripts hold the ellipsis ``...`` as this single character.
_ELLIPSIS = '@'


def _unique(subscript):
    # The letters of ``subscript`` in the order they first appear.
    return ''.join(dict.fromkeys(subscript))


def _axes(subscript):
    # (axis, letter) of each letter of a subscript; the ellipsis covers a
    # slice of axes, counted from both ends.
    if _ELLIPSIS not in subscript:
        yield from enumerate(subscript)
        return
    head, tail = subscript.split(_ELLIPSIS)
    yield from enumerate(head)
    yield slice(len(head), -len(tail) or None), _ELLIPSIS
    for i, letter in enumerate(tail):
        yield i - len(tail), letter


def _spell_out(in_subs, ndims, out_sub, out_ndim=None):
    """Replaces the ellipsis of the subscripts by letters of its own.

    Args:
        in_subs (list of str): The subscripts of the operands.
        ndims (list of int): The number of axes of each operand.
        out_sub (str): The subscripts of the output.
        out_ndim (int): The number of axes of the output, to count the
            axes of an ellipsis that only the output has.

    Returns:
        tuple: The input subscripts, the output subscript and the letters
        that replaced the ellipsis.
    """
    n = 0
    for sub, ndim in zip(in_subs, ndims):
        if _ELLIPSIS in sub:
            n = ndim - len(sub) + 1
            break
    else:
        if out_ndim is not None and _ELLIPSIS in out_sub:
            n = out_ndim - len(out_sub) + 1
    used = set(''.join(in_subs) + out_sub)
    free = [c for c in einsum_symbols if c not in used]
    ellipsis = ''.join(free[:max(n, 0)])
    return ([sub.replace(_ELLIPSIS, ellipsis) for sub in in_subs],
            out_sub.replace(_ELLIPSIS, ellipsis), ellipsis)


def _einsum(xp, inputs, in_subs, out_sub):
    spec = '{}->{}'.format(','.join(in_subs), out_sub)
    if len(inputs) > 1:
        return xp.einsum(spec, *inputs, optimize=True)
    return xp.einsum(spec, *inputs)


class EinSum(function_node.FunctionNode):

    """Einstein summation.

    Args:
        in_subs (str): The subscripts of the operands, separated by commas;
            ``@`` (or ``...``) stands for the axes of an ellipsis, which
            all operands that have one share.
        out_sub (str): The subscripts of the output; if the operands have
            an ellipsis of one axis or more, so does the output (its axes
            are not summed over).
    """

    def __init__(self, in_subs, out_sub):
        self.in_subs = in_subs.replace('...', _ELLIPSIS)
        self.out_sub = out_sub.replace('...', _ELLIPSIS)

    def check_type_forward(self, in_types):
        for i, in_type in enumerate(in_types):
            type_check._argname((in_type,), ('x{}'.format(i),))
            type_check.expect(in_type.dtype.kind == 'f')
        in_subs = self.in_subs.split(',')
        type_check.expect(in_types.size() == len(in_subs))
        # Axes that share a letter (or the ellipsis) have the same lengths.
        shapes = {}
        for in_type, sub in zip(in_types, in_subs):
            for axis, letter in _axes(sub):
                shape = in_type.shape[axis]
                if letter in shapes:
                    type_check.expect(shapes[letter] == shape)
                else:
                    shapes[letter] = shape

    def _spelled_out(self, inputs):
        return _spell_out(
            self.in_subs.split(','), [x.ndim for x in inputs], self.out_sub)

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        in_subs, out_sub, ellipsis = self._spelled_out(inputs)
        if ellipsis and _ELLIPSIS not in self.out_sub:
            raise ValueError(
                'einsum does not sum over the axes of an ellipsis (\'...\'); '
                'name them with letters to sum over them')
        return utils.force_array(_einsum(xp, inputs, in_subs, out_sub)),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        xs = self.get_retained_inputs()
        in_subs = self.in_subs.split(',')
        ret = []
        for i in indexes:
            subs = in_subs[:i] + [self.out_sub] + in_subs[i + 1:]
            operands = xs[:i] + (gy,) + xs[i + 1:]
            gx, = DiagEinSum(','.join(subs), in_subs[i], xs[i].shape).apply(
                operands)
            if gx.dtype != xs[i].dtype:
                gx = cast.cast(gx, xs[i].dtype)
            ret.append(gx)
        return ret


class DiagEinSum(EinSum):

    """Einstein summation whose output may repeat letters or have new ones.

    A repeated output letter writes the result on a diagonal (zeros
    elsewhere); a letter absent from the operands broadcasts the result
    along its axis; the axes of an ellipsis absent from the output are
    summed over. Gradients of :class:`EinSum` take this form.

    Args:
        in_subs (str): The subscripts of the operands, separated by commas.
        out_sub (str): The subscripts of the output.
        out_shape (tuple of int): The shape the result has.
    """

    def __init__(self, in_subs, out_sub, out_shape):
        super().__init__(in_subs, out_sub)
        self.out_shape = tuple(out_shape)

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        in_subs, out_sub, _ = _spell_out(
            self.in_subs.split(','), [x.ndim for x in inputs], self.out_sub,
            len(self.out_shape))
        unique = _unique(out_sub)
        in_letters = set(''.join(in_subs))
        computed = ''.join(c for c in unique if c in in_letters)
        y = _einsum(xp, inputs, in_subs, computed)
        if unique == out_sub and computed == out_sub:
            return utils.force_array(y),

        # Broadcast along the new letters, then write on the diagonal.
        y = y.reshape(tuple(
            y.shape[computed.index(c)] if c in computed else 1
            for c in unique))
        out = xp.zeros(self.out_shape, y.dtype)
        view_shape = []
        view_strides = []
        for c in unique:
            axes = [k for k, d in enumerate(out_sub) if d == c]
            view_shape.append(self.out_shape[axes[0]])
            view_strides.append(sum(out.strides[k] for k in axes))
        view = xp.lib.stride_tricks.as_strided(
            out, tuple(view_shape), tuple(view_strides))
        view[...] = y
        return out,


def _sublist_to_subscript(sublist):
    chars = []
    for s in sublist:
        if s is Ellipsis:
            chars.append(_ELLIPSIS)
        elif isinstance(s, int):
            chars.append(einsum_symbols[s])
        else:
            raise TypeError(
                'For this input type lists must contain either int or '
                'Ellipsis')
    return ''.join(chars)


def _parse_einsum_input(operands):
    """Splits the arguments of :func:`einsum`.

    Returns:
        tuple: The input subscripts (str, separated by commas, with ``@``
        for an ellipsis), the output subscript (str) and the operands.
    """
    if not operands:
        raise ValueError('No input operands')
    if isinstance(operands[0], str):
        subscripts = operands[0].replace(' ', '')
        operands = operands[1:]
        for c in subscripts:
            if c not in '.,->' and c not in einsum_symbols_set:
                raise ValueError(
                    'Character {} is not a valid symbol.'.format(c))
        if ('-' in subscripts or '>' in subscripts) and (
                subscripts.count('-') > 1 or subscripts.count('>') > 1
                or subscripts.count('->') != 1):
            raise ValueError("Subscripts can only contain one '->'.")
        subscripts = subscripts.replace('...', _ELLIPSIS)
        if '.' in subscripts:
            raise ValueError('Invalid Ellipses.')
    else:
        pairs = list(operands)
        out_list = pairs.pop() if len(pairs) % 2 else None
        operands = pairs[0::2]
        subscripts = ','.join(
            _sublist_to_subscript(s) for s in pairs[1::2])
        if out_list is not None:
            subscripts += '->' + _sublist_to_subscript(out_list)

    if '->' in subscripts:
        in_subs, out_sub = subscripts.split('->')
        for c in out_sub:
            if c not in in_subs:
                raise ValueError(
                    'Output character {} did not appear in the input'.format(
                        '...' if c == _ELLIPSIS else c))
    else:
        # Implicit output: the ellipsis, then the letters that appear once,
        # in sorted order.
        in_subs = subscripts
        letters = subscripts.replace(',', '')
        out_sub = ''.join(
            c for c in sorted(set(letters))
            if c == _ELLIPSIS or letters.count(c) == 1)
    if len(in_subs.split(',')) != len(operands):
        raise ValueError('Number of einsum subscripts must be equal to the '
                         'number of operands.')
    return in_subs, out_sub, operands


def einsum(*operands):
    """Einstein summation.

    Two forms are accepted, as in :func:`numpy.einsum`:

    - ``einsum(subscripts, x0, x1, ...)``
    - ``einsum(x0, sublist0, x1, sublist1, ..., [sublistout])``

    The axes that share a letter must have the same length, and the axes
    of ``...`` the same shape in every operand (no broadcasting of
    length-one axes). The output keeps the axes of ``...``: summing over
    them raises :class:`ValueError`. Without ``->`` the output holds, in
    sorted order (upper-case letters first), the letters that appear once,
    after the axes of ``...``.

    Args:
        operands: The subscripts and the operands
            (:class:`~chainer.Variable` or :ref:`ndarray`, float dtypes).

    Returns:
        ~chainer.Variable: Output variable.

    .. admonition:: Example

        A batched bilinear form:

        >>> x1 = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> x2 = np.arange(8, dtype=np.float32).reshape(2, 4)
        >>> w = np.ones((3, 4, 5), np.float32)
        >>> F.einsum('ij,ik,jkl->il', x1, x2, w).shape
        (2, 5)
        >>> F.einsum('...j,...k,jkl', x1, x2, w).shape
        (2, 5)
        >>> F.einsum(x1, [0, 1], x2, [0, 2], w, [1, 2, 3], [0, 3]).shape
        (2, 5)

    """
    in_subs, out_sub, operands = _parse_einsum_input(operands)
    y, = EinSum(in_subs, out_sub).apply(operands)
    return y
