"""Element-wise functions computed outside the computational graph.

Rounding and the sign have a gradient of zero almost everywhere:
:func:`~chainer.functions.ceil`, :func:`~chainer.functions.floor`,
:func:`~chainer.functions.fix` and :func:`~chainer.functions.sign` return
a new variable with no creator, where the graph ends.
"""

from chainer import backend
from chainer import utils
from chainer import variable


def apply(name, x, keep_dtype=True, via=None):
    """Applies the ufunc ``name`` of the array module of ``x`` to its array.

    Args:
        name (str): The name of the ufunc in NumPy and CuPy.
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The input.
        keep_dtype (bool): Whether the result is cast to the dtype of ``x``.
        via: The dtype that ``x`` is cast to for the ufunc, or ``None``.

    Returns:
        ~chainer.Variable: The result, a new variable with no creator.
    """
    if isinstance(x, variable.Variable):
        x = x.array
    xp = backend.get_array_module(x)
    y = getattr(xp, name)(x if via is None else x.astype(via))
    return variable.as_variable(
        utils.force_array(y, x.dtype if keep_dtype else None))
