"""Highway layer."""

from chainer.functions.activation import relu
from chainer.functions.activation import sigmoid
from chainer import link
from chainer.links.connection import linear


class Highway(link.Chain):
    """Highway layer: ``y = h(x W_H + b_H) * T + x * (1 - T)`` with the
    transform gate ``T = sigmoid(x W_T + b_T)``.

    The input and output have the same size.

    Args:
        in_out_size (int): Width of the input, which the output keeps.
        nobias (bool): If ``True``, the two linear maps have no bias.
        activate: Activation ``h`` of the plain path.
        init_Wh: Initializer of the plain weight ``plain.W``.
        init_Wt: Initializer of the gate weight ``transform.W``.
        init_bh: Initializer of the plain bias; ``None`` means zeros.
        init_bt: Initializer of the gate bias; ``-1`` by default, so that
            the layer starts close to the identity.

    Attributes:
        plain (~chainer.links.Linear): Linear map of the plain path.
        transform (~chainer.links.Linear): Linear map of the gate.

    See: Srivastava et al., `Highway Networks
    <https://arxiv.org/abs/1505.00387>`_
    """

    def __init__(self, in_out_size, nobias=False, activate=relu.relu,
                 init_Wh=None, init_Wt=None, init_bh=None, init_bt=-1):
        super().__init__()
        self.activate = activate
        with self.init_scope():
            self.plain = linear.Linear(
                in_out_size, in_out_size, nobias=nobias,
                initialW=init_Wh, initial_bias=init_bh)
            self.transform = linear.Linear(
                in_out_size, in_out_size, nobias=nobias,
                initialW=init_Wt, initial_bias=init_bt)

    def forward(self, x):
        """Applies the layer.

        Args:
            x (:class:`~chainer.Variable` or :ref:`ndarray`): Input of shape
                ``(n, in_out_size)``.

        Returns:
            ~chainer.Variable: Output of the same shape.
        """
        out_plain = self.activate(self.plain(x))
        gate = sigmoid.sigmoid(self.transform(x))
        return out_plain * gate + x * (1 - gate)
