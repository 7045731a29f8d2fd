"""The recurrent links against numbers recorded from Chainer 7.8.1.

Each case fills the parameters of a link with a fixed pattern, runs it on
fixed inputs and back-propagates a fixed weighted sum of its outputs. The
fixture ``fixtures/rnn_reference.json`` holds, for each case, the outputs
and the sum of the gradient of each parameter computed by Chainer 7.8.1
running these same case functions, and for each link the names and shapes
of its parameters (``namedparams``, hence the keys of saved files).
"""

import json
import os

import numpy
import pytest

import chainer
from chainer.links.rnn import gru
from chainer.links.rnn import lstm
from chainer.links.rnn import mgu
from chainer.links.rnn import n_step_gru
from chainer.links.rnn import n_step_lstm
from chainer.links.rnn import n_step_rnn
from chainer.links.rnn import peephole
from chainer.links.rnn import tree_lstm
from chainer.links.rnn import zoneoutlstm


_FIXTURE = os.path.join(
    os.path.dirname(__file__), 'fixtures', 'rnn_reference.json')


def _fill(link):
    for k, (_, param) in enumerate(sorted(link.namedparams())):
        n = param.array.size
        param.array[...] = (numpy.sin(numpy.arange(n) * 0.7 + k) * 0.5
                            ).reshape(param.shape)


def _inp(shape, k=0):
    n = int(numpy.prod(shape))
    return numpy.cos(numpy.arange(n) * 0.3 + k).reshape(shape).astype(
        numpy.float32)


def _var(shape, k):
    return chainer.Variable(_inp(shape, k))


def _lstm():
    link = lstm.LSTM(3, 4)
    _fill(link)
    ys = [link(_inp((3, 3), 0)), link(_inp((2, 3), 1)),
          link(_inp((2, 3), 2))]
    return link, ys + [link.c, link.h]


def _lstm_set_state():
    link = lstm.LSTM(3, 4)
    _fill(link)
    link.set_state(_var((2, 4), 3), _var((2, 4), 4))
    return link, [link(_inp((2, 3), 0)), link.c]


def _stateless_lstm():
    link = lstm.StatelessLSTM(3, 4)
    _fill(link)
    c, h = link(_var((2, 4), 1), _var((2, 4), 2), _inp((2, 3)))
    c2, h2 = link(c, h, _inp((2, 3), 7))
    return link, [c, h, c2, h2]


def _stateless_lstm_none():
    link = lstm.StatelessLSTM(3, 4)
    _fill(link)
    return link, list(link(None, None, _inp((2, 3))))


def _stateful(cls, n_steps=3, **kwargs):
    link = cls(3, 4, **kwargs)
    _fill(link)
    outs = [link(_inp((2, 3), k)) for k in range(n_steps)]
    if hasattr(link, 'c'):
        outs.append(link.c)
    return link, outs


def _stateless(cls):
    link = cls(3, 4)
    _fill(link)
    return link, [link(_var((2, 4), 1), _inp((2, 3)))]


def _zoneout_test_mode():
    with chainer.using_config('train', False):
        return _stateful(zoneoutlstm.StatefulZoneoutLSTM)


def _zoneout_train_mode():
    numpy.random.seed(3)
    return _stateful(zoneoutlstm.StatefulZoneoutLSTM,
                     c_ratio=0.3, h_ratio=0.6)


def _n_step(cls, with_states):
    link = cls(2, 3, 2, 0.0)
    _fill(link)
    xs = [_inp((length, 3), length) for length in (2, 3, 1)]
    n_dir = 2 if link.use_bi_direction else 1
    if with_states:
        states = [_var((2 * n_dir, 3, 2), 9 + k)
                  for k in range(link.n_cells)]
    else:
        states = [None] * link.n_cells
    out = link(*states, xs)
    return link, list(out[:-1]) + list(out[-1])


def _tree(link):
    _fill(link)
    n = link.n_ary if hasattr(link, 'n_ary') else 0
    c1, h1 = link(*([None] * (2 * n)), _inp((2, 3), 1))
    pad = [None] * (n - 2) if n else []
    c2, h2 = link(c1, None, *pad, h1, None, *pad, _inp((2, 3), 2))
    c3, h3 = link(c1, c2, *pad, h1, h2, *pad, None)
    return link, [c1, h1, c2, h2, c3, h3]


_N_STEP = [n_step_rnn.NStepRNNTanh, n_step_rnn.NStepRNNReLU,
           n_step_rnn.NStepBiRNNTanh, n_step_rnn.NStepBiRNNReLU,
           n_step_gru.NStepGRU, n_step_gru.NStepBiGRU,
           n_step_lstm.NStepLSTM, n_step_lstm.NStepBiLSTM]

CASES = {
    'LSTM': _lstm,
    'LSTM_set_state': _lstm_set_state,
    'StatelessLSTM': _stateless_lstm,
    'StatelessLSTM_none': _stateless_lstm_none,
    'StatefulGRU': lambda: _stateful(gru.StatefulGRU),
    'GRU': lambda: _stateful(gru.GRU, n_steps=2),
    'StatelessGRU': lambda: _stateless(gru.StatelessGRU),
    'StatefulMGU': lambda: _stateful(mgu.StatefulMGU),
    'StatelessMGU': lambda: _stateless(mgu.StatelessMGU),
    'StatefulPeepholeLSTM': lambda: _stateful(peephole.StatefulPeepholeLSTM),
    'StatefulZoneoutLSTM_test': _zoneout_test_mode,
    'StatefulZoneoutLSTM_train': _zoneout_train_mode,
    'ChildSumTreeLSTM': lambda: _tree(tree_lstm.ChildSumTreeLSTM(3, 4)),
    'NaryTreeLSTM': lambda: _tree(tree_lstm.NaryTreeLSTM(3, 4, 3)),
}
for _cls in _N_STEP:
    CASES[_cls.__name__] = (lambda cls=_cls: _n_step(cls, True))
    CASES[_cls.__name__ + '_none'] = (lambda cls=_cls: _n_step(cls, False))


def run_case(name):
    """Runs a case; returns its parameter names, outputs and grad sums."""
    link, outs = CASES[name]()
    weights = [_inp(o.shape, 5 + i) for i, o in enumerate(outs)]
    loss = sum(chainer.functions.sum(o * w) for o, w in zip(outs, weights))
    link.cleargrads()
    loss.backward()
    params = sorted(link.namedparams())
    return {
        'params': ['%s %s' % (n, list(p.shape)) for n, p in params],
        'outputs': [o.array for o in outs],
        # A parameter that took no part has no gradient (NaN here).
        'grad_sums': [numpy.nan if p.grad is None else float(p.grad.sum())
                      for _, p in params],
    }


@pytest.fixture(scope='module')
def reference():
    with open(_FIXTURE) as f:
        return json.load(f)


@pytest.mark.parametrize('name', sorted(CASES))
def test_same_as_original(name, reference):
    expected = reference[name]
    actual = run_case(name)
    assert actual['params'] == expected['params']
    assert len(actual['outputs']) == len(expected['outputs'])
    for out, (shape, values) in zip(actual['outputs'], expected['outputs']):
        assert list(out.shape) == shape
        numpy.testing.assert_allclose(
            out.ravel(), values, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(
        actual['grad_sums'],
        [numpy.nan if v is None else v for v in expected['grad_sums']],
        rtol=1e-5, atol=1e-5)
