"""Stacked RNNs over variable-length sequences, and the loop they share.

The n-step functions (:func:`n_step_rnn`, :func:`n_step_lstm`,
:func:`n_step_gru` and their bi-directional versions) are built from
differentiable functions, so they run on any device and can be
differentiated twice. Each layer and direction is run by
:func:`_one_direction`: the inputs of all time steps go through one matrix
product (the "projection"), then a cell combines each step's projected
input with the recurrent state. Sequences may end (or, in the backward
direction, start) at different steps: the state rows of the sequences not
present at a step are set aside and put back when needed.
"""

import numpy

from chainer.functions.activation import relu
from chainer.functions.activation import tanh
from chainer.functions.array import concat
from chainer.functions.array import separate
from chainer.functions.array import split_axis
from chainer.functions.array import stack
from chainer.functions.connection import linear
from chainer.functions.noise import dropout
from chainer.functions.rnn._cudnn_rnn import BaseNStepRNN
from chainer.functions.rnn._cudnn_rnn import cudnn_rnn_weight_concat  # NOQA
from chainer.functions.rnn._cudnn_rnn import CudnnRNNWeightConcat  # NOQA
from chainer.utils import argument


_USING_CONFIG = 'argument is not supported anymore. Use chainer.using_config'


def _check_kwargs(kwargs, caller, **retired):
    """Rejects the keyword arguments left in ``kwargs``.

    A retired argument (a key of ``retired``) raises ``ValueError`` with its
    message; any other raises ``TypeError`` naming ``caller``.
    """
    if kwargs:
        argument.check_unexpected_kwargs(kwargs, **retired)
        raise TypeError('{}() got unexpected keyword argument(s) {}'.format(
            caller, ', '.join(repr(k) for k in sorted(kwargs))))


def _check_arguments(function_name, kwargs, xs, ws, activation=None):
    """The argument checks of the n-step functions, in this order: no
    keyword argument is left (``train`` and ``use_cudnn`` are retired),
    ``activation`` (when given) is known, and the inputs are as wide as the
    first weight matrix."""
    _check_kwargs(kwargs, function_name, train='train ' + _USING_CONFIG,
                  use_cudnn='use_cudnn ' + _USING_CONFIG)
    if activation is not None and activation not in _activations:
        raise ValueError('Invalid activation: "%s". Please select from [%s]'
                         % (activation, ','.join(_activations)))
    x_in = xs[0].shape[1]
    w_in = ws[0][0].shape[1]
    if x_in != w_in:
        raise ValueError('Inconsistent input size in input values and weight '
                         'parameters: {} != {}'.format(x_in, w_in))


def _pack(xs):
    # The steps of a sequence stacked along the batch axis, time-major.
    if len(xs) == 1:
        return xs[0]
    return concat.concat(xs, axis=0)


def _split_rows(state, rows):
    """Splits each part of a state (an ``(h, c)`` pair, ``c`` possibly
    ``None``) into its first ``rows`` rows and the others."""
    head, tail = [], []
    for s in state:
        if s is None:
            head.append(None)
            tail.append(None)
        else:
            first, rest = split_axis.split_axis(s, [rows], axis=0)
            head.append(first)
            tail.append(rest)
    return tuple(head), tuple(tail)


def _concat_rows(states):
    if len(states) == 1:
        return states[0]
    return tuple(
        None if parts[0] is None else concat.concat(parts, axis=0)
        for parts in zip(*states))


def _one_direction(cell, x, sections, batches, h, c, reverse):
    """Runs one layer in one direction.

    Args:
        cell: The cell (see :class:`_Cell`).
        x: The packed input sequence.
        sections: Row indices splitting ``x`` into its time steps.
        batches: The mini-batch size of each time step.
        h, c: The initial state (``c`` is ``None`` without a cell state).
        reverse (bool): Whether to visit the steps from the last.

    Returns:
        tuple: The final ``h`` and ``c`` (all rows) and the list of the
        outputs of each time step, in time order.
    """
    steps = [split_axis.split_axis(p, sections, axis=0) if sections
             else (p,) for p in cell.project(x)]
    n_steps = len(batches)
    ys = [None] * n_steps
    state = (h, c)
    rows = len(h)
    # Rows of the state set aside, the piece starting at ``rows`` last.
    pending = []
    for t in (reversed(range(n_steps)) if reverse else range(n_steps)):
        batch = batches[t]
        if batch < rows:
            state, rest = _split_rows(state, batch)
            pending.append(rest)
        elif batch > rows:
            parts = [state]
            while rows < batch and pending:
                piece = pending.pop()
                size = len(piece[0])
                if rows + size > batch:
                    size = batch - rows
                    piece, rest = _split_rows(piece, size)
                    pending.append(rest)
                parts.append(piece)
                rows += size
            state = _concat_rows(parts)
        rows = batch
        state = cell.step([s[t] for s in steps], *state)
        ys[t] = state[0]
    h, c = _concat_rows([state] + pending[::-1])
    return h, c, ys


class _Cell:

    """One layer and direction of an RNN: its weights and its recurrence.

    ``project`` maps the packed inputs of all the time steps at once (a
    tuple of packed arrays, each split into time steps afterwards), and
    ``step`` computes the new ``(h, c)`` from the projected inputs of one
    step and the previous ``h`` and ``c`` (``c`` is ``None`` for cells
    without cell state).
    """

    def project(self, x):
        raise NotImplementedError

    def step(self, projected, h, c):
        raise NotImplementedError


class _FunctionCell(_Cell):

    # A cell given as ``f(x, h, c, w, b) -> (h, c)`` on each step.

    def __init__(self, f, w, b):
        self.f = f
        self.w = w
        self.b = b

    def project(self, x):
        return x,

    def step(self, projected, h, c):
        return self.f(projected[0], h, c, self.w, self.b)


class _RNNCell(_Cell):

    # h_t = activation(W_0 x_t + b_0 + W_1 h_{t-1} + b_1)

    def __init__(self, w, b, activation):
        self.w_x, self.w_h = w
        self.b_x, self.b_h = b
        self.activation = activation

    def project(self, x):
        return linear.linear(x, self.w_x, self.b_x),

    def step(self, projected, h, c):
        return self.activation(
            projected[0] + linear.linear(h, self.w_h, self.b_h)), None


_activations = {'tanh': tanh.tanh, 'relu': relu.relu}


class NStepRNNTanh(BaseNStepRNN):

    """cuDNN node of a uni-directional RNN with tanh; see
    :class:`~chainer.functions.rnn.n_step_rnn.BaseNStepRNN`."""

    def __init__(self, n_layers, states, lengths, **kwargs):
        super().__init__(n_layers, states, lengths, rnn_dir='uni',
                         rnn_mode='rnn_tanh', **kwargs)


class NStepRNNReLU(BaseNStepRNN):

    """cuDNN node of a uni-directional RNN with ReLU; see
    :class:`~chainer.functions.rnn.n_step_rnn.BaseNStepRNN`."""

    def __init__(self, n_layers, states, lengths, **kwargs):
        super().__init__(n_layers, states, lengths, rnn_dir='uni',
                         rnn_mode='rnn_relu', **kwargs)


class NStepBiRNNTanh(BaseNStepRNN):

    """cuDNN node of a bi-directional RNN with tanh; see
    :class:`~chainer.functions.rnn.n_step_rnn.BaseNStepRNN`."""

    def __init__(self, n_layers, states, lengths, **kwargs):
        super().__init__(n_layers, states, lengths, rnn_dir='bi',
                         rnn_mode='rnn_tanh', **kwargs)


class NStepBiRNNReLU(BaseNStepRNN):

    """cuDNN node of a bi-directional RNN with ReLU; see
    :class:`~chainer.functions.rnn.n_step_rnn.BaseNStepRNN`."""

    def __init__(self, n_layers, states, lengths, **kwargs):
        super().__init__(n_layers, states, lengths, rnn_dir='bi',
                         rnn_mode='rnn_relu', **kwargs)


def n_step_rnn_impl(
        f, n_layers, dropout_ratio, hx, cx, ws, bs, xs, use_bi_direction):
    """Runs a stacked RNN whose cell is given as a function.

    Args:
        f: The cell: ``f(x, h, c, w, b)`` returns the new ``(h, c)`` of one
            time step from its input ``x``, the previous state ``h`` and
            ``c`` (all of the same mini-batch size; ``c`` is ``None`` when
            ``cx`` is), and the weights ``w = ws[i]`` and ``b = bs[i]`` of
            the layer and direction.
        n_layers (int): How many layers are stacked.
        dropout_ratio (float): The dropout ratio of the inputs of the layers
            but the first.
        hx: The initial hidden states, of shape ``(D * n_layers, B, N)``
            where ``D`` is 2 for a bi-directional RNN, else 1.
        cx: The initial cell states, shaped as ``hx``, or ``None``.
        ws, bs: The weights and biases of each layer and direction.
        xs: The input sequence, one variable per time step.
        use_bi_direction (bool): Whether the RNN is bi-directional.

    Returns:
        tuple: ``hy``, ``cy`` (``None`` when ``cx`` is) and the tuple
        ``ys`` of the outputs of the last layer.
    """
    return _n_step_rnn(
        lambda w, b: _FunctionCell(f, w, b), n_layers, dropout_ratio, hx, cx,
        ws, bs, xs, use_bi_direction)


def _n_step_rnn(make_cell, n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                use_bi_direction):
    directions = 2 if use_bi_direction else 1
    batches = [len(x) for x in xs]
    sections = numpy.cumsum(batches[:-1]).tolist()
    hxs = separate.separate(hx)
    cxs = (None,) * len(hxs) if cx is None else separate.separate(cx)

    x = _pack(xs)
    hy = []
    cy = []
    for layer in range(n_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            layer_input = x
            if layer > 0:
                # Even at ratio 0: the mask draws from NumPy's generator,
                # as Chainer's does, so that later random numbers agree.
                layer_input = dropout.dropout(x, ratio=dropout_ratio)
            h, c, ys = _one_direction(
                make_cell(ws[index], bs[index]), layer_input, sections,
                batches, hxs[index], cxs[index], direction == 1)
            hy.append(h)
            cy.append(c)
            outputs.append(ys)
        if directions == 1:
            ys = outputs[0]
            if layer == n_layers - 1:
                break
            x = _pack(ys)
        else:
            x = concat.concat([_pack(ys) for ys in outputs], axis=1)
            if layer == n_layers - 1:
                ys = split_axis.split_axis(x, sections, axis=0)
    hy = stack.stack(hy)
    cy = None if cx is None else stack.stack(cy)
    return hy, cy, tuple(ys)


def n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs,
                    activation, use_bi_direction, **kwargs):
    """n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs, activation, \
use_bi_direction)

    Base function of stacked RNNs, uni- or bi-directional.

    :func:`~chainer.functions.n_step_rnn` and
    :func:`~chainer.functions.n_step_birnn` call it; they document the
    other arguments.

    Args:
        activation (str): ``'tanh'`` or ``'relu'``.
        use_bi_direction (bool): Whether the RNN is bi-directional.

    Returns:
        tuple: ``hy`` and the tuple ``ys``.
    """
    _check_arguments('n_step_rnn_base', kwargs, xs, ws, activation)
    f = _activations[activation]
    hy, _, ys = _n_step_rnn(
        lambda w, b: _RNNCell(w, b, f), n_layers, dropout_ratio, hx, None,
        ws, bs, xs, use_bi_direction)
    return hy, ys


def n_step_rnn(
        n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh', **kwargs):
    """n_step_rnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh')

    Multi-layer Elman RNN, running forward in time, over variable-length
    sequences.

    It runs an ``n_layers``-layer Elman RNN over a whole mini-batch of
    sequences at once. Layer :math:`k` computes, from its input :math:`x_t`
    (the input sequence for the first layer, the outputs of layer
    :math:`k - 1` for the others) and its previous hidden state,

    .. math::

       h_t = f(W_0 x_t + W_1 h_{t-1} + b_0 + b_1),

    where :math:`f` is the activation function, tanh or ReLU. Between
    layers, the inputs go through :func:`~chainer.functions.dropout` with
    ratio ``dropout_ratio``.

    Args:
        n_layers (int): How many layers are stacked, :math:`S`.
        dropout_ratio (float): The dropout ratio of the inputs of the layers
            but the first.
        hx (:class:`~chainer.Variable`): The initial hidden states, of
            shape ``(S, B, N)``, where ``B`` is the mini-batch size and ``N``
            the number of hidden units.
        ws (list of list of :class:`~chainer.Variable`): ``ws[k]`` holds the
            two weight matrices :math:`W_0, W_1` of layer ``k``. ``ws[0][0]``
            has shape ``(N, I)``, ``I`` being the input size; all the others
            ``(N, N)``.
        bs (list of list of :class:`~chainer.Variable`): ``bs[k]`` holds the
            two bias vectors :math:`b_0, b_1` of layer ``k``, of shape
            ``(N,)``.
        xs (list of :class:`~chainer.Variable`): The input sequence:
            ``xs[t]`` holds the inputs at time ``t``, of shape
            ``(B_t, I)``. Sequences of different lengths are sorted by
            decreasing length and transposed (see
            :func:`~chainer.functions.transpose_sequence`), so that
            ``xs[t].shape[0] >= xs[t + 1].shape[0]``.
        activation (str): The activation function, ``'tanh'`` or
            ``'relu'``.

    Returns:
        tuple: ``hy``, the final hidden states (shaped as ``hx``), and
        ``ys``, a tuple holding for each time step ``t`` the outputs of the
        last layer, of shape ``(B_t, N)``.

    .. admonition:: Example

        >>> batches = [3, 2, 1]
        >>> in_size, n_units, n_layers = 3, 2, 2
        >>> xs = [np.ones((b, in_size), np.float32) for b in batches]
        >>> hx = np.zeros((n_layers, batches[0], n_units), np.float32)
        >>> ws = [[np.ones((n_units, in_size if k == 0 and j == 0
        ...                 else n_units), np.float32) for j in range(2)]
        ...       for k in range(n_layers)]
        >>> bs = [[np.zeros(n_units, np.float32) for j in range(2)]
        ...       for k in range(n_layers)]
        >>> hy, ys = F.n_step_rnn(n_layers, 0.0, hx, ws, bs, xs)
        >>> hy.shape
        (2, 3, 2)
        >>> [y.shape for y in ys]
        [(3, 2), (2, 2), (1, 2)]

    """
    return n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs,
                           activation, use_bi_direction=False, **kwargs)


def n_step_birnn(
        n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh', **kwargs):
    """n_step_birnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh')

    Multi-layer Elman RNN, running both ways in time, over
    variable-length sequences.

    Each layer runs two RNNs as in :func:`~chainer.functions.n_step_rnn`,
    one from the first time step to the last (forward) and one from the
    last to the first (backward), and outputs at each step the
    concatenation :math:`[h^f_t; h^b_t]` of their hidden states.

    Args:
        n_layers (int): How many layers are stacked, :math:`S`.
        dropout_ratio (float): The dropout ratio of the inputs of the layers
            but the first.
        hx (:class:`~chainer.Variable`): The initial hidden states, of
            shape ``(2S, B, N)``: ``hx[2 * k]`` for the forward and
            ``hx[2 * k + 1]`` for the backward direction of layer ``k``.
        ws (list of list of :class:`~chainer.Variable`): ``ws[2 * k + d]``
            holds the two weight matrices of direction ``d`` (0: forward,
            1: backward) of layer ``k``. ``ws[0][0]`` and ``ws[1][0]`` have
            shape ``(N, I)``; ``ws[i][0]`` for ``i >= 2`` have shape
            ``(N, 2N)``; all the others ``(N, N)``.
        bs (list of list of :class:`~chainer.Variable`): ``bs[2 * k + d]``
            holds the two bias vectors, of shape ``(N,)``, of direction
            ``d`` of layer ``k``.
        xs (list of :class:`~chainer.Variable`): The input sequence, as in
            :func:`~chainer.functions.n_step_rnn`.
        activation (str): The activation function, ``'tanh'`` or
            ``'relu'``.

    Returns:
        tuple: ``hy``, the final hidden states (shaped as ``hx``), and
        ``ys``, a tuple holding for each time step ``t`` the outputs of the
        last layer, of shape ``(B_t, 2N)``.

    """
    return n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs,
                           activation, use_bi_direction=True, **kwargs)
