"""Host-side buffers and the packing of parameter arrays into them."""

import numpy

from chainer import backend


def to_host(array):
    """Returns ``array`` as a NumPy array (itself if it already is one)."""
    if isinstance(array, numpy.ndarray):
        return array
    return backend.CpuDevice().send(array)


def reduction_buffer(array):
    """Returns a contiguous host array to reduce ``array`` in place.

    Returns:
        tuple: ``(work, write_back)``: ``work`` is ``array`` itself when it
        is a C-contiguous NumPy array of a dtype MPI reduces (everything
        but float16); otherwise a host copy (float32 for float16), and
        ``write_back`` tells that the result must be copied back.
    """
    if isinstance(array, numpy.ndarray) and array.flags.c_contiguous \
            and array.dtype != numpy.float16:
        return array, False
    host = to_host(array)
    dtype = numpy.float32 if host.dtype == numpy.float16 else host.dtype
    return numpy.array(host, dtype=dtype, order='C'), True


def extract_params_set_data(model):
    """Initialized parameters of ``model``, in name order."""
    return [param for _, param in sorted(model.namedparams())
            if param.array is not None]


def extract_params_set_grad(model, zero_fill):
    """Parameters of ``model`` that take part in a gradient mean.

    With ``zero_fill`` every initialized parameter takes part; without, only
    those that have a gradient.
    """
    return [param for _, param in sorted(model.namedparams())
            if param.array is not None
            and (zero_fill or param.grad is not None)]


def count_grad_elements(params, zero_fill):
    """Total number of gradient elements of ``params``."""
    if zero_fill:
        return sum(param.array.size for param in params)
    return sum(param.grad.size for param in params)


class HostBuffer:
    """A growable flat NumPy buffer, reused from call to call."""

    def __init__(self):
        self._memory = numpy.empty(0, numpy.uint8)

    def array(self, count, dtype=numpy.float32):
        """A view of the first ``count`` elements of type ``dtype``."""
        dtype = numpy.dtype(dtype)
        nbytes = count * dtype.itemsize
        if self._memory.size < nbytes:
            self._memory = numpy.empty(nbytes, numpy.uint8)
        return self._memory[:nbytes].view(dtype)


def unpack_params(params, attr_name, buffer, zero_fill, scale=None):
    """Copies ``buffer`` back into the ``attr_name`` arrays of ``params``.

    A missing gradient (``zero_fill``) is created. With ``scale``, values
    are multiplied by it on the way, in the buffer's dtype.
    """
    offset = 0
    for param in params:
        value = getattr(param, attr_name)
        if value is None:
            value = param.xp.empty_like(param.array)
            setattr(param, attr_name, value)
        size = value.size
        chunk = buffer[offset:offset + size].reshape(value.shape)
        if isinstance(value, numpy.ndarray):
            if scale is None:
                value[...] = chunk
            else:
                numpy.multiply(chunk, scale, out=value, casting='unsafe')
        else:
            if scale is not None:
                chunk *= scale
            value[...] = backend.get_array_module(value).asarray(chunk)
        offset += size


class FlatGrad:
    """The gradient of a parameter as a flat host array, read and written
    in slices.

    A C-contiguous NumPy gradient is used in place; any other (a CuPy
    array, a non-contiguous one) is copied to the host, and
    :meth:`store` copies the result back.
    """

    def __init__(self, param):
        self._param = param
        grad = param.grad
        self._in_place = isinstance(grad, numpy.ndarray) and \
            grad.flags.c_contiguous
        self._flat = (grad if self._in_place
                      else numpy.array(to_host(grad))).reshape(-1)
        self.size = self._flat.size

    def read(self, begin, end):
        """Elements ``begin:end``."""
        return self._flat[begin:end]

    def write(self, begin, end, values, scale=None):
        """Sets elements ``begin:end`` to ``values`` (times ``scale``)."""
        target = self._flat[begin:end]
        if scale is None:
            target[...] = values
        else:
            numpy.multiply(values, scale, out=target, casting='unsafe')

    def store(self):
        """Copies the values back into the parameter's gradient."""
        if not self._in_place:
            grad = self._param.grad
            grad[...] = backend.get_array_module(grad).asarray(
                self._flat.reshape(grad.shape))
