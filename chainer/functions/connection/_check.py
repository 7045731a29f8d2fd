"""The input checks of the connection functions.

A connection function takes the input ``x``, the weight ``W`` and an
optional bias ``b``; these checks state the contract that
:func:`~chainer.functions.linear` and the convolutions share.
"""

from chainer.utils import type_check


def x_and_w(in_types, x_ndim, w_ndim):
    """Type-checks the number of inputs and the dtypes and ranks of ``x``
    and ``W``.

    Args:
        in_types: The types of ``x``, ``W`` and optionally ``b``.
        x_ndim (int): The number of axes of ``x``.
        w_ndim (int): The number of axes of ``W``.

    Returns:
        tuple: The types of ``x`` and ``W``.
    """
    n_in = in_types.size()
    type_check.expect(2 <= n_in, n_in <= 3)
    x_type, w_type = in_types[:2]
    type_check._argname((x_type, w_type), ('x', 'W'))
    type_check.expect(
        x_type.dtype.kind == 'f',
        w_type.dtype.kind == 'f',
        x_type.ndim == x_ndim,
        w_type.ndim == w_ndim,
    )
    return x_type, w_type


def bias(in_types, size, x_type=None):
    """Type-checks the optional bias ``b``, a vector of ``size`` elements.

    Args:
        in_types: The types of ``x``, ``W`` and optionally ``b``.
        size: The number of elements of ``b``.
        x_type: If given, ``b`` must have the dtype of this type (that of
            ``x``); otherwise any float dtype.
    """
    if type_check.eval(in_types.size()) == 3:
        b_type = in_types[2]
        type_check._argname((b_type,), ('b',))
        if x_type is None:
            type_check.expect(
                b_type.dtype.kind == 'f',
                b_type.ndim == 1,
            )
        else:
            type_check.expect(
                b_type.dtype == x_type.dtype,
                b_type.ndim == 1,
            )
        type_check.expect(b_type.shape[0] == size)
