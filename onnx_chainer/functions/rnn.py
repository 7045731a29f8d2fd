"""Converters of recurrent functions.

``F.n_step_rnn``, ``F.n_step_gru``, ``F.n_step_lstm`` and their
bidirectional forms are made of many function nodes; the exporter wraps
each call into one node (see ``mapping.patch_functions``), converted here
to ONNX ``RNN`` / ``GRU`` / ``LSTM`` operators, one per layer.
"""

from onnx_chainer.functions import _common
from onnx_chainer.functions.opset_version import support
from onnx_chainer.functions.opset_version import unsupported
from onnx_chainer import onnx_helper


def _named_inputs(func, input_names):
    # The input names of each variable argument of a wrapped call, in the
    # structure of the argument; ``None`` for an argument given as None.
    def names(indexes):
        if isinstance(indexes, list):
            return [names(i) for i in indexes]
        return input_names[indexes]

    values = list(func.args) + list(func.kwargs.values())
    keys = list(range(len(func.args))) + list(func.kwargs.keys())
    result = []
    for key, value in zip(keys, values):
        if key in func.input_indexes:
            result.append(names(func.input_indexes[key]))
        else:
            result.append(value)
    return result


def _check_sequence(func, opset_version, xs_vars):
    sizes = {x.shape[0] for x in xs_vars}
    if len(sizes) > 1:
        raise unsupported(
            func, opset_version,
            'sequences of different lengths (batch sizes {}) are not '
            'supported'.format(sorted(sizes)))


def _stack_steps(gb, opset_version, xs_names):
    # (seq_length, batch, input_size) from one (batch, input_size) per step
    steps = [_common.unsqueeze(gb, opset_version, x, [0]) for x in xs_names]
    if len(steps) == 1:
        return steps[0]
    return gb.op('Concat', steps, axis=0)


def _gate_matrices(gb, opset_version, per_direction, order):
    # (n_directions, n_gates * hidden, size): for each direction, its
    # matrices (or biases) concatenated in ONNX's gate order.
    stacked = [
        _common.unsqueeze(gb, opset_version, gb.op(
            'Concat', [mats[i] for i in order], axis=0), [0])
        for mats in per_direction]
    if len(stacked) == 1:
        return stacked[0]
    return gb.op('Concat', stacked, axis=0)


def _layer_states(gb, opset_version, name, n_layers, n_dirs):
    # One (n_directions, batch, hidden) state per layer from the
    # (n_layers * n_directions, batch, hidden) state of Chainer.
    if name is None:
        return [''] * n_layers
    if n_layers == 1:
        return [name]
    return _common.split(gb, opset_version, name, [n_dirs] * n_layers, 0)


def _merge_directions(gb, opset_version, y):
    # (seq_length, n_directions, batch, hidden) to
    # (seq_length, batch, n_directions * hidden), directions side by side
    # as Chainer concatenates them.
    y = _common.transpose(gb, y, [0, 2, 1, 3])
    return _common.reshape(gb, y, (0, 0, -1))


def _recurrent(func, opset_version, input_names, output_names, op_type,
               n_states, n_dirs, w_order, r_order, extra_attrs):
    args = _named_inputs(func, input_names)
    # args[1] is the dropout ratio: the graph is for inference.
    n_layers = args[0]
    states = args[2:2 + n_states]
    ws, bs, xs = args[2 + n_states:5 + n_states]
    if not isinstance(xs, list):
        raise unsupported(func, opset_version, 'xs must be variables')
    xs_vars = [func.inputs[i] for i in func.input_indexes[
        4 + n_states if 4 + n_states in func.input_indexes else 'xs']]
    _check_sequence(func, opset_version, xs_vars)
    first_w = func.input_indexes[
        2 + n_states if 2 + n_states in func.input_indexes else 'ws']
    hidden_size = func.inputs[first_w[0][0]].shape[0]

    gb = onnx_helper.GraphBuilder()
    layer_states = [
        _layer_states(gb, opset_version, s if isinstance(s, str) else None,
                      n_layers, n_dirs) for s in states]
    x = _stack_steps(gb, opset_version, xs)
    finals = [[] for _ in range(n_states)]
    for layer in range(n_layers):
        w = ws[layer * n_dirs:(layer + 1) * n_dirs]
        b = bs[layer * n_dirs:(layer + 1) * n_dirs]
        inputs = [x, _gate_matrices(gb, opset_version, w, w_order),
                  _gate_matrices(gb, opset_version, w, r_order),
                  _gate_matrices(gb, opset_version, b, w_order + r_order),
                  '']
        inputs += [s[layer] for s in layer_states]
        while inputs[-1] == '':
            inputs.pop()
        attrs = dict(extra_attrs)
        if n_dirs == 2:
            attrs['direction'] = 'bidirectional'
        outs = gb.op(op_type, inputs, num_outputs=1 + n_states,
                     hidden_size=int(hidden_size), **attrs)
        x = _merge_directions(gb, opset_version, outs[0])
        for i in range(n_states):
            finals[i].append(outs[1 + i])

    result = func.reconstruct_return_value(output_names)
    state_names, ys_names = result[:n_states], result[n_states]
    if len(ys_names) == 1:
        _common.squeeze(gb, opset_version, x, [0], [ys_names[0]])
    else:
        pieces = _common.split(gb, opset_version, x, [1] * len(ys_names), 0)
        for piece, name in zip(pieces, ys_names):
            _common.squeeze(gb, opset_version, piece, [0], [name])
    for layer_names, name in zip(finals, state_names):
        if len(layer_names) == 1:
            gb.op_output_named('Identity', layer_names, [name])
        else:
            gb.op_output_named('Concat', layer_names, [name], axis=0)
    return gb.nodes()


# Chainer's GRU: W0..W2 act on the input for the reset, update and new
# gates, W3..W5 on the hidden state; ONNX orders gates z, r, h and applies
# the reset after the hidden-state product (linear_before_reset), as
# Chainer does.
_GRU = dict(op_type='GRU', n_states=1, w_order=[1, 0, 2], r_order=[4, 3, 5],
            extra_attrs={'linear_before_reset': 1})
# Chainer's LSTM: W0..W3 act on the input for the input, forget, cell and
# output gates, W4..W7 on the hidden state; ONNX orders them i, o, f, c.
_LSTM = dict(op_type='LSTM', n_states=2, w_order=[0, 3, 1, 2],
             r_order=[4, 7, 5, 6], extra_attrs={})


@support(_common.since(7))
def convert_n_step_gru(func, opset_version, input_names, output_names,
                       context):
    return _recurrent(func, opset_version, input_names, output_names,
                      n_dirs=1, **_GRU)


@support(_common.since(7))
def convert_n_step_bigru(func, opset_version, input_names, output_names,
                         context):
    return _recurrent(func, opset_version, input_names, output_names,
                      n_dirs=2, **_GRU)


@support(_common.since(7))
def convert_n_step_lstm(func, opset_version, input_names, output_names,
                        context):
    return _recurrent(func, opset_version, input_names, output_names,
                      n_dirs=1, **_LSTM)


@support(_common.since(7))
def convert_n_step_bilstm(func, opset_version, input_names, output_names,
                          context):
    return _recurrent(func, opset_version, input_names, output_names,
                      n_dirs=2, **_LSTM)


def _simple_rnn(func, opset_version, input_names, output_names, n_dirs):
    # Chainer's W0 acts on the input, W1 on the hidden state.
    activation = func.kwargs.get(
        'activation', func.args[6] if len(func.args) > 6 else 'tanh')
    names = {'tanh': 'Tanh', 'relu': 'Relu'}
    if activation not in names:
        raise unsupported(func, opset_version,
                          'activation {!r}'.format(activation))
    return _recurrent(func, opset_version, input_names, output_names,
                      'RNN', 1, n_dirs, [0], [1],
                      {'activations': [names[activation]] * n_dirs})


@support(_common.since(7))
def convert_n_step_rnn(func, opset_version, input_names, output_names,
                       context):
    return _simple_rnn(func, opset_version, input_names, output_names, 1)


@support(_common.since(7))
def convert_n_step_birnn(func, opset_version, input_names, output_names,
                         context):
    return _simple_rnn(func, opset_version, input_names, output_names, 2)


@support(_common.since(7))
def convert_LSTM(func, opset_version, input_names, output_names, context):
    # F.lstm: the gates a, i, f, o are interleaved along axis 1 of x;
    # c = tanh(a) * sigmoid(i) + sigmoid(f) * c_prev, h = sigmoid(o) * tanh(c)
    c_prev, x = input_names
    c_shape = tuple(func.inputs[0].shape)
    x_shape = tuple(func.inputs[1].shape)
    if x_shape[0] != c_shape[0]:
        raise unsupported(func, opset_version,
                          'x must have the batch size of c_prev')
    gb = onnx_helper.GraphBuilder()
    gates = _common.reshape(gb, x, (0, c_shape[1], 4) + c_shape[2:])
    a, i, f, o = [
        _common.squeeze(gb, opset_version, g, [2])
        for g in _common.split(gb, opset_version, gates, [1] * 4, 2)]
    a = gb.op('Tanh', [a])
    i, f, o = [gb.op('Sigmoid', [g]) for g in (i, f, o)]
    c = gb.op_output_named(
        'Add', [gb.op('Mul', [a, i]), gb.op('Mul', [f, c_prev])],
        [output_names[0]])
    gb.op_output_named('Mul', [o, gb.op('Tanh', [c])], [output_names[1]])
    return gb.nodes()
