from chainer import backend
from chainer.functions.array import reshape
from chainer.functions.math import cumsum as cumsum_module
from chainer import function_node


def _slices(ndim, axis, index):
    key = [slice(None)] * ndim
    key[axis] = index
    return tuple(key)


class _Shift(function_node.FunctionNode):

    """Shifts elements by one along an axis, filling the vacated end.

    With ``offset=1`` the output is ``y[i] = x[i - 1]`` and ``y[0] = fill``;
    with ``offset=-1`` it is ``y[i] = x[i + 1]`` and ``y[-1] = fill``.
    """

    def __init__(self, axis, offset, fill):
        self.axis = axis
        self.offset = offset
        self.fill = fill

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        y = xp.empty_like(x)
        axis = self.axis
        n = x.shape[axis]
        if self.offset > 0:
            y[_slices(x.ndim, axis, slice(1, None))] = \
                x[_slices(x.ndim, axis, slice(None, n - 1))]
            y[_slices(x.ndim, axis, slice(None, 1))] = self.fill
        else:
            y[_slices(x.ndim, axis, slice(None, n - 1))] = \
                x[_slices(x.ndim, axis, slice(1, None))]
            y[_slices(x.ndim, axis, slice(n - 1, None))] = self.fill
        return y,

    def backward(self, indexes, grad_outputs):
        return _Shift(self.axis, -self.offset, 0).apply(grad_outputs)


def _shift(x, axis, offset, fill):
    y, = _Shift(axis, offset, fill).apply((x,))
    return y


def _scan(a, b, axis, xp):
    # Solves z[i] = b[i] + a[i] * z[i - 1] (z[-1] = 0) along ``axis`` by a
    # parallel prefix scan: log2(n) vectorised steps, safe with zeros.
    a = a.copy()
    b = b.copy()
    n = b.shape[axis]
    ndim = b.ndim
    step = 1
    while step < n:
        hi = _slices(ndim, axis, slice(step, None))
        lo = _slices(ndim, axis, slice(None, n - step))
        b[hi] = b[hi] + a[hi] * b[lo]
        a[hi] = a[hi] * a[lo]
        step *= 2
    return b


class Cumprodsum(function_node.FunctionNode):

    """The linear recurrence ``z[i] = xadd[i] + xmul[i] * z[i - 1]``.

    ``z[-1]`` is zero, so ``xmul[0]`` is not used. With ``reverse=True``
    the recurrence runs from the end: ``z[i] = xadd[i] + xmul[i] *
    z[i + 1]``. The gradient of the cumulative product is built on it.
    """

    def __init__(self, axis, reverse=False):
        self.axis = axis
        self.reverse = reverse

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xmul, xadd = inputs
        xp = backend.get_array_module(xmul, xadd)
        axis = self.axis
        if self.reverse:
            z = _scan(xp.flip(xmul, axis), xp.flip(xadd, axis), axis, xp)
            return xp.flip(z, axis),
        return _scan(xmul, xadd, axis, xp),

    def backward(self, indexes, grad_outputs):
        xmul, = self.get_retained_inputs()
        z, = self.get_retained_outputs()
        gz, = grad_outputs
        axis = self.axis
        # z[i] reads z[i - step]; the adjoint runs the other way.
        step = -1 if self.reverse else 1
        u, = Cumprodsum(axis, not self.reverse).apply(
            (_shift(xmul, axis, -step, 0), gz))
        ret = []
        if 0 in indexes:
            ret.append(u * _shift(z, axis, step, 0))
        if 1 in indexes:
            ret.append(u)
        return ret


class Cumprod(function_node.FunctionNode):

    """Cumulative product of array elements along an axis.

    With ``reverse=True`` the products run from the end of the axis.
    """

    # The arguments and the input of the cumulative sum.
    __init__ = cumsum_module.Cumsum.__init__
    check_type_forward = cumsum_module.Cumsum.check_type_forward

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return cumsum_module._cumulative(
            xp.cumprod, xp, x, self.axis, self.reverse),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        in_shape = x.shape
        if self.axis is None:
            x = reshape.reshape(x, (x.size,))
            axis = 0
        else:
            axis = self.axis % x.ndim
        # gx[i] = prod(x[:i]) * sum_{j >= i} gy[j] * prod(x[i + 1:j + 1]),
        # written so that zeros in x need no division.
        step = -1 if self.reverse else 1
        before = _shift(y, axis, step, 1)
        after, = Cumprodsum(axis, not self.reverse).apply(
            (_shift(x, axis, -step, 0), gy))
        return reshape.reshape(before * after, in_shape),


def _exclusive_cumprod(x, axis, reverse=False):
    # Product of the elements before each one (after it, if ``reverse``).
    y, = Cumprod(axis, reverse).apply((x,))
    return _shift(y, axis, -1 if reverse else 1, 1)


def cumprod(x, axis=None):
    """Cumulative product of array elements along an axis.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): A float array.
        axis (int or None): The axis to multiply along. ``None`` (default)
            multiplies the flattened array.

    Returns:
        ~chainer.Variable: Output variable; 1-D when ``axis`` is ``None``.
        Zeros in ``x`` are allowed: the gradient does not divide by ``x``.

    .. admonition:: Example

        >>> x = np.array([[1., 2., 3.], [4., 5., 6.]], np.float32)
        >>> F.cumprod(x, axis=1).array
        array([[  1.,   2.,   6.],
               [  4.,  20., 120.]], dtype=float32)

    """
    y, = Cumprod(axis).apply((x,))
    return y
