from chainer import backend
from chainer import function_node
from chainer.utils import type_check


def _window_sum(a, half_n):
    # Sum of a over the channels c - half_n, ..., c + half_n (axis 1), the
    # window clipped at the borders.
    total = a.copy()
    for i in range(1, min(half_n, a.shape[1] - 1) + 1):
        total[:, i:] += a[:, :-i]
        total[:, :-i] += a[:, i:]
    return total


class LocalResponseNormalization(function_node.FunctionNode):

    """Normalization over neighbouring channels, as AlexNet does it."""

    def __init__(self, n=5, k=2, alpha=1e-4, beta=.75):
        self.n = n
        self.k = k
        self.alpha = alpha
        self.beta = beta
        self.scale = None
        self.unit_scale = None

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= 2,
        )

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        dtype = x.dtype.type
        unit_scale = _window_sum(xp.square(x), self.n // 2)
        unit_scale *= dtype(self.alpha)
        unit_scale += dtype(self.k)
        self.unit_scale = unit_scale
        self.scale = unit_scale ** dtype(-self.beta)
        return x * self.scale,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        f = LocalResponseNormalizationGrad(
            self.n, self.k, self.alpha, self.beta, self.scale,
            self.unit_scale)
        return f.apply((x, y, grad_outputs[0]))


class LocalResponseNormalizationGrad(function_node.FunctionNode):

    """Gradient of :class:`LocalResponseNormalization` with respect to its
    input: ``(x, y, gy) -> gx``."""

    def __init__(self, n, k, alpha, beta, scale, unit_scale):
        self.n = n
        self.k = k
        self.alpha = alpha
        self.beta = beta
        self.scale = scale
        self.unit_scale = unit_scale

    def forward(self, inputs):
        x, y, gy = inputs
        dtype = x.dtype.type
        # y_c = x_c * u_c ** -beta with u_c = k + alpha * (window sum of
        # x ** 2), so x_c reaches every u in its window:
        #   gx_c = gy_c * u_c ** -beta
        #          - 2 alpha beta x_c * (window sum of gy * y / u)
        summand = y * gy
        summand /= self.unit_scale
        gx = _window_sum(summand, self.n // 2)
        gx *= x
        gx *= dtype(-2 * self.alpha * self.beta)
        gx += gy * self.scale
        return gx,

    def backward(self, indexes, grad_outputs):
        raise NotImplementedError(
            'Double backward is not implemented for'
            ' local response normalization.')


def local_response_normalization(x, n=5, k=2, alpha=1e-4, beta=.75):
    """Normalizes each channel by the energy of the channels near it.

    Divides each channel of ``x`` by a power of the sum of squares over
    the neighboring channels. With :math:`N` channels,

    .. math::
       y_i = \\frac{x_i}{\\left(k + \\alpha \\sum_{j=\\max(1, i - n/2)}^
           {\\min(N, i + n/2)} x_j^2\\right)^\\beta}.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable
            with the channels along the second axis.
        n (int): Normalization window width (``n // 2`` channels on each
            side).
        k (float): Smoothing parameter.
        alpha (float): Normalizer scaling parameter.
        beta (float): Normalizer power parameter.

    Returns:
        ~chainer.Variable: The result, shaped like ``x``.

    See: Section 3.3 of `ImageNet Classification with Deep Convolutional
    Neural Networks <https://www.cs.toronto.edu/~fritz/absps/imagenet.pdf>`_

    """
    return LocalResponseNormalization(n, k, alpha, beta).apply((x,))[0]
