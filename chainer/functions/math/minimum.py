"""Element-wise minimum of two variables."""

import operator

from chainer.functions.math import maximum as maximum_module


class MinimumGrad(maximum_module._ChoiceGrad):

    """Gradient of :class:`Minimum`: ``gy`` goes to ``x1`` where
    ``x1 <= x2`` and to ``x2`` elsewhere."""

    _x1_wins = staticmethod(operator.le)


class Minimum(maximum_module._Choice):

    """Elementwise smaller of two arrays."""

    _ufunc_name = 'minimum'
    _grad = MinimumGrad


def minimum(x1, x2):
    """Takes the smaller of two arrays, element by element.

    It takes the arguments of :func:`~chainer.functions.maximum` and
    follows its rules: the inputs broadcast against each other, and where
    they are equal, the gradient goes to ``x1``.

    Returns:
        ~chainer.Variable: Output variable.

    .. admonition:: Example

        >>> x1 = np.array([0., 1., 2., 3.], np.float32)
        >>> x2 = np.array([3., 2., 1., 0.], np.float32)
        >>> F.minimum(x1, x2).array
        array([0., 1., 1., 0.], dtype=float32)

    """
    return Minimum().apply((x1, x2))[0]
