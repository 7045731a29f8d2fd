"""Small utilities shared by the framework."""

import contextlib
import importlib
import shutil
import tempfile

import numpy

from chainer.utils import argument  # NOQA


_SCALAR_TYPES = (numpy.generic, int, float, complex)


def force_array(x, dtype=None):
    """Makes sure that ``x`` is an array, not a NumPy scalar.

    NumPy returns scalars from some operations on 0-dimensional arrays;
    function outputs must always be arrays.

    Args:
        x: An array or a scalar.
        dtype: If given, the result is cast to this dtype.

    Returns:
        An array (``numpy.ndarray`` for NumPy scalars and Python numbers).
    """
    if dtype is None and type(x) is numpy.ndarray:
        return x
    if isinstance(x, _SCALAR_TYPES):
        if dtype is None:
            return numpy.array(x)
        return numpy.array(x, dtype)
    if dtype is None or x.dtype == dtype:
        return x
    return x.astype(dtype)


def force_type(dtype, value):
    """Casts a Python or NumPy scalar to ``dtype``; arrays keep theirs.

    Args:
        dtype: The target dtype.
        value: A scalar or an array.

    Returns:
        ``value`` as a scalar of ``dtype``, or ``value`` itself when it is
        an array of that dtype.
    """
    if isinstance(value, _SCALAR_TYPES):
        return dtype.type(value)
    if value.dtype != dtype:
        return value.astype(dtype, copy=False)
    return value


def size_of_shape(shape):
    """Returns the number of elements of an array of the given shape."""
    size = 1
    for dim in shape:
        size *= dim
    return int(size)


def sum_to(x, shape):
    """Sums the array ``x`` down to ``shape`` along broadcast axes.

    Args:
        x: An array whose shape is ``shape`` broadcast to some larger shape.
        shape (tuple of int): The shape to reach.

    Returns:
        An array of shape ``shape``.
    """
    if x.shape == shape:
        return x
    lead = x.ndim - len(shape)
    lead_axis = tuple(range(lead))
    axis = tuple(
        i + lead for i, dim in enumerate(shape)
        if dim == 1 and x.shape[i + lead] != 1)
    y = x.sum(lead_axis + axis, keepdims=True)
    if lead > 0:
        y = y.reshape(y.shape[lead:])
    return y


@contextlib.contextmanager
def tempdir(**kwargs):
    """Creates a temporary directory, removed when the context exits.

    Args:
        **kwargs: Passed to :func:`tempfile.mkdtemp`.

    Yields:
        str: The path of the directory.
    """
    ignore_errors = kwargs.pop('ignore_errors', False)
    path = tempfile.mkdtemp(**kwargs)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=ignore_errors)


def _raise_from(exc_type, message, orig_exc):
    message = '{}\n\n(caused by)\n{}: {}\n'.format(
        message, type(orig_exc).__name__, orig_exc)
    raise exc_type(message) from orig_exc


def _repr_with_named_data(inst, **kwargs):
    """Returns ``'<module.Class key=value ...>'`` for an object's repr.

    Args:
        inst: The object.
        **kwargs: The named data to show, in order.
    """
    return '<{}.{} {}>'.format(
        inst.__module__, type(inst).__qualname__,
        ' '.join('{}={}'.format(k, v) for k, v in kwargs.items()))


from chainer.utils import array  # NOQA
from chainer.utils import cache  # NOQA
from chainer.utils import conv  # NOQA
from chainer.utils import conv_nd  # NOQA
from chainer.utils import sparse  # NOQA
from chainer.utils import error  # NOQA
from chainer.utils import precision  # NOQA
from chainer.utils.conv import get_conv_outsize  # NOQA
from chainer.utils.error import _format_array_props  # NOQA
from chainer.utils.experimental import experimental  # NOQA
from chainer.utils.meta import enable_final  # NOQA
from chainer.utils.meta import final  # NOQA
from chainer.utils.nondeterministic import nondeterministic  # NOQA
from chainer.utils.conv import get_deconv_outsize  # NOQA
from chainer.utils.sparse import CooMatrix  # NOQA
from chainer.utils.sparse import get_order  # NOQA
from chainer.utils.sparse import to_coo  # NOQA


def __getattr__(name):
    # WalkerAlias is a DeviceResident, which imports chainer.utils.meta:
    # importing it here, with the package, would make an import circle.
    if name in ('walker_alias', 'WalkerAlias'):
        module = importlib.import_module('chainer.utils.walker_alias')
        globals()['WalkerAlias'] = module.WalkerAlias
        return globals()[name]
    raise AttributeError(
        'module {!r} has no attribute {!r}'.format(__name__, name))
