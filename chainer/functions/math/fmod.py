"""Element-wise remainder of a division, with the sign of the dividend."""

from chainer import backend
from chainer import function_node
from chainer.functions.math import sum as sum_module
from chainer import utils
from chainer.utils import type_check


class Fmod(function_node.FunctionNode):

    """Element-wise ``fmod(x, divisor)``, ``x - trunc(x / divisor) *
    divisor``; the two inputs broadcast."""

    @property
    def label(self):
        return 'fmod'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'divisor'))
        x_type, divisor_type = in_types
        type_check.expect(
            x_type.dtype == divisor_type.dtype,
            x_type.dtype.kind == 'f',
            divisor_type.dtype.kind == 'f',
        )
        type_check.expect_broadcast_shapes(x_type.shape, divisor_type.shape)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, divisor = inputs
        xp = backend.get_array_module(x, divisor)
        return utils.force_array(xp.fmod(x, divisor), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, divisor = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(sum_module.sum_to(gy, x.shape))
        if 1 in indexes:
            # trunc(x / divisor) is piecewise constant: a constant here.
            xp = backend.get_array_module(x.array)
            quotient = utils.force_array(
                xp.trunc(x.array / divisor.array), x.dtype)
            ret.append(sum_module.sum_to(-quotient * gy, divisor.shape))
        return ret


def fmod(x, divisor):
    """Element-wise remainder of division, with the sign of the dividend.

    .. math::
       y_i = x_i - \\mathrm{trunc}(x_i / d_i) \\, d_i,

    where :math:`d` is ``divisor``; it is C's ``fmod`` (NumPy's
    :func:`numpy.fmod`), not Python's ``%``. The two inputs broadcast
    against each other.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Dividend, of a
            float dtype.
        divisor (:class:`~chainer.Variable` or :ref:`ndarray`): Divisor, of
            the dtype of ``x``.

    Returns:
        ~chainer.Variable: Output variable.

    .. admonition:: Example

        >>> x = np.array([-3., -1., 1., 3.], np.float32)
        >>> F.fmod(x, np.full(4, 2., np.float32)).array
        array([-1., -1.,  1.,  1.], dtype=float32)

    """
    return Fmod().apply((x, divisor))[0]
