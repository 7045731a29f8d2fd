import numpy

from chainer.backends import cuda
from chainer import function_node
from chainer.functions.math import exponential
from chainer import utils
from chainer.utils import argument
from chainer.utils import type_check


class Gaussian(function_node.FunctionNode):

    """Sampling from a Gaussian of mean ``mean`` and variance
    ``exp(ln_var)``: ``mean + exp(ln_var / 2) * eps``.

    Args:
        eps: The standard normal noise to use; when ``None`` it is drawn at
            the first forward computation and kept.
    """

    def __init__(self, eps=None):
        self.eps = eps

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('mean', 'ln_var'))
        m_type, v_type = in_types
        type_check.expect(
            m_type.dtype.kind == 'f',
            m_type.dtype == v_type.dtype,
            m_type.shape == v_type.shape,
        )

    def forward_cpu(self, inputs):
        self.retain_inputs((1,))
        mean, ln_var = inputs
        if self.eps is None:
            self.eps = utils.force_array(
                numpy.random.standard_normal(ln_var.shape).astype(
                    mean.dtype, copy=False))
        noise = utils.force_array(ln_var * mean.dtype.type(0.5))
        numpy.exp(noise, out=noise)
        noise *= self.eps
        self.noise = noise
        return utils.force_array(mean + noise),

    def forward_gpu(self, inputs):
        self.retain_inputs((1,))
        mean, ln_var = inputs
        if self.eps is None:
            # cupy.random draws no float16: those are drawn in float32.
            dtype = numpy.float32 if mean.dtype == numpy.float16 \
                else mean.dtype
            self.eps = cuda.cupy.random.standard_normal(
                ln_var.shape, dtype=dtype).astype(mean.dtype, copy=False)
        self.noise = cuda.elementwise(
            'T v, T e', 'T noise', 'noise = exp(v / 2) * e',
            'gaussian_forward')(ln_var, self.eps)
        return mean + self.noise,

    def backward(self, indexes, grad_outputs):
        ln_var, = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(gy)
        if 1 in indexes:
            noise = exponential.exp(ln_var * 0.5) * self.eps
            ret.append(gy * noise * 0.5)
        return ret


def gaussian(mean, ln_var, **kwargs):
    """gaussian(mean, ln_var, *, eps=None, return_eps=False)

    Draws a sample from a Gaussian distribution.

    Given the mean :math:`\\mu` and the logarithm of the variance
    :math:`\\log(\\sigma^2)`, it returns :math:`\\mu + \\sigma \\epsilon`
    with :math:`\\epsilon` from the standard normal distribution, which is
    differentiable in both (the reparameterization trick).

    Args:
        mean (:class:`~chainer.Variable` or :ref:`ndarray`): The mean
            :math:`\\mu`, of a float dtype.
        ln_var (:class:`~chainer.Variable` or :ref:`ndarray`): The
            logarithm of the variance :math:`\\log(\\sigma^2)`, of the shape
            and dtype of ``mean``.
        eps (:ref:`ndarray` or None): The noise :math:`\\epsilon` to use
            instead of a random one, of the shape and dtype of ``ln_var``,
            on its device.
        return_eps (bool): If ``True``, the noise used is returned too, so
            that it can be passed again as ``eps``.

    Returns:
        ~chainer.Variable or tuple: The sample, of the shape of ``mean``;
        with ``return_eps``, the tuple of it and ``eps``.

    .. admonition:: Example

        >>> mean = np.zeros(3, np.float32)
        >>> ln_var = np.log(np.full(3, 4., np.float32))
        >>> eps = np.array([1., -0.5, 0.], np.float32)
        >>> F.gaussian(mean, ln_var, eps=eps).array
        array([ 2., -1.,  0.], dtype=float32)

    """
    eps = None
    return_eps = False
    if kwargs:
        eps, return_eps = argument.parse_kwargs(
            kwargs, ('eps', eps), ('return_eps', return_eps))
    func = Gaussian(eps)
    y, = func.apply((mean, ln_var))
    if return_eps:
        return y, func.eps
    return y
