"""Element-wise polygamma function."""

from chainer.backends import cuda
from chainer import function_node
from chainer.functions.math import _scipy_special
from chainer import utils
from chainer.utils import type_check


class PolyGamma(function_node.FunctionNode):

    """Element-wise polygamma function of integer order ``n``; its
    derivative in ``x`` is ``polygamma(n + 1, x)``, and ``n`` gets no
    gradient."""

    @property
    def label(self):
        return 'polygamma'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('n', 'x'))
        n_type, x_type = in_types
        type_check.expect(
            n_type.dtype.kind == 'i',
            x_type.dtype.kind == 'f',
        )
        type_check.expect_broadcast_shapes(n_type.shape, x_type.shape)

    def forward_cpu(self, inputs):
        special = _scipy_special.get('polygamma')
        self.retain_inputs((0, 1))
        n, x = inputs
        return utils.force_array(special.polygamma(n, x), x.dtype),

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1))
        n, x = inputs
        return utils.force_array(
            cuda.cupyx.scipy.special.polygamma(n, x), x.dtype),

    def backward(self, indexes, grad_outputs):
        n, x = self.get_retained_inputs()
        n_next = utils.force_array(n.array + 1)
        return None, polygamma(n_next, x) * grad_outputs[0]


def polygamma(n, x):
    """Element-wise polygamma function,
    :math:`y_i = \\psi^{(n_i)}(x_i) = \\frac{d^{n_i + 1}}{dx_i^{n_i + 1}}
    \\ln \\Gamma(x_i)`.

    ``n`` and ``x`` broadcast against each other. The function is
    differentiable in ``x`` only.

    .. note::
       On the CPU it needs SciPy (:func:`scipy.special.polygamma`); without
       it the forward computation raises :class:`ImportError`.

    Args:
        n (:class:`~chainer.Variable` or :ref:`ndarray`): Orders, of an
            integer dtype (0 gives the digamma function).
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return PolyGamma().apply((n, x))[0]
