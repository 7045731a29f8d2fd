"""Stacked GRUs (links.NStepGRU, links.NStepBiGRU) against the numbers of
Chainer 7.8.1; their common behaviour is tested in test_n_step_rnn.py."""

import pytest

from chainer.links.rnn import n_step_gru


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
