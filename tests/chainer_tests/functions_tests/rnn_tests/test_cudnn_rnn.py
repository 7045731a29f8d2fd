"""The cuDNN nodes of the stacked RNNs.

Without cuDNN they refuse to be built; their arguments and type checks are
exercised with cuDNN's codes stood in for, and what they compute on a GPU
with cuDNN.
"""

import types

import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer.functions.rnn import _cudnn_rnn
from chainer.functions.rnn import n_step_gru
from chainer.functions.rnn import n_step_lstm
from chainer.functions.rnn import n_step_rnn
from chainer.utils import type_check


NODES = {
    'NStepRNNTanh': (n_step_rnn.NStepRNNTanh, 1, False),
    'NStepRNNReLU': (n_step_rnn.NStepRNNReLU, 1, False),
    'NStepBiRNNTanh': (n_step_rnn.NStepBiRNNTanh, 2, False),
    'NStepBiRNNReLU': (n_step_rnn.NStepBiRNNReLU, 2, False),
    'NStepGRU': (n_step_gru.NStepGRU, 1, False),
    'NStepBiGRU': (n_step_gru.NStepBiGRU, 2, False),
    'NStepLSTM': (n_step_lstm.NStepLSTM, 1, True),
    'NStepBiLSTM': (n_step_lstm.NStepBiLSTM, 2, True),
}


@pytest.fixture
def fake_cudnn(monkeypatch):
    """cuDNN's codes of the directions and modes, without cuDNN."""
    names = ['CUDNN_UNIDIRECTIONAL', 'CUDNN_BIDIRECTIONAL', 'CUDNN_RNN_RELU',
             'CUDNN_RNN_TANH', 'CUDNN_GRU', 'CUDNN_LSTM']
    lib = types.SimpleNamespace(**{name: i for i, name in enumerate(names)})
    monkeypatch.setattr(cuda, 'cudnn_enabled', True)
    monkeypatch.setattr(cuda, 'libcudnn', lib)
    return lib


def _types(*arrays):
    return type_check.get_types(arrays, 'in_types', False)


@pytest.mark.skipif(cuda.cudnn_enabled, reason='cuDNN is available')
@pytest.mark.parametrize('name', sorted(NODES))
def test_nodes_need_cudnn(name):
    cls = NODES[name][0]
    with pytest.raises(RuntimeError, match='{} runs on cuDNN'.format(name)):
        cls(1, None, [2, 1])


@pytest.mark.skipif(cuda.cudnn_enabled, reason='cuDNN is available')
def test_weight_concat_needs_cudnn():
    w = numpy.zeros((2, 2), numpy.float32)
    b = numpy.zeros((2,), numpy.float32)
    with pytest.raises(RuntimeError, match='CudnnRNNWeightConcat runs on'):
        n_step_rnn.cudnn_rnn_weight_concat(
            1, None, False, 'rnn_tanh', [[w, w]], [[b, b]])


@pytest.mark.parametrize('rnn_dir,rnn_mode,message', [
    ('up', 'lstm', 'Invalid rnn_dir: "up". Please select from [uni,bi]'),
    ('uni', 'rnn', 'Invalid rnn_mode: "rnn". Please select from '
     '[rnn_relu,rnn_tanh,gru,lstm]'),
])
def test_invalid_direction_or_mode(rnn_dir, rnn_mode, message):
    with pytest.raises(ValueError) as e:
        n_step_rnn.BaseNStepRNN(1, None, [1], rnn_dir, rnn_mode)
    assert str(e.value) == message


def test_train_argument():
    with pytest.raises(ValueError, match='train argument is not supported'):
        n_step_rnn.NStepRNNTanh(1, None, [1], train=True)


@pytest.mark.parametrize('name', sorted(NODES))
def test_attributes(fake_cudnn, name):
    cls, directions, use_cell = NODES[name]
    node = cls(2, 'states', [3, 2, 2])
    assert isinstance(node, n_step_rnn.BaseNStepRNN)
    assert node.n_layers == 2
    assert node.states == 'states'
    assert node.lengths == [3, 2, 2]
    assert node.sections.tolist() == [3, 5, 7]
    assert node.rnn_direction == directions
    assert node.use_cell is use_cell
    expected_dir = (fake_cudnn.CUDNN_UNIDIRECTIONAL if directions == 1
                    else fake_cudnn.CUDNN_BIDIRECTIONAL)
    assert node.rnn_dir == expected_dir


def _node_inputs(use_cell, h_size, total_length, batch=3, units=4):
    h = numpy.zeros((h_size, batch, units), numpy.float32)
    w = numpy.zeros((10, 1, 1), numpy.float32)
    x = numpy.zeros((total_length, 5), numpy.float32)
    return (h, h, w, x) if use_cell else (h, w, x)


@pytest.mark.parametrize('name', sorted(NODES))
def test_type_check(fake_cudnn, name):
    cls, directions, use_cell = NODES[name]
    node = cls(2, None, [3, 2, 2])
    node.check_type_forward(
        _types(*_node_inputs(use_cell, 2 * directions, 7)))
    with pytest.raises(type_check.InvalidType):
        # hx of the wrong number of layers and directions.
        node.check_type_forward(
            _types(*_node_inputs(use_cell, 2 * directions + 1, 7)))
    with pytest.raises(type_check.InvalidType):
        # Inputs that do not add up to the lengths.
        node.check_type_forward(
            _types(*_node_inputs(use_cell, 2 * directions, 6)))


def _weights(n_layers, directions, n_W, in_size, out_size, dtype):
    ws = []
    for layer in range(n_layers):
        for _ in range(directions):
            layer_in = in_size if layer == 0 else out_size * directions
            ws.append([
                numpy.ones((out_size, layer_in if i < n_W // 2 else out_size),
                           dtype) for i in range(n_W)])
    bs = [[numpy.ones((out_size,), dtype) for _ in w] for w in ws]
    return ws, bs


@pytest.mark.parametrize('bi', [False, True])
@pytest.mark.parametrize('rnn_mode,n_W', [('rnn_tanh', 2), ('gru', 6),
                                          ('lstm', 8)])
def test_weight_concat_type_check(fake_cudnn, bi, rnn_mode, n_W):
    directions = 2 if bi else 1
    node = _cudnn_rnn.CudnnRNNWeightConcat(
        2, None, 'bi' if bi else 'uni', rnn_mode)
    assert node.n_W == n_W
    assert node.rnn_direction == directions
    ws, bs = _weights(2, directions, n_W, 3, 4, numpy.float32)
    flat = sum(ws, []) + sum(bs, [])
    node.check_type_forward(_types(*flat))
    with pytest.raises(type_check.InvalidType):
        node.check_type_forward(_types(*flat[:-1]))
    # A matrix of the second layer that takes the input size.
    wrong = list(flat)
    wrong[directions * n_W] = numpy.ones((4, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        node.check_type_forward(_types(*wrong))


@pytest.mark.gpu
@pytest.mark.cudnn
@pytest.mark.parametrize('bi', [False, True])
def test_lstm_node_matches_n_step_lstm_gpu(bi):
    cupy = cuda.cupy
    n_layers, in_size, out_size, lengths = 2, 3, 4, [3, 2, 1]
    directions = 2 if bi else 1
    rs = numpy.random.RandomState(0)
    ws, bs = _weights(n_layers, directions, 8, in_size, out_size,
                      numpy.float32)
    ws = [[rs.uniform(-1, 1, w.shape).astype(w.dtype) for w in ws_i]
          for ws_i in ws]
    bs = [[rs.uniform(-1, 1, b.shape).astype(b.dtype) for b in bs_i]
          for bs_i in bs]
    shape = (n_layers * directions, lengths[0], out_size)
    hx = rs.uniform(-1, 1, shape).astype(numpy.float32)
    cx = rs.uniform(-1, 1, shape).astype(numpy.float32)
    xs = [rs.uniform(-1, 1, (n, in_size)).astype(numpy.float32)
          for n in lengths]
    function = F.n_step_bilstm if bi else F.n_step_lstm
    hy, cy, ys = function(n_layers, 0.0, hx, cx, ws, bs, xs)

    with chainer.using_config('train', False):
        states = cuda.get_cudnn_dropout_states()
        states.set_dropout_ratio(0.0)
        w = n_step_rnn.cudnn_rnn_weight_concat(
            n_layers, states, bi, 'lstm',
            [[cupy.asarray(w) for w in ws_i] for ws_i in ws],
            [[cupy.asarray(b) for b in bs_i] for bs_i in bs])
        cls = n_step_lstm.NStepBiLSTM if bi else n_step_lstm.NStepLSTM
        hy_g, cy_g, ys_g = cls(n_layers, states, lengths)(
            cupy.asarray(hx), cupy.asarray(cx), w,
            cupy.asarray(numpy.concatenate(xs)))
    numpy.testing.assert_allclose(hy_g.array.get(), hy.array, atol=1e-5)
    numpy.testing.assert_allclose(cy_g.array.get(), cy.array, atol=1e-5)
    numpy.testing.assert_allclose(
        ys_g.array.get(), numpy.concatenate([y.array for y in ys]),
        atol=1e-5)
