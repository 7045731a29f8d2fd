"""A link that holds one array as a parameter."""

from chainer.backends import cuda
from chainer.functions.math import identity
from chainer import link


class Parameter(link.Link):
    """Link holding a single parameter ``W``, returned by a call.

    It makes a bare array trainable inside a chain.

    Args:
        array (:ref:`ndarray`): The initial value of ``W``; the parameter
            takes this array (not a copy), on its device.

    Attributes:
        W (~chainer.Parameter): The parameter.
    """

    def __init__(self, array):
        super().__init__()
        self.add_param('W', array.shape, dtype=array.dtype)
        self.W.array = array
        if isinstance(array, cuda.ndarray):
            self.to_gpu(cuda.get_device_from_array(array))

    def forward(self, volatile='off'):
        """Returns the parameter through an identity function.

        Args:
            volatile: Ignored; kept for compatibility with old code.

        Returns:
            ~chainer.Variable: A variable with the value of ``W``, whose
            gradient flows to ``W``.
        """
        return identity.identity(self.W)
