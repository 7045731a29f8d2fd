import numpy

import chainer
from chainer.backends import cuda
from chainer import configuration
from chainer import function_node
from chainer import utils
from chainer.utils import argument
from chainer.utils import type_check


class Dropout(function_node.FunctionNode):

    """Dropout: zeroes each element with probability ``dropout_ratio`` and
    scales the others by ``1 / (1 - dropout_ratio)``."""

    def __init__(self, dropout_ratio, mask=None, return_mask=False):
        if not 0.0 <= dropout_ratio < 1.0:
            raise ValueError('dropout_ratio must be in the range [0, 1)')
        self.dropout_ratio = dropout_ratio
        self.mask = mask
        self.return_mask = return_mask
        self._use_cudnn = False

    check_type_forward = type_check._argument_check(('x',), True)

    def forward_cpu(self, inputs):
        x, = inputs
        if self.mask is None:
            scale = x.dtype.type(1. / (1 - self.dropout_ratio))
            keep = numpy.random.rand(*x.shape) >= self.dropout_ratio
            self.mask = utils.force_array(keep * scale)
        return utils.force_array(x * self.mask),

    def forward_gpu(self, inputs):
        x, = inputs
        if (self.mask is None and not self.return_mask
                and x.flags.c_contiguous
                and cuda.should_use_cudnn('>=auto', 5000)):
            self._use_cudnn = True
            states = cuda.get_cudnn_dropout_states()
            if hasattr(self, 'states'):
                # Applied again: the kept states reproduce the same mask.
                return states.backward(
                    None, x, self.dropout_ratio, self.states),
            self.states, y = states.forward(None, x, self.dropout_ratio)
            return y,
        if self.mask is not None:
            return x * self.mask,
        rand = cuda.cupy.random.rand(*x.shape, dtype=numpy.float32)
        scale = x.dtype.type(1. / (1 - self.dropout_ratio))
        self.mask, y = cuda.elementwise(
            'T x, R r, T scale, T ratio', 'T mask, T y',
            '''
            mask = (r >= ratio) * scale;
            y = x * mask;
            ''',
            'dropout_fwd')(x, rand, scale, self.dropout_ratio)
        return y,

    def backward(self, indexes, grad_outputs):
        if self._use_cudnn and cuda.should_use_cudnn('>=auto', 5000):
            return DropoutGradCuDNN(
                self.states, self.dropout_ratio).apply(grad_outputs)
        return DropoutGrad(self.mask).apply(grad_outputs)


class DropoutGrad(function_node.FunctionNode):

    """Gradient of :class:`Dropout`: ``gy * mask``."""

    def __init__(self, mask):
        self.mask = mask

    def forward(self, inputs):
        return utils.force_array(inputs[0] * self.mask),

    def backward(self, indexes, grad_outputs):
        return DropoutGrad(self.mask).apply(grad_outputs)


class DropoutGradCuDNN(function_node.FunctionNode):

    """Gradient of :class:`Dropout` computed by cuDNN from its states."""

    def __init__(self, states, dropout_ratio):
        self.states = states
        self.dropout_ratio = dropout_ratio

    def forward(self, inputs):
        return cuda.get_cudnn_dropout_states().backward(
            None, inputs[0], self.dropout_ratio, self.states),

    def backward(self, indexes, grad_outputs):
        return DropoutGradCuDNN(
            self.states, self.dropout_ratio).apply(grad_outputs)


def dropout(x, ratio=.5, **kwargs):
    """dropout(x, ratio=.5, *, mask=None, return_mask=False)

    Drops elements of the input at random.

    In training mode each element is zeroed with probability ``ratio``, and
    the others are scaled by :math:`1 / (1 - \\text{ratio})` so that the
    expected value is unchanged. When ``chainer.config.train`` is
    ``False``, ``x`` is returned as it is. See `Hinton et al.
    <https://arxiv.org/abs/1207.0580>`_.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype and any shape.
        ratio (float): The probability of dropping an element, in
            ``[0, 1)``.
        mask (:ref:`ndarray` or None): A mask to multiply ``x`` with
            instead of a random one (``ratio`` is then ignored): its
            elements are zero or the scale, its shape and dtype those of
            ``x``, on the device of ``x``. cuDNN is not used with a mask.
        return_mask (bool): If ``True``, the mask used is returned too, so
            that it can be passed again as ``mask``.

    Returns:
        ~chainer.Variable or tuple: The output variable; with
        ``return_mask``, the tuple of it and the mask (``None`` when
        ``chainer.config.train`` is ``False``).

    .. admonition:: Example

        >>> x = np.array([[-1., 0.], [2., -3.]], np.float32)
        >>> mask = np.array([[2., 0.], [2., 2.]], np.float32)
        >>> F.dropout(x, mask=mask).array
        array([[-2.,  0.],
               [ 4., -6.]], dtype=float32)
        >>> with chainer.using_config('train', False):
        ...     F.dropout(x).array is x
        True

    """
    mask = None
    return_mask = False
    if kwargs:
        mask, return_mask = argument.parse_kwargs(
            kwargs, ('mask', mask), ('return_mask', return_mask),
            train='train argument is not supported anymore. '
                  'Use chainer.using_config')
    if configuration.config.train:
        func = Dropout(ratio, mask, return_mask)
        y, = func.apply((x,))
        mask = func.mask
    else:
        y = chainer.as_variable(x)
        mask = None
    if return_mask:
        return y, mask
    return y
