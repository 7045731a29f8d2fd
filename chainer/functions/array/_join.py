"""Type check shared by the functions that join arrays."""

from chainer.utils import type_check


def check_join_types(in_types, axis, name_inputs=False):
    """Checks that arrays can be joined along an axis.

    All inputs must have the dtype and the number of dimensions of the
    first one, and its shape except along ``axis``.

    Args:
        in_types: The input types (at least one).
        axis (int or None): The non-negative axis along which the shapes may
            differ; ``None`` if they must be equal.
        name_inputs (bool): Whether to name the inputs ``x0``, ``x1``, ...
            in messages.
    """
    x0 = in_types[0]
    if type_check.in_light_mode():
        # The fast path: plain comparisons. A failure is reported by the
        # full check below, which the caller runs next.
        dtype, ndim = x0.dtype, x0.ndim
        shape = list(x0.shape)
        if axis is not None:
            shape[axis] = None
        for x in in_types[1:]:
            if x.dtype != dtype or x.ndim != ndim:
                raise type_check.InvalidType('', '')
            other = list(x.shape)
            if axis is not None:
                other[axis] = None
            if other != shape:
                raise type_check.InvalidType('', '')
        return
    if name_inputs:
        for i, x in enumerate(in_types):
            type_check._argname((x,), ('x{}'.format(i),))
    ndim = type_check.eval(x0.ndim)
    for x in in_types[1:]:
        type_check.expect(x.dtype == x0.dtype, x.ndim == x0.ndim)
        for d in range(ndim):
            if d != axis:
                type_check.expect(x.shape[d] == x0.shape[d])
