"""Element-wise inverse of the standard normal cumulative distribution
function."""

import importlib.util
import math

from chainer.backends import cuda
from chainer import function_node
from chainer.functions.math import _scipy_special
from chainer.functions.math import exponential
from chainer import utils
from chainer.utils import type_check


# Whether SciPy, which computes the function on the CPU, is installed; it
# is imported on the first computation, not with Chainer.
available_cpu = importlib.util.find_spec('scipy') is not None


_SQRT_2PI = math.sqrt(2 * math.pi)


class Ndtri(function_node.FunctionNode):

    """Element-wise inverse of :func:`~chainer.functions.ndtr`; its
    derivative is ``sqrt(2 pi) * exp(y ** 2 / 2)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'ndtri'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        special = _scipy_special.get('ndtri')
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(special.ndtri(x), x.dtype),

    def forward_gpu(self, inputs):
        self.retain_outputs((0,))
        return cuda.elementwise(
            'T x', 'T y', 'y = normcdfinv(x)', 'chainer_ndtri',
        )(inputs[0]),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return _SQRT_2PI * exponential.exp(0.5 * y * y) * grad_outputs[0],


def ndtri(x):
    """Element-wise inverse of the standard normal cumulative distribution
    function: :math:`y_i` such that :math:`\\mathrm{ndtr}(y_i) = x_i`.

    .. note::
       On the CPU it needs SciPy (:func:`scipy.special.ndtri`); without it
       the forward computation raises :class:`ImportError`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype, in :math:`[0, 1]`.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Ndtri().apply((x,))[0]
