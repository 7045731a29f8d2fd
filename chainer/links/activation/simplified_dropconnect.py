"""Fully-connected layer with simplified DropConnect."""

import numpy

from chainer.functions.noise import simplified_dropconnect
from chainer import initializers
from chainer import link
from chainer import variable


class SimplifiedDropconnect(link.Link):
    """Fully-connected layer whose weights are randomly dropped in
    training, holding the parameters of
    :func:`~chainer.functions.simplified_dropconnect`.

    Args:
        in_size (int or None): Dimension of the input vectors; ``None`` for
            lazy initialization.
        out_size (int): Width of each output row.
        ratio (float): Probability of dropping each weight.
        nobias (bool): If ``True``, there is no bias.
        initialW: Initializer of ``W``; ``None`` means
            ``HeNormal(1 / sqrt(2))``.
        initial_bias: Initializer of ``b``; ``None`` means zeros.

    Attributes:
        W (~chainer.Parameter): Weight of shape ``(out_size, in_size)``.
        b (~chainer.Parameter): Bias of shape ``(out_size,)``, or ``None``.

    See: Wan et al., `Regularization of Neural Networks using DropConnect
    <https://cs.nyu.edu/~wanli/dropc/>`_
    """

    def __init__(self, in_size, out_size, ratio=.5, nobias=False,
                 initialW=None, initial_bias=None):
        super().__init__()
        self.out_size = out_size
        self.ratio = ratio
        if initialW is None:
            initialW = initializers.HeNormal(1.0 / numpy.sqrt(2))
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW))
            if in_size is not None:
                self._initialize_params(in_size)
            if nobias:
                self.b = None
            else:
                if initial_bias is None:
                    initial_bias = initializers.Constant(0)
                self.b = variable.Parameter(
                    initializers._get_initializer(initial_bias), out_size)

    def _initialize_params(self, in_size):
        self.W.initialize((self.out_size, in_size))

    def forward(self, x, train=True, mask=None, use_batchwise_mask=True):
        """Applies the layer.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, ...)``; the non-batch axes are flattened.
            train (bool): Whether to drop weights.
            mask (:ref:`ndarray`): A given mask of kept weights; it is
                also registered as the persistent value ``mask`` on its
                first use.
            use_batchwise_mask (bool): Whether each example gets its own
                mask.

        Returns:
            ~chainer.Variable: Output of shape ``(n, out_size)``.
        """
        if self.W.array is None:
            self._initialize_params(x.size // len(x))
        if mask is not None and 'mask' not in self.__dict__:
            self.add_persistent('mask', mask)
        return simplified_dropconnect.simplified_dropconnect(
            x, self.W, self.b, self.ratio, train, mask, use_batchwise_mask)
