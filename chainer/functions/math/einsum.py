from chainer import backend
from chainer.functions.array import cast
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'
_LETTER_SET = frozenset(_LETTERS)


def _unique(subscript):
    # The letters of ``subscript`` in the order they first appear.
    return ''.join(dict.fromkeys(subscript))


class EinSum(function_node.FunctionNode):

    """Einstein summation over explicit subscripts.

    Args:
        in_subs (tuple of str): The subscripts of the operands, one letter
            per axis (no ellipsis).
        out_sub (str): The subscripts of the output; its letters all
            appear in ``in_subs`` and none is repeated.
    """

    def __init__(self, in_subs, out_sub):
        self.in_subs = tuple(in_subs)
        self.out_sub = out_sub

    def check_type_forward(self, in_types):
        for i, in_type in enumerate(in_types):
            type_check._argname((in_type,), ('x{}'.format(i),))
            type_check.expect(in_type.dtype.kind == 'f')
        type_check.expect(in_types.size() == len(self.in_subs))
        for in_type, sub in zip(in_types, self.in_subs):
            type_check.expect(in_type.ndim == len(sub))
        # Axes that share a letter must have the same length.
        first = {}
        for i, sub in enumerate(self.in_subs):
            for axis, letter in enumerate(sub):
                if letter in first:
                    j, j_axis = first[letter]
                    type_check.expect(
                        in_types[j].shape[j_axis] == in_types[i].shape[axis])
                else:
                    first[letter] = i, axis

    def _einsum(self, xp, inputs, out_sub):
        spec = '{}->{}'.format(','.join(self.in_subs), out_sub)
        if len(inputs) > 1:
            return xp.einsum(spec, *inputs, optimize=True)
        return xp.einsum(spec, *inputs)

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        return utils.force_array(self._einsum(xp, inputs, self.out_sub)),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        xs = self.get_retained_inputs()
        ret = []
        for i in indexes:
            subs = (self.out_sub,) + self.in_subs[:i] + self.in_subs[i + 1:]
            operands = (gy,) + xs[:i] + xs[i + 1:]
            gx, = DiagEinSum(subs, self.in_subs[i], xs[i].shape).apply(
                operands)
            if gx.dtype != xs[i].dtype:
                gx = cast.cast(gx, xs[i].dtype)
            ret.append(gx)
        return ret


class DiagEinSum(EinSum):

    """Einstein summation whose output may repeat letters or have new ones.

    A repeated output letter writes the result on a diagonal (zeros
    elsewhere); a letter absent from the operands broadcasts the result
    along its axis. Gradients of :class:`EinSum` take this form.

    Args:
        in_subs (tuple of str): The subscripts of the operands.
        out_sub (str): The subscripts of the output.
        out_shape (tuple of int): The shape of the output.
    """

    def __init__(self, in_subs, out_sub, out_shape):
        super().__init__(in_subs, out_sub)
        self.out_shape = tuple(out_shape)

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        out_sub = self.out_sub
        unique = _unique(out_sub)
        in_letters = set(''.join(self.in_subs))
        computed = ''.join(c for c in unique if c in in_letters)
        y = self._einsum(xp, inputs, computed)
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
            chars.append('...')
        elif isinstance(s, int) and not isinstance(s, bool):
            if not 0 <= s < len(_LETTERS):
                raise ValueError(
                    'subscript is not within the valid range [0, {})'
                    .format(len(_LETTERS)))
            chars.append(_LETTERS[s])
        else:
            raise TypeError(
                'For this input type lists must contain either int or '
                'Ellipsis')
    return ''.join(chars)


def _parse_einsum_input(operands):
    """Splits the arguments of :func:`einsum`.

    Returns:
        tuple: The input subscripts (list of str, each possibly holding
        ``'...'``), the output subscript (str, or ``None`` when implicit)
        and the operands.
    """
    if not operands:
        raise ValueError('No input operands')
    if isinstance(operands[0], str):
        subscripts = operands[0].replace(' ', '')
        operands = operands[1:]
        for c in subscripts:
            if c not in '.,->' and c not in _LETTER_SET:
                raise ValueError(
                    'Character {} is not a valid symbol.'.format(c))
    else:
        pairs = list(operands)
        out_list = pairs.pop() if len(pairs) % 2 else None
        operands = pairs[0::2]
        subscripts = ','.join(
            _sublist_to_subscript(s) for s in pairs[1::2])
        if out_list is not None:
            subscripts += '->' + _sublist_to_subscript(out_list)

    if subscripts.count('-') > 1 or subscripts.count('>') > 1 or (
            subscripts.count('-') != subscripts.count('>')):
        raise ValueError("Subscripts can only contain one '->'.")
    if '->' in subscripts:
        lhs, out_sub = subscripts.split('->')
    else:
        lhs, out_sub = subscripts, None
    in_subs = lhs.split(',')
    if len(in_subs) != len(operands):
        raise ValueError('Number of einsum subscripts must be equal to the '
                         'number of operands.')
    for sub in in_subs + ([] if out_sub is None else [out_sub]):
        if '.' in sub and (sub.count('.') != 3 or sub.count('...') != 1):
            raise ValueError('Invalid Ellipses.')
    return in_subs, out_sub, operands


def _expand_subscripts(in_subs, out_sub, ndims):
    # Replaces each '...' by letters of its own, aligned to the right as
    # in broadcasting, and makes the output explicit.
    used = set(''.join(in_subs)) | set(out_sub or '')
    free = [c for c in _LETTERS if c not in used]
    n_ell = []
    for i, (sub, ndim) in enumerate(zip(in_subs, ndims)):
        n_named = len(sub) - 3 if '...' in sub else len(sub)
        if '...' in sub:
            if ndim < n_named:
                raise ValueError(
                    'einstein sum subscripts string contains too many '
                    'subscripts for operand {}'.format(i))
            n_ell.append(ndim - n_named)
        elif ndim > n_named:
            raise ValueError(
                'operand has more dimensions than subscripts given in '
                "einstein sum, but no '...' ellipsis provided to broadcast "
                'the extra dimensions.')
        elif ndim < n_named:
            raise ValueError(
                'einstein sum subscripts string contains too many '
                'subscripts for operand {}'.format(i))
        else:
            n_ell.append(0)
    max_ell = max(n_ell) if n_ell else 0
    ell = ''.join(free[:max_ell])
    expanded = [
        sub.replace('...', ell[max_ell - k:]) if '...' in sub else sub
        for sub, k in zip(in_subs, n_ell)]

    counts = {}
    for sub in expanded:
        for c in sub:
            counts[c] = counts.get(c, 0) + 1
    if out_sub is None:
        out = ell + ''.join(sorted(
            c for c, n in counts.items() if n == 1 and c not in ell))
    else:
        out = out_sub.replace('...', ell)
        for c in out:
            if c not in counts:
                raise ValueError(
                    'Output character {} did not appear in the input'
                    .format(c))
            if out.count(c) > 1:
                raise ValueError(
                    'einstein sum subscripts string includes output '
                    "subscript '{}' multiple times".format(c))
    return expanded, out


def einsum(*operands):
    """Einstein summation.

    Two forms are accepted, as in :func:`numpy.einsum`:

    - ``einsum(subscripts, x0, x1, ...)``
    - ``einsum(x0, sublist0, x1, sublist1, ..., [sublistout])``

    The axes that share a letter must have the same length (no
    broadcasting of length-one axes). Without ``->`` the output holds, in
    alphabetical order, the letters that appear once, after the axes of
    ``...``.

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
    in_subs, out_sub = _expand_subscripts(
        in_subs, out_sub, [x.ndim for x in operands])
    y, = EinSum(in_subs, out_sub).apply(operands)
    return y
