"""chainer.utils.nondeterministic."""

import pytest

import chainer


def test_nondeterministic_warns_only_when_asked(no_warning):
    with no_warning():
        chainer.utils.nondeterministic('F.foo')
    with chainer.using_config('warn_nondeterministic', True):
        with pytest.warns(UserWarning, match='Source: F.foo'):
            chainer.utils.nondeterministic('F.foo')
