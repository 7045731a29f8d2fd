import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class FFT(function_node.FunctionNode):

    """One-dimensional discrete Fourier transform along the last axis.

    The complex input and output are held as pairs of real arrays
    ``(real, imag)``.

    Args:
        method (str): ``'fft'`` for the transform, ``'ifft'`` for its
            inverse.
    """

    def __init__(self, method):
        self._method = method

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('real', 'imag'))
        r_type, i_type = in_types
        type_check.expect(
            r_type.dtype.kind == 'f',
            r_type.ndim > 0,
            r_type.shape == i_type.shape,
            r_type.dtype == i_type.dtype,
        )

    def forward(self, inputs):
        real, imag = inputs
        xp = backend.get_array_module(real, imag)
        dtype = real.dtype
        ctype = numpy.complex128 if dtype == numpy.float64 \
            else numpy.complex64
        x = (real + 1j * imag).astype(ctype, copy=False)
        y = getattr(xp.fft, self._method)(x)
        return (y.real.astype(dtype, copy=True),
                y.imag.astype(dtype, copy=True))

    def backward(self, indexes, grad_outputs):
        g_real, g_imag = grad_outputs
        real = self.inputs[0]
        if g_real is None or g_imag is None:
            xp = backend.get_array_module(real)
            zero = chainer.Variable(
                xp.zeros(real.shape, real.dtype), requires_grad=False)
            g_real = zero if g_real is None else g_real
            g_imag = zero if g_imag is None else g_imag
        # The adjoint of the transform is n times the inverse transform.
        n = real.shape[-1]
        if self._method == 'fft':
            gxs = FFT('ifft').apply((g_real, g_imag))
            scale = n
        else:
            gxs = FFT('fft').apply((g_real, g_imag))
            scale = 1.0 / n
        return tuple(gxs[i] * scale for i in indexes)


def fft(x):
    """Fast Fourier transform along the last axis.

    Args:
        x (tuple): ``(real, imag)``, two :class:`~chainer.Variable` or
            :ref:`ndarray` objects of the same shape and float dtype: the
            real and imaginary parts of the input.

    Returns:
        tuple: ``(real, imag)``, the two :class:`~chainer.Variable` parts
        of the result, of the input's dtype.

    .. admonition:: Example

        >>> real = np.array([1., 0., 0., 0.], np.float32)
        >>> imag = np.zeros(4, np.float32)
        >>> yr, yi = F.fft((real, imag))
        >>> yr.array
        array([1., 1., 1., 1.], dtype=float32)

    """
    real, imag = x
    return FFT('fft').apply((real, imag))


def ifft(x):
    """Inverse fast Fourier transform along the last axis.

    Args:
        x (tuple): ``(real, imag)``, two :class:`~chainer.Variable` or
            :ref:`ndarray` objects of the same shape and float dtype: the
            real and imaginary parts of the input.

    Returns:
        tuple: ``(real, imag)``, the two :class:`~chainer.Variable` parts
        of the result, of the input's dtype.

    .. admonition:: Example

        >>> real = np.ones(4, np.float32)
        >>> imag = np.zeros(4, np.float32)
        >>> yr, yi = F.ifft((real, imag))
        >>> yr.array
        array([1., 0., 0., 0.], dtype=float32)

    """
    real, imag = x
    return FFT('ifft').apply((real, imag))
