import chainer
import chainer.functions as F
import chainer.links as L
import numpy as np
import pytest


def _x(*shape, scale=0.1):
    x = np.arange(np.prod(shape)).reshape(shape) % 9 - 4
    return (x * scale).astype(np.float32)


def _weights(n_layers, n_mats, in_size, hidden, n_dirs=1):
    rng = np.random.RandomState(0)
    ws, bs = [], []
    for index in range(n_layers * n_dirs):
        size = in_size if index < n_dirs else hidden * n_dirs
        ws.append([rng.uniform(-0.5, 0.5, (hidden, size if i < n_mats // 2
                                           else hidden)).astype(np.float32)
                   for i in range(n_mats)])
        bs.append([rng.uniform(-0.5, 0.5, hidden).astype(np.float32)
                   for _ in range(n_mats)])
    return ws, bs


class _NStep(chainer.Chain):

    def __init__(self, n_layers, n_mats, in_size, hidden, n_dirs=1):
        super().__init__()
        ws, bs = _weights(n_layers, n_mats, in_size, hidden, n_dirs)
        self.n_layers = n_layers
        self.n_weights = n_layers * n_dirs
        with self.init_scope():
            for layer in range(self.n_weights):
                for i in range(n_mats):
                    setattr(self, 'w{}_{}'.format(layer, i),
                            chainer.Parameter(ws[layer][i]))
                    setattr(self, 'b{}_{}'.format(layer, i),
                            chainer.Parameter(bs[layer][i]))
        self.n_mats = n_mats

    def params_of(self, kind):
        return [[getattr(self, '{}{}_{}'.format(kind, layer, i))
                 for i in range(self.n_mats)]
                for layer in range(self.n_weights)]


@pytest.mark.parametrize('n_layers', [1, 2])
def test_n_step_gru(check_all_opsets, n_layers):
    class Model(_NStep):
        def forward(self, hx, *xs):
            hy, ys = F.n_step_gru(self.n_layers, 0.0, hx, self.params_of('w'),
                                  self.params_of('b'), list(xs))
            return (hy,) + tuple(ys)

    model = Model(n_layers, 6, 4, 5)
    hx = _x(n_layers, 3, 5)
    xs = [_x(3, 4) * (i + 1) for i in range(4)]
    check_all_opsets(model, [hx] + xs, 'n_step_gru')


@pytest.mark.parametrize('n_layers', [1, 2])
def test_n_step_lstm(check_all_opsets, n_layers):
    class Model(_NStep):
        def forward(self, hx, cx, *xs):
            hy, cy, ys = F.n_step_lstm(
                self.n_layers, 0.0, hx, cx, self.params_of('w'),
                self.params_of('b'), list(xs))
            return (hy, cy) + tuple(ys)

    model = Model(n_layers, 8, 4, 5)
    hx = _x(n_layers, 3, 5)
    cx = _x(n_layers, 3, 5) * 2
    xs = [_x(3, 4) * (i + 1) for i in range(3)]
    check_all_opsets(model, [hx, cx] + xs, 'n_step_lstm')


@pytest.mark.parametrize('n_layers', [1, 2])
def test_n_step_bigru(check_all_opsets, n_layers):
    class Model(_NStep):
        def forward(self, hx, *xs):
            hy, ys = F.n_step_bigru(
                self.n_layers, 0.0, hx, self.params_of('w'),
                self.params_of('b'), list(xs))
            return (hy,) + tuple(ys)

    model = Model(n_layers, 6, 4, 5, n_dirs=2)
    xs = [_x(3, 4) * (i + 1) for i in range(3)]
    check_all_opsets(model, [_x(2 * n_layers, 3, 5)] + xs, 'n_step_bigru')


def test_n_step_bilstm(check_all_opsets):
    class Model(_NStep):
        def forward(self, hx, cx, *xs):
            hy, cy, ys = F.n_step_bilstm(
                self.n_layers, 0.0, hx, cx, self.params_of('w'),
                self.params_of('b'), list(xs))
            return (hy, cy) + tuple(ys)

    model = Model(2, 8, 4, 5, n_dirs=2)
    xs = [_x(3, 4) * (i + 1) for i in range(3)]
    check_all_opsets(model, [_x(4, 3, 5), _x(4, 3, 5) * 2] + xs,
                     'n_step_bilstm')


@pytest.mark.parametrize('activation,n_dirs', [
    ('tanh', 1), ('relu', 1), ('tanh', 2)])
def test_n_step_rnn(check_all_opsets, activation, n_dirs):
    class Model(_NStep):
        def forward(self, hx, *xs):
            rnn = F.n_step_rnn if n_dirs == 1 else F.n_step_birnn
            hy, ys = rnn(self.n_layers, 0.0, hx, self.params_of('w'),
                         self.params_of('b'), list(xs),
                         activation=activation)
            return (hy,) + tuple(ys)

    model = Model(2, 2, 4, 5, n_dirs=n_dirs)
    xs = [_x(3, 4) * (i + 1) for i in range(3)]
    name = 'n_step_rnn' if n_dirs == 1 else 'n_step_birnn'
    check_all_opsets(model, [_x(2 * n_dirs, 3, 5)] + xs, name)


def test_different_lengths_are_exported_step_by_step(check):
    # No ONNX RNN op takes them: the steps are exported one by one, exact
    # for the lengths given.
    class Model(_NStep):
        def forward(self, hx, *xs):
            hy, ys = F.n_step_gru(self.n_layers, 0.0, hx, self.params_of('w'),
                                  self.params_of('b'), list(xs))
            return hy

    model = check(Model(1, 6, 4, 5), [_x(1, 2, 5), _x(2, 4), _x(1, 4)], 11)
    assert 'GRU' not in [node.op_type for node in model.graph.node]


def test_lstm_function(check_all_opsets):
    model = chainer.Sequential(F.lstm)
    check_all_opsets(model, (_x(3, 5), _x(3, 20, scale=0.3)), 'LSTM')


def test_embed_id_lstm(check_all_opsets):
    class Model(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.embed = L.EmbedID(10, 4)
                self.lstm = L.LSTM(4, 6)
                self.out = L.Linear(6, 3)

        def forward(self, words):
            self.lstm.reset_state()
            ys = [self.out(self.lstm(self.embed(words[:, t])))
                  for t in range(words.shape[1])]
            return F.stack(ys, axis=1)

    np.random.seed(1)
    words = np.array([[1, 4, 2, 9], [3, 0, 0, 7]], np.int32)
    check_all_opsets(Model(), words, 'LSTM')


@pytest.mark.parametrize('link, op', [
    (lambda: L.NStepGRU(1, 4, 5, 0.0), 'GRU'),
    (lambda: L.NStepBiLSTM(1, 4, 5, 0.0), 'LSTM'),
    (lambda: L.NStepRNNTanh(2, 4, 5, 0.0), 'RNN'),
])
def test_n_step_links_export_one_recurrent_op(check, link, op):
    # The links call the functions of their modules, not of
    # chainer.functions: those are wrapped during export too.
    class Model(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.rnn = link()

        def forward(self, *xs):
            return F.stack(self.rnn(None, *([None] * (op == 'LSTM')),
                                    list(xs))[-1])

    np.random.seed(0)
    model = check(Model(), [_x(3, 4), _x(3, 4)], 11)
    ops = [node.op_type for node in model.graph.node]
    assert op in ops and 'MatMul' not in ops and 'Gemm' not in ops
