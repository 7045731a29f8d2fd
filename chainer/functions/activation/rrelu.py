import numpy

from chainer.backends import cuda
from chainer import configuration
from chainer import function_node
from chainer.functions.activation.leaky_relu import _scale_where
from chainer.utils import argument
from chainer.utils import type_check


def _kernel():
    return cuda.elementwise(
        'T cond, T x, T slope', 'T y',
        'y = cond >= 0 ? x : (T)(slope * x)', 'rrelu')


class RReLU(function_node.FunctionNode):

    """Randomized leaky rectified linear unit: ``x`` if ``x >= 0``, else
    ``r * x`` with ``r`` drawn from ``U(lower, upper)``."""

    is_elementwise = True

    def __init__(self, lower=1. / 8, upper=1. / 3, r=None):
        if not 0.0 <= lower < 1.0:
            raise ValueError('lower must be in the range [0, 1)')
        if not 0.0 <= upper < 1.0:
            raise ValueError('upper must be in the range [0, 1)')
        if not lower < upper:
            raise ValueError('lower must be less than upper')
        self.lower = lower
        self.upper = upper
        self.r = r

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        if self.r is not None:
            type_check.expect(
                x_type.dtype == self.r.dtype,
                x_type.shape == self.r.shape,
            )

    def _set_r(self, x, xp):
        # Training draws r unless given; testing uses the mean slope.
        if configuration.config.train:
            if self.r is None:
                self.r = xp.random.uniform(
                    self.lower, self.upper, x.shape).astype(
                        x.dtype, copy=False)
        else:
            self.r = xp.full(
                x.shape, (self.lower + self.upper) / 2, dtype=x.dtype)

    def forward_cpu(self, inputs):
        x, = inputs
        self._set_r(x, numpy)
        self.retain_outputs((0,))
        return _scale_where(x < 0, x, self.r),

    def forward_gpu(self, inputs):
        x, = inputs
        self._set_r(x, cuda.cupy)
        self.retain_outputs((0,))
        return _kernel()(x, x, self.r),

    def backward(self, indexes, grad_outputs):
        return _RReLUGrad(self.output_data[0], self.r).apply(grad_outputs)


class _RReLUGrad(function_node.FunctionNode):

    is_elementwise = True

    def __init__(self, y, r):
        self.y = y
        self.r = r

    def forward_cpu(self, inputs):
        return _scale_where(self.y < 0, inputs[0], self.r),

    def forward_gpu(self, inputs):
        return _kernel()(self.y, inputs[0], self.r),

    def backward(self, indexes, grad_outputs):
        return _RReLUGrad(self.y, self.r).apply(grad_outputs)


def rrelu(x, l=1. / 8, u=1. / 3, **kwargs):
    """rrelu(x, l=1. / 8, u=1. / 3, *, r=None, return_r=False)

    Randomized leaky rectified linear unit.

    It computes :math:`f(x) = \\max(x, rx)`, where each element of
    :math:`r` is drawn from the uniform distribution :math:`U(l, u)` in
    training mode, and is :math:`(l + u) / 2` when
    ``chainer.config.train`` is ``False``. :math:`r` stands for :math:`a`
    of `Xu et al. <https://arxiv.org/abs/1505.00853>`_.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype and any shape.
        l (float): The lower bound of the distribution, in ``[0, 1)``.
        u (float): The upper bound of the distribution, in ``(l, 1)``.
        r (:ref:`ndarray` or None): The slopes to use in training mode
            instead of random ones (``l`` and ``u`` are then ignored), of
            the shape and dtype of ``x`` and on its device.
        return_r (bool): If ``True``, the slopes used are returned too, so
            that they can be passed again as ``r``.

    Returns:
        ~chainer.Variable or tuple: The output variable, of the shape and
        dtype of ``x``; with ``return_r``, the tuple of it and ``r``.

    .. admonition:: Example

        >>> x = np.array([[-1., 0.], [2., -3.]], np.float32)
        >>> r = np.full(x.shape, 0.25, np.float32)
        >>> F.rrelu(x, r=r).array
        array([[-0.25,  0.  ],
               [ 2.  , -0.75]], dtype=float32)

    """
    r = None
    return_r = False
    if kwargs:
        r, return_r = argument.parse_kwargs(
            kwargs, ('r', r), ('return_r', return_r),
            train='train argument is not supported anymore. '
                  'Use chainer.using_config')
    func = RReLU(l, u, r)
    y, = func.apply((x,))
    if return_r:
        return y, func.r
    return y
