from chainer import backend
from chainer.functions.array import reshape
from chainer.functions.math import sum as sum_module
from chainer import function_node
from chainer.utils import type_check


class Tile(function_node.FunctionNode):

    """Repeats a whole array along each axis."""

    def __init__(self, reps):
        if isinstance(reps, int):
            self.reps = reps,
        elif isinstance(reps, tuple) and all(
                isinstance(r, int) for r in reps):
            self.reps = reps
        else:
            raise TypeError(
                'reps must be int or tuple of ints.\n'
                'Actual: {0}'.format(type(reps)))
        if not all(r >= 0 for r in self.reps):
            raise ValueError('All elements in reps must be zero or larger')

    check_type_forward = type_check._argument_check(('x',))

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.tile(x, self.reps),

    def backward(self, indexes, grad_outputs):
        # Viewed as (reps[0], shape[0], reps[1], shape[1], ...), the
        # gradient sums over the repetition axes.
        in_shape = self.inputs[0].shape
        ndim = max(len(in_shape), len(self.reps))
        reps = (1,) * (ndim - len(self.reps)) + self.reps
        shape = (1,) * (ndim - len(in_shape)) + in_shape
        gy, = grad_outputs
        split_shape = []
        for r, s in zip(reps, shape):
            split_shape += [r, s]
        gy = reshape.reshape(gy, tuple(split_shape))
        gx = sum_module.sum(gy, axis=tuple(range(0, 2 * ndim, 2)))
        return reshape.reshape(gx, in_shape),


def tile(x, reps):
    """Repeats a whole variable along each axis.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        reps (int or tuple of int): The number of repetitions along each
            axis, as in :func:`numpy.tile`. When ``x`` has fewer axes than
            ``reps`` has items, ``x`` gets leading axes of length one;
            when it has more, ``reps`` is padded with leading ones.

    Returns:
        ~chainer.Variable: The tiled variable.

    .. admonition:: Example

        >>> x = np.array([0, 1, 2])
        >>> F.tile(x, 2).array
        array([0, 1, 2, 0, 1, 2])
        >>> F.tile(x, (2, 2)).array
        array([[0, 1, 2, 0, 1, 2],
               [0, 1, 2, 0, 1, 2]])

    """
    return Tile(reps).apply((x,))[0]
