import numpy

import chainer
from chainer.functions.array import permutate
from chainer.functions.array import transpose_sequence
from chainer.functions.rnn import n_step_rnn as rnn
from chainer import initializers
from chainer import link
from chainer import variable


def argsort_list_descent(lst):
    """Indices that sort sequences by decreasing length.

    Ties are ordered as NumPy's default sort orders them (not stably), as in
    Chainer: the order decides which sequence takes which dropout mask.

    Args:
        lst (list): Sequences (anything with a length).

    Returns:
        numpy.ndarray: ``int32`` indices.
    """
    return numpy.argsort([-len(x) for x in lst]).astype(numpy.int32)


def permutate_list(lst, indices, inv):
    """Reorders a list by ``indices`` (or by their inverse if ``inv``).

    With ``inv=False`` the result is ``[lst[i] for i in indices]``; with
    ``inv=True`` it is the list ``ret`` such that ``ret[indices[k]] =
    lst[k]``.
    """
    if not inv:
        return [lst[i] for i in indices]
    ret = [None] * len(lst)
    for k, i in enumerate(indices):
        ret[i] = lst[k]
    return ret


class NStepRNNBase(link.ChainList):

    """__init__(self, n_layers, in_size, out_size, dropout, \
*, initialW=None, initial_bias=None)

    Base class of the stacked RNN links over whole sequences.

    The parameters of each layer and direction live in one child
    :class:`~chainer.Link` (layer ``k``, direction ``d`` is child
    ``k * n_directions + d``) as ``w0, ..., w{n-1}`` and ``b0, ...,
    b{n-1}``, where ``n`` is :attr:`n_weights`. The first half of the
    weights act on the layer input (``in_size`` wide for the first layer,
    ``out_size`` times the number of directions for the others), the second
    half on the hidden state. :attr:`ws` and :attr:`bs` list them as the
    ``n_step_*`` functions expect.

    Subclasses set :attr:`n_weights`, :attr:`use_bi_direction`,
    :attr:`n_cells` if not 1, and :meth:`rnn`.

    Args:
        n_layers (int): Number of layers.
        in_size (int): Width of each input row.
        out_size (int): Width of the hidden states, which are also the
            outputs.
        dropout (float): Dropout ratio between layers.
        initialW: Initializer of the weights; ``None`` draws them from
            :class:`~chainer.initializers.LeCunNormal` (standard deviation
            :math:`\\sqrt{1 / \\text{fan_in}}`).
        initial_bias: Initializer of the biases; zero if ``None``.
    """

    n_weights = None
    use_bi_direction = None
    #: Number of state arrays the RNN carries: the hidden states, and the
    #: cell states for the LSTMs (which set it to 2).
    n_cells = 1

    def __init__(self, n_layers, in_size, out_size, dropout,
                 *, initialW=None, initial_bias=None, **kwargs):
        rnn._check_kwargs(
            kwargs, '__init__', use_cudnn='use_cudnn ' + rnn._USING_CONFIG,
            use_bi_direction='use_bi_direction is not supported anymore',
            activation='activation is not supported anymore')

        direction = 2 if self.use_bi_direction else 1
        W_initializer = initializers._get_initializer(initialW)
        bias_initializer = initializers._get_initializer(
            0 if initial_bias is None else initial_bias)
        n_input_weights = self.n_weights // 2

        weights = []
        for layer in range(n_layers):
            w_in = in_size if layer == 0 else out_size * direction
            for _ in range(direction):
                weight = link.Link()
                with weight.init_scope():
                    for j in range(self.n_weights):
                        width = w_in if j < n_input_weights else out_size
                        setattr(weight, 'w%d' % j, variable.Parameter(
                            W_initializer, (out_size, width)))
                        setattr(weight, 'b%d' % j, variable.Parameter(
                            bias_initializer, out_size))
                weights.append(weight)
        super().__init__(*weights)
        self._collect_weights()

        self.n_layers = n_layers
        self.dropout = dropout
        self.out_size = out_size
        self.direction = direction

    def _collect_weights(self):
        n = self.n_weights
        self.ws = [[getattr(child, 'w%d' % j) for j in range(n)]
                   for child in self]
        self.bs = [[getattr(child, 'b%d' % j) for j in range(n)]
                   for child in self]

    def copy(self, mode='share'):
        ret = super().copy(mode)
        ret._collect_weights()
        return ret

    def init_hx(self, xs):
        """Zero initial states for a batch of sequences ``xs``."""
        shape = (self.n_layers * self.direction, len(xs), self.out_size)
        with chainer.using_device(self.device):
            return variable.Variable(
                self.xp.zeros(shape, dtype=xs[0].dtype))

    def rnn(self, *args):
        """Calls the stacked RNN function (given by a subclass)."""
        raise NotImplementedError

    def forward(self, hx, xs, **kwargs):
        """forward(self, hx, xs)

        Runs the RNN over a batch of sequences.

        Args:
            hx (~chainer.Variable or None): Initial hidden states of shape
                ``(S * D, B, N)`` (``S`` layers, ``D`` directions, ``B``
                sequences, ``N`` units); zero if ``None``.
            xs (list of ~chainer.Variable): The ``B`` input sequences, each
                of shape ``(L_i, in_size)``, in any order of lengths.

        Returns:
            tuple: ``(hy, ys)``: the final hidden states, shaped like
            ``hx``, and the list of the last layer's outputs for each
            sequence, of shape ``(L_i, D * N)``.
        """
        (hy,), ys = self._call([hx], xs, **kwargs)
        return hy, ys

    def _call(self, hs, xs, **kwargs):
        """Sorts the sequences, runs :meth:`rnn` and restores the order.

        Args:
            hs (list): The initial state variables (or ``None`` for zeros),
                batch along their second axis.
            xs (list of ~chainer.Variable): One array per sequence.

        Returns:
            tuple: The list of final states and the list of outputs.
        """
        rnn._check_kwargs(kwargs, '_call',
                          train='train ' + rnn._USING_CONFIG)
        assert isinstance(xs, (list, tuple))

        indices = argsort_list_descent(xs)
        xs = permutate_list(xs, indices, inv=False)
        device_indices = self.device.send(indices)
        hxs = [self.init_hx(xs) if h is None else
               permutate.permutate(h, device_indices, axis=1, inv=False)
               for h in hs]
        trans_x = transpose_sequence.transpose_sequence(xs)

        result = self.rnn(self.n_layers, self.dropout, *hxs,
                          self.ws, self.bs, trans_x)

        hys = [permutate.permutate(h, device_indices, axis=1, inv=True)
               for h in result[:-1]]
        ys = transpose_sequence.transpose_sequence(result[-1])
        return hys, permutate_list(ys, indices, inv=True)


class NStepRNNTanh(NStepRNNBase):

    """__init__(self, n_layers, in_size, out_size, dropout, \
*, initialW=None, initial_bias=None)

    Multi-layer tanh RNN link, forward in time, over variable-length
    sequences.

    Unlike :func:`~chainer.functions.n_step_rnn`, it takes the sequences in
    any order of lengths and as a plain list (it sorts and transposes them
    itself).

    Args:
        n_layers (int): Number of layers.
        in_size (int): Width of each input row.
        out_size (int): Width of the hidden states, which are also the
            outputs.
        dropout (float): Dropout ratio between layers.
        initialW: Initializer of the weights.
        initial_bias: Initializer of the biases.
    """

    n_weights = 2
    use_bi_direction = False

    def rnn(self, *args):
        return rnn.n_step_rnn(*args, activation='tanh')


class NStepRNNReLU(NStepRNNBase):

    """__init__(self, n_layers, in_size, out_size, dropout, \
*, initialW=None, initial_bias=None)

    Multi-layer ReLU RNN link, forward in time, over variable-length
    sequences.

    See :class:`NStepRNNTanh`; only the activation differs.
    """

    n_weights = 2
    use_bi_direction = False

    def rnn(self, *args):
        return rnn.n_step_rnn(*args, activation='relu')


class NStepBiRNNTanh(NStepRNNBase):

    """__init__(self, n_layers, in_size, out_size, dropout, \
*, initialW=None, initial_bias=None)

    Multi-layer tanh RNN link, both ways in time, over variable-length
    sequences.

    Each layer runs forward and backward in time; its outputs concatenate
    both directions (see :func:`~chainer.functions.n_step_birnn`).
    """

    n_weights = 2
    use_bi_direction = True

    def rnn(self, *args):
        return rnn.n_step_birnn(*args, activation='tanh')


class NStepBiRNNReLU(NStepRNNBase):

    """__init__(self, n_layers, in_size, out_size, dropout, \
*, initialW=None, initial_bias=None)

    Multi-layer ReLU RNN link, both ways in time, over variable-length
    sequences.

    See :class:`NStepBiRNNTanh`; only the activation differs.
    """

    n_weights = 2
    use_bi_direction = True

    def rnn(self, *args):
        return rnn.n_step_birnn(*args, activation='relu')
