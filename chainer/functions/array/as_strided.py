import numpy

from chainer import backend
from chainer.backends import cuda
from chainer import function_node
from chainer import utils
from chainer.utils import type_check

# The signed integer dtype of each item size in bytes.
index_dtype = {numpy.dtype(t).itemsize: t for t in (
    numpy.int8, numpy.int16, numpy.int32, numpy.int64)}

def _to_elements(byte_values, itemsize):
    for b in byte_values:
        assert b % itemsize == 0
    return tuple(b // itemsize for b in byte_values)


def _index_range(shape, strides, offset):
    # The lowest and the highest element index reached by a view.
    low = high = offset
    for n, s in zip(shape, strides):
        if s < 0:
            low += (n - 1) * s
        else:
            high += (n - 1) * s
    return low, high


def _may_overlap(shape, strides):
    # Whether two elements of a view may share a memory location.
    reach = 0
    for s, n in sorted((abs(s), n) for n, s in zip(shape, strides) if n > 1):
        if s <= reach:
            return True
        reach += s * (n - 1)
    return False


def _numpy_base(array):
    while isinstance(array.base, numpy.ndarray):
        array = array.base
    return array


class TensorGeometry:

    """Shape, strides and offset of an array, counted in elements.

    The offset is the position of the first element in the memory buffer
    the array views.

    Args:
        array (:ref:`ndarray`): The array.
    """

    def __init__(self, array):
        self.shape = array.shape
        self.itemsize = array.itemsize
        self.strides = _to_elements(array.strides, array.itemsize)
        if isinstance(array, numpy.ndarray):
            base = _numpy_base(array)
            offset_bytes = (array.__array_interface__['data'][0]
                            - base.__array_interface__['data'][0])
        elif isinstance(array, cuda.ndarray):
            offset_bytes = array.data.ptr - array.data.mem.ptr
        else:
            raise ValueError('only (np|cp).ndarray is supported')
        self.storage_offset, = _to_elements((offset_bytes,), array.itemsize)

    @property
    def ndim(self):
        return len(self.shape)


def _stride_array(array, shape, strides, storage_offset):
    # A view of the memory buffer of ``array`` (counted in elements).
    low, high = _index_range(shape, strides, storage_offset)
    if low < 0:
        raise ValueError('Out of buffer: too small index was specified')
    itemsize = array.itemsize
    byte_strides = tuple(s * itemsize for s in strides)
    if isinstance(array, numpy.ndarray):
        base = _numpy_base(array)
        if (high + 1) * itemsize > base.nbytes:
            raise ValueError('Out of buffer: too large index was specified')
        return numpy.ndarray(shape, array.dtype, base.data,
                             storage_offset * itemsize, byte_strides)
    if isinstance(array, cuda.ndarray):
        memory = array.data.mem
        if (high + 1) * itemsize > memory.size:
            raise ValueError('Out of buffer: too large index was specified')
        pointer = cuda.cupy.cuda.memory.MemoryPointer(
            memory, storage_offset * itemsize)
        return cuda.cupy.ndarray(shape, array.dtype, pointer, byte_strides)
    raise TypeError('Only (np|cp).ndarray is accepted')


def _element_indices(xp, shape, strides, offset):
    # The buffer index of each element of a view, as an array of ``shape``.
    indices = xp.full((1,) * len(shape), offset, numpy.intp)
    for axis, (n, s) in enumerate(zip(shape, strides)):
        step_shape = [1] * len(shape)
        step_shape[axis] = n
        indices = indices + (xp.arange(n) * s).reshape(step_shape)
    return xp.broadcast_to(indices, shape)


class AsStrided(function_node.FunctionNode):

    """Views the memory of an array with a new shape and strides."""

    def __init__(self, shape, strides, storage_offset=None):
        self.shape = shape
        self.strides = strides
        self.storage_offset = storage_offset
        self.input_geometry = None

    check_type_forward = type_check._argument_check(('x',))

    def forward(self, inputs):
        x, = inputs
        self.input_geometry = TensorGeometry(x)
        if self.storage_offset is None:
            self.storage_offset = self.input_geometry.storage_offset
        return _stride_array(
            x, self.shape, self.strides, self.storage_offset),

    def backward(self, indexes, grad_outputs):
        return AsStridedGrad(
            self.input_geometry, self.shape, self.strides,
            self.storage_offset).apply(grad_outputs)


class AsStridedGrad(function_node.FunctionNode):

    """Gradient of :class:`AsStrided`.

    The output gradient is added into a buffer at the locations the output
    viewed, and the input gradient is read from the buffer at the
    locations the input viewed. A location the input viewed several times
    shares its gradient equally among them.
    """

    def __init__(self, input_geometry, shape, strides, storage_offset):
        self.input_geometry = input_geometry
        self.shape = shape
        self.strides = strides
        self.storage_offset = storage_offset

    def forward(self, inputs):
        gy, = inputs
        if gy.dtype.kind != 'f':
            raise TypeError('Only float is supported for back propagation')
        xp = backend.get_array_module(gy)
        geometry = self.input_geometry
        if gy.size == 0 or 0 in geometry.shape:
            return xp.zeros(geometry.shape, gy.dtype),
        in_range = _index_range(
            geometry.shape, geometry.strides, geometry.storage_offset)
        out_range = _index_range(
            self.shape, self.strides, self.storage_offset)
        low = min(in_range[0], out_range[0])
        size = max(in_range[1], out_range[1]) - low + 1
        out_indices = _element_indices(
            xp, self.shape, self.strides, self.storage_offset - low)
        if _may_overlap(self.shape, self.strides):
            storage = xp.bincount(
                out_indices.ravel(), gy.ravel(), minlength=size)
            storage = storage.astype(gy.dtype, copy=False)
        else:
            storage = xp.zeros(size, gy.dtype)
            storage[out_indices] = gy
        in_indices = _element_indices(
            xp, geometry.shape, geometry.strides,
            geometry.storage_offset - low)
        if _may_overlap(geometry.shape, geometry.strides):
            count = xp.bincount(in_indices.ravel(), minlength=size)
            with numpy.errstate(divide='ignore', invalid='ignore'):
                storage /= count.astype(gy.dtype, copy=False)
        return utils.force_array(storage[in_indices]),

    def backward(self, indexes, grad_outputs):
        raise NotImplementedError


def as_strided(x, shape, strides, storage_offset=None):
    """Views the memory of a variable with a new shape and strides.

    Like :func:`numpy.lib.stride_tricks.as_strided`, but the strides and
    the offset count elements, not bytes, and the offset is taken from the
    start of the memory buffer that ``x`` views, as in PyTorch's
    ``as_strided``. Views of overlapping elements are allowed; an element
    seen several times gets the sum of their gradients.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable.
        shape (tuple of int): The shape the result has.
        strides (tuple of int): The strides of the output, in elements.
        storage_offset (int): The position of the first output element in
            the memory buffer, in elements. By default, that of ``x``.

    Returns:
        ~chainer.Variable: The strided view.

    .. warning::
        The output shares memory with ``x``: writing into either changes
        the other. It has no double backward.

    .. admonition:: Example

        >>> x = np.arange(6, dtype=np.float32)
        >>> F.as_strided(x, (3, 2), (2, 1)).array
        array([[0., 1.],
               [2., 3.],
               [4., 5.]], dtype=float32)
        >>> F.as_strided(x, (3, 3), (1, 1), 1).array
        array([[1., 2., 3.],
               [2., 3., 4.],
               [3., 4., 5.]], dtype=float32)

    """
    return AsStrided(shape, strides, storage_offset).apply((x,))[0]
