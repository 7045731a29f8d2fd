"""Stacked LSTMs (links.NStepLSTM, links.NStepBiLSTM): the behaviour shared by
the n-step links (n_step_contract.py), their own options and the numbers
of Chainer 7.8.1."""

import importlib.util
import json
import os

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.links.rnn import n_step_lstm


def _load_contract():
    # The tests shared by the n-step links (n_step_contract.py).
    path = os.path.join(os.path.dirname(__file__), 'n_step_contract.py')
    spec = importlib.util.spec_from_file_location('n_step_contract', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


contract = _load_contract()


class TestNStepLSTMContract(contract.NStepRNNContract):
    cases = [
        (n_step_lstm.NStepLSTM, 8, False, 2, F.n_step_lstm),
        (n_step_lstm.NStepBiLSTM, 8, True, 2, F.n_step_bilstm),
    ]


def test_default_initialization():
    numpy.random.seed(0)
    link = n_step_lstm.NStepLSTM(1, 3, 2, 0.5)
    for b in link.bs[0]:
        numpy.testing.assert_array_equal(b.array, 0)
    # The first weight drawn from LeCunNormal, as Chainer 7.8.1 does.
    numpy.testing.assert_allclose(
        link.ws[0][0].array,
        [[1.0184761, 0.23103087, 0.5650746],
         [1.2937803, 1.0782351, -0.56423163]], rtol=1e-6)


def test_unknown_constructor_argument():
    with pytest.raises(TypeError):
        n_step_lstm.NStepLSTM(1, 3, 2, 0.0, foo=1)


def test_retired_train_argument():
    link = n_step_lstm.NStepLSTM(1, 3, 2, 0.0)
    with pytest.raises(ValueError, match='train argument'):
        link(None, None, [numpy.zeros((1, 3), numpy.float32)], train=True)


def test_dropout_in_train_mode():
    link = n_step_lstm.NStepLSTM(2, 3, 4, 0.5)
    xs = [contract.uniform_input((3, 3), 0)]
    with chainer.using_config('train', False):
        a = link(None, None, xs)[2][0].array
        b = link(None, None, xs)[2][0].array
    numpy.testing.assert_array_equal(a, b)
    numpy.random.seed(1)
    c = link(None, None, xs)[2][0].array
    assert not numpy.allclose(a, c)



# Cases run against the numbers recorded from Chainer 7.8.1 (see
# conftest.py): name: function of the helpers, returning the link and its
# outputs.
CHAINER_7_8_CASES = {}
for _cls in (n_step_lstm.NStepLSTM, n_step_lstm.NStepBiLSTM):
    CHAINER_7_8_CASES[_cls.__name__] = (
        lambda helpers, cls=_cls: helpers.n_step(cls, True))
    CHAINER_7_8_CASES[_cls.__name__ + '_none'] = (
        lambda helpers, cls=_cls: helpers.n_step(cls, False))


@pytest.mark.parametrize('name', sorted(CHAINER_7_8_CASES))
def test_matches_chainer_7_8(chainer_7_8, name):
    chainer_7_8.check(name, CHAINER_7_8_CASES[name])


def _load_fixture_script():
    # The cases of the dropout reference, run here on this library.
    path = os.path.join(os.path.dirname(__file__), 'fixtures',
                        'make_n_step_dropout_reference.py')
    spec = importlib.util.spec_from_file_location('dropout_cases', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with open(os.path.join(os.path.dirname(path),
                           'n_step_dropout_reference.json')) as f:
        return module, json.load(f)


def test_dropout_masks_of_tied_lengths_match_chainer_7_8(chainer_7_8):
    # Which of the equally long sequences takes which dropout mask follows
    # Chainer's (not a stable) sort.
    cases, reference = _load_fixture_script()
    type(chainer_7_8)(reference).check(
        'tied_lengths', lambda helpers: cases.tied_lengths())


def test_dropout_at_ratio_zero_draws_as_chainer_7_8():
    cases, reference = _load_fixture_script()
    numpy.testing.assert_allclose(
        cases.draws_at_ratio_zero(), reference['draws_at_ratio_zero'],
        rtol=1e-12)
