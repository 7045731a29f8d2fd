"""Stacked GRUs (links.NStepGRU, links.NStepBiGRU): the behaviour shared by
the n-step links (n_step_contract.py), their own options and the numbers
of Chainer 7.8.1."""

import importlib.util
import os

import numpy
import pytest

from chainer import functions as F
from chainer.links.rnn import n_step_gru


def _load_contract():
    # The tests shared by the n-step links (n_step_contract.py).
    path = os.path.join(os.path.dirname(__file__), 'n_step_contract.py')
    spec = importlib.util.spec_from_file_location('n_step_contract', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


contract = _load_contract()


class TestNStepGRUContract(contract.NStepRNNContract):
    cases = [
        (n_step_gru.NStepGRU, 6, False, 1, F.n_step_gru),
        (n_step_gru.NStepBiGRU, 6, True, 1, F.n_step_bigru),
    ]


def test_initializers():
    link = n_step_gru.NStepBiGRU(2, 3, 2, 0.0, initialW=0.5,
                                 initial_bias=-1.0)
    for ws, bs in zip(link.ws, link.bs):
        for w, b in zip(ws, bs):
            numpy.testing.assert_array_equal(w.array, 0.5)
            numpy.testing.assert_array_equal(b.array, -1)



# Cases run against the numbers recorded from Chainer 7.8.1 (see
# conftest.py): name: function of the helpers, returning the link and its
# outputs.
CHAINER_7_8_CASES = {}
for _cls in (n_step_gru.NStepGRU, n_step_gru.NStepBiGRU):
    CHAINER_7_8_CASES[_cls.__name__] = (
        lambda helpers, cls=_cls: helpers.n_step(cls, True))
    CHAINER_7_8_CASES[_cls.__name__ + '_none'] = (
        lambda helpers, cls=_cls: helpers.n_step(cls, False))


@pytest.mark.parametrize('name', sorted(CHAINER_7_8_CASES))
def test_matches_chainer_7_8(chainer_7_8, name):
    chainer_7_8.check(name, CHAINER_7_8_CASES[name])
