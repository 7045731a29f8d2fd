"""A function computed by compiled Theano functions."""

from chainer import backend
from chainer.backends import cuda
from chainer import function
from chainer.utils import type_check


def _to_device_of(arrays, inputs):
    # The results of Theano (NumPy arrays), sent to the GPU the inputs are
    # on, if they are on one.
    if backend.get_array_module(*inputs) is not cuda.cupy:
        return arrays
    device = cuda.get_device_from_array(*inputs)
    return [cuda.to_gpu(a, device) for a in arrays]


class TheanoFunction(function.Function):

    """Function whose forward and backward computations are Theano's.

    Theano computes on the CPU: CuPy arrays are copied to the host, and the
    results back to the GPU of the inputs.

    Args:
        forward_func: The compiled Theano function of the outputs. Its
            ``indices`` describe its inputs, whose number of axes and dtype
            the inputs must have.
        backward_func: The compiled Theano function that takes the inputs
            and then the gradients of the outputs, and returns the gradients
            of the inputs.
    """

    def __init__(self, forward_func, backward_func):
        self.forward_func = forward_func
        self.backward_func = backward_func

    def check_type_forward(self, in_types):
        expected = self.forward_func.indices
        type_check.expect(in_types.size() == len(expected))
        for in_type, info in zip(in_types, expected):
            theano_type = info[0].variable.type
            # Theano does not know the shapes, only the ranks and dtypes.
            type_check.expect(
                in_type.ndim == theano_type.ndim,
                in_type.dtype == theano_type.numpy_dtype,
            )

    def forward(self, inputs):
        outputs = self.forward_func(*[cuda.to_cpu(x) for x in inputs])
        return tuple(_to_device_of(outputs, inputs))

    def backward(self, inputs, grad_outputs):
        args = [cuda.to_cpu(a) for a in inputs + grad_outputs]
        grads = self.backward_func(*args)
        assert len(grads) == len(inputs)
        grads = _to_device_of(grads, inputs)
        # Inputs that are not floats get no gradient; the others get one
        # of their own dtype.
        return tuple(
            None if x.dtype.kind != 'f' else g.astype(x.dtype, copy=False)
            for g, x in zip(grads, inputs))


def theano_function(forward_func, backward_func, *inputs):
    """Applies compiled Theano functions as a Chainer function.

    Args:
        forward_func: The compiled Theano function of the outputs.
        backward_func: The compiled Theano function of the gradients of the
            inputs, from the inputs and the gradients of the outputs.
        inputs (tuple of :class:`~chainer.Variable` or :ref:`ndarray`): The
            inputs.

    Returns:
        ~chainer.Variable or tuple of ~chainer.Variable: The outputs of
        ``forward_func``; a single output is returned alone.

    .. seealso:: :class:`~chainer.links.TheanoFunction`, which compiles
       the two functions from Theano variables.
    """
    return TheanoFunction(forward_func, backward_func)(*inputs)
