from chainer import backend
from chainer import function_node
from chainer.functions.array import reshape
from chainer.functions.loss import _reduce_option
from chainer.functions.math import clip
from chainer import utils
from chainer.utils import type_check


class HuberLoss(function_node.FunctionNode):

    """Huber loss: squared near zero, linear beyond ``delta``."""

    def __init__(self, delta, reduce='sum_along_second_axis'):
        self.delta = delta
        _reduce_option.check(
            reduce, ('sum_along_second_axis', 'no'), capitalize=True)
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.dtype == t_type.dtype,
            x_type.shape == t_type.shape,
        )
        if self.reduce == 'sum_along_second_axis':
            type_check.expect(x_type.ndim >= 2)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(*inputs)
        x, t = inputs
        delta = x.dtype.type(self.delta)
        # 0.5 * min(|d|, delta) ** 2 + delta * max(|d| - delta, 0)
        y = utils.force_array(x - t)
        xp.abs(y, out=y)
        near = xp.minimum(y, delta)
        y -= near
        y *= delta
        near *= near
        near *= x.dtype.type(0.5)
        y += near
        if self.reduce == 'sum_along_second_axis':
            return y.sum(axis=1),
        return y,

    def backward(self, indexes, grad_outputs):
        x, t = self.get_retained_inputs()
        gy, = grad_outputs
        delta = self.delta
        if self.reduce == 'sum_along_second_axis':
            shape = gy.shape[:1] + (1,) + gy.shape[1:]
            gy = reshape.reshape(gy, shape)
        gx = gy * clip.clip(x - t, -delta, delta)
        return tuple([gx if i == 0 else -gx for i in indexes])


def huber_loss(x, t, delta, reduce='sum_along_second_axis'):
    """Huber loss.

    Like :func:`mean_squared_error`, but less sensitive to outliers: with
    :math:`a = x - t`, each element contributes

    .. math::

        L_{\\delta}(a) = \\left\\{ \\begin{array}{cc}
        \\frac{1}{2} a^2 & {\\rm if~|a| \\leq \\delta} \\\\
        \\delta (|a| - \\frac{1}{2} \\delta) & {\\rm otherwise.}
        \\end{array} \\right.

    See `Huber loss - Wikipedia <https://en.wikipedia.org/wiki/Huber_loss>`_.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable,
            of a float dtype and shape :math:`(N, K, ...)` when ``reduce``
            is ``'sum_along_second_axis'``.
        t (:class:`~chainer.Variable` or :ref:`ndarray`): Target variable,
            of the shape and dtype of ``x``.
        delta (float): The threshold :math:`\\delta` between the squared
            and the linear parts.
        reduce (str): ``'sum_along_second_axis'`` (default) sums the
            element-wise losses along axis 1; ``'no'`` keeps them. Any
            other value raises :class:`ValueError`.

    Returns:
        ~chainer.Variable: The losses, of the shape of ``x`` with axis 1
        removed, or of the shape of ``x`` when ``reduce`` is ``'no'``.

    .. admonition:: Example

        >>> x = np.array([[-2., 3., 0.5], [5., 2., -0.5]], np.float32)
        >>> t = np.array([[-2., 3., 0.], [10., 2., -0.5]], np.float32)
        >>> F.huber_loss(x, t, delta=1.0, reduce='no').array
        array([[0.   , 0.   , 0.125],
               [4.5  , 0.   , 0.   ]], dtype=float32)
        >>> F.huber_loss(x, t, delta=1.0).array
        array([0.125, 4.5  ], dtype=float32)

    """
    return HuberLoss(delta=delta, reduce=reduce).apply((x, t))[0]
