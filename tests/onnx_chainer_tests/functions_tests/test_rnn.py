import chainer
import chainer.functions as F
import chainer.links as L
import numpy as np
import pytest


def _x(*shape, scale=0.1):
    x = np.arange(np.prod(shape)).reshape(shape) % 9 - 4
    return (x * scale).astype(np.float32)


def _weights(n_layers, n_mats, in_size, hidden):
    rng = np.random.RandomState(0)
    ws, bs = [], []
    for layer in range(n_layers):
        size = in_size if layer == 0 else hidden
        ws.append([rng.uniform(-0.5, 0.5, (hidden, size if i < n_mats // 2
                                           else hidden)).astype(np.float32)
                   for i in range(n_mats)])
        bs.append([rng.uniform(-0.5, 0.5, hidden).astype(np.float32)
                   for _ in range(n_mats)])
    return ws, bs


class _NStep(chainer.Chain):

    def __init__(self, n_layers, n_mats, in_size, hidden):
        super().__init__()
        ws, bs = _weights(n_layers, n_mats, in_size, hidden)
        self.n_layers = n_layers
        with self.init_scope():
            for layer in range(n_layers):
                for i in range(n_mats):
                    setattr(self, 'w{}_{}'.format(layer, i),
                            chainer.Parameter(ws[layer][i]))
                    setattr(self, 'b{}_{}'.format(layer, i),
                            chainer.Parameter(bs[layer][i]))
        self.n_mats = n_mats

    def params_of(self, kind):
        return [[getattr(self, '{}{}_{}'.format(kind, layer, i))
                 for i in range(self.n_mats)]
                for layer in range(self.n_layers)]


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
