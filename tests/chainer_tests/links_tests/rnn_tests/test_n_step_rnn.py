"""The stacked Elman RNN links of links.rnn.n_step_rnn (NStepRNNTanh,
NStepRNNReLU, NStepBiRNNTanh, NStepBiRNNReLU) and the helpers of the
module."""

import importlib.util
import os

import numpy
import pytest

from chainer import functions as F
from chainer.links.rnn import n_step_rnn
from chainer import testing


def _load_contract():
    # The tests shared by the n-step links (n_step_contract.py).
    path = os.path.join(os.path.dirname(__file__), 'n_step_contract.py')
    spec = importlib.util.spec_from_file_location('n_step_contract', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


contract = _load_contract()
N_LAYERS, IN_SIZE, OUT_SIZE = (
    contract.N_LAYERS, contract.IN_SIZE, contract.OUT_SIZE)


class TestNStepRNNContract(contract.NStepRNNContract):
    cases = [
        (n_step_rnn.NStepRNNTanh, 2, False, 1,
         lambda *a: F.n_step_rnn(*a, activation='tanh')),
        (n_step_rnn.NStepRNNReLU, 2, False, 1,
         lambda *a: F.n_step_rnn(*a, activation='relu')),
        (n_step_rnn.NStepBiRNNTanh, 2, True, 1,
         lambda *a: F.n_step_birnn(*a, activation='tanh')),
        (n_step_rnn.NStepBiRNNReLU, 2, True, 1,
         lambda *a: F.n_step_birnn(*a, activation='relu')),
    ]


def _elman(link, hx, xs, activation):
    # Per-sequence NumPy reference of the stacked (bi-)RNN.
    n_dir = link.direction
    hy = numpy.empty_like(hx)
    ys = []
    for s, x in enumerate(xs):
        layer_in = x
        for layer in range(link.n_layers):
            outs = []
            for d in range(n_dir):
                k = layer * n_dir + d
                w0, w1 = (w.array for w in link.ws[k])
                b0, b1 = (b.array for b in link.bs[k])
                h = hx[k, s]
                seq = layer_in if d == 0 else layer_in[::-1]
                out = []
                for x_t in seq:
                    h = activation(w0.dot(x_t) + b0 + w1.dot(h) + b1)
                    out.append(h)
                hy[k, s] = h
                out = numpy.array(out)
                outs.append(out if d == 0 else out[::-1])
            layer_in = numpy.concatenate(outs, axis=1)
        ys.append(layer_in)
    return hy, ys


@pytest.mark.parametrize('cls,activation', [
    (n_step_rnn.NStepRNNTanh, numpy.tanh),
    (n_step_rnn.NStepRNNReLU, lambda x: numpy.maximum(x, 0)),
    (n_step_rnn.NStepBiRNNTanh, numpy.tanh),
    (n_step_rnn.NStepBiRNNReLU, lambda x: numpy.maximum(x, 0)),
])
def test_elman_against_numpy(cls, activation):
    link = cls(N_LAYERS, IN_SIZE, OUT_SIZE, 0.0)
    contract.randomize(link, 1)
    xs = [contract.uniform_input((length, IN_SIZE), k)
          for k, length in enumerate(contract.LENGTHS)]
    hx = contract.uniform_input(
        (N_LAYERS * link.direction, len(xs), OUT_SIZE), 3)
    hy, ys = link(hx, xs)
    hy_ref, ys_ref = _elman(link, hx, xs, activation)
    testing.assert_allclose(hy.array, hy_ref, rtol=1e-5, atol=1e-6)
    for y, y_ref in zip(ys, ys_ref):
        testing.assert_allclose(y.array, y_ref, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('name', ['use_cudnn', 'use_bi_direction',
                                  'activation'])
def test_retired_constructor_arguments(name):
    with pytest.raises(ValueError, match='not supported anymore'):
        n_step_rnn.NStepRNNTanh(1, 3, 2, 0.0, **{name: True})


def test_argsort_and_permutate_list():
    xs = [[0] * 2, [0] * 5, [0] * 2, [0] * 3]
    indices = n_step_rnn.argsort_list_descent(xs)
    assert indices.dtype == numpy.int32
    assert indices.tolist() == [1, 3, 0, 2]
    items = ['a', 'b', 'c', 'd']
    moved = n_step_rnn.permutate_list(items, indices, inv=False)
    assert moved == ['b', 'd', 'a', 'c']
    assert n_step_rnn.permutate_list(moved, indices, inv=True) == items


# Cases run against the numbers recorded from Chainer 7.8.1 (see
# conftest.py): name: function of the helpers, returning the link and its
# outputs.
CHAINER_7_8_CASES = {}
for _cls in (n_step_rnn.NStepRNNTanh, n_step_rnn.NStepRNNReLU,
             n_step_rnn.NStepBiRNNTanh, n_step_rnn.NStepBiRNNReLU):
    CHAINER_7_8_CASES[_cls.__name__] = (
        lambda helpers, cls=_cls: helpers.n_step(cls, True))
    CHAINER_7_8_CASES[_cls.__name__ + '_none'] = (
        lambda helpers, cls=_cls: helpers.n_step(cls, False))


@pytest.mark.parametrize('name', sorted(CHAINER_7_8_CASES))
def test_matches_chainer_7_8(chainer_7_8, name):
    chainer_7_8.check(name, CHAINER_7_8_CASES[name])
