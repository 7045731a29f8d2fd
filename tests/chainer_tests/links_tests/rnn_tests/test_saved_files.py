"""Saved files of the recurrent links are interchangeable with Chainer 7.8.

``fixtures/original_rnn_links.npz`` was written by Chainer 7.8.1's
``save_npz`` from the chain built by :func:`_chain` right after
``numpy.random.seed(0)``.
"""

import os

import numpy

import chainer
from chainer.links.rnn import lstm
from chainer.links.rnn import n_step_gru
from chainer.links.rnn import n_step_lstm
from chainer import serializers


_FIXTURE = os.path.join(
    os.path.dirname(__file__), 'fixtures', 'original_rnn_links.npz')


def _chain(seed):
    numpy.random.seed(seed)
    chain = chainer.Chain()
    with chain.init_scope():
        chain.lstm = lstm.LSTM(2, 3)
        chain.nstep = n_step_lstm.NStepBiLSTM(1, 2, 1, 0.0)
        chain.gru = n_step_gru.NStepGRU(1, 1, 1, 0.0)
    return chain


def _arrays(chain):
    return {name[1:]: p.array for name, p in chain.namedparams()}


def test_load_original_file():
    chain = _chain(1)
    serializers.load_npz(_FIXTURE, chain)
    with numpy.load(_FIXTURE) as f:
        saved = {key: f[key] for key in f.files}
    arrays = _arrays(chain)
    assert sorted(arrays) == sorted(saved)
    for key, value in saved.items():
        numpy.testing.assert_array_equal(arrays[key], value, err_msg=key)
    # The same draws as the original for the same seed.
    for key, value in _arrays(_chain(0)).items():
        numpy.testing.assert_array_equal(value, saved[key], err_msg=key)


def test_saved_keys_and_round_trip(tmp_path):
    path = str(tmp_path / 'links.npz')
    saved_chain = _chain(0)
    serializers.save_npz(path, saved_chain)
    with numpy.load(path) as f, numpy.load(_FIXTURE) as original:
        assert sorted(f.files) == sorted(original.files)
    chain = _chain(2)
    serializers.load_npz(path, chain)
    expected = _arrays(saved_chain)
    for key, value in _arrays(chain).items():
        numpy.testing.assert_array_equal(value, expected[key], err_msg=key)
    assert chain.nstep.ws[1][3] is chain.nstep[1].w3
