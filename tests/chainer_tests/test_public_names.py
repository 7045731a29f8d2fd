"""Every module and name that Chainer 7.8.1 offers imports here.

``fixtures/public_names.txt`` lists them: the modules of Chainer 7.8.1,
their public names, and the ``chainer.<...>`` paths (private ones
included) that Chainer's source and test suite use; it was written by
``fixtures/make_public_names.py`` under Chainer 7.8.1.
``fixtures/public_names_pending.txt`` holds the entries not provided yet.
"""

import os
import sys
import warnings

import pytest

FIXTURES = os.path.join(os.path.dirname(__file__), 'fixtures')


def _read(name):
    with open(os.path.join(FIXTURES, name)) as f:
        return [line.strip() for line in f if line.strip()]


@pytest.fixture(scope='module')
def names():
    sys.path.insert(0, FIXTURES)
    try:
        import make_public_names
    finally:
        sys.path.remove(FIXTURES)
    return make_public_names


def test_listed_names_resolve(names):
    listed = names.read_list()
    assert len(listed) > 1000
    pending = set(_read('public_names_pending.txt'))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        failures = names.missing(listed)
    unexpected = [(path, error) for path, error in failures
                  if path not in pending]
    assert unexpected == []


def test_pending_names_are_listed():
    listed = set(_read('public_names.txt'))
    assert set(_read('public_names_pending.txt')) <= listed


@pytest.mark.parametrize('path', [
    'chainer.basic_math',
    'chainer.array',
    'chainer.Fallback',
    'chainer._get_link_hooks',
    'chainer._thread_local',
    'chainer.function.no_backprop_mode',
    'chainer.function.force_backprop_mode',
    'chainer.types.NdArray',
    'chainer.utils.collections_abc.MutableSequence',
    'chainer.utils._collections.OrderedDict',
    'chainer.utils.meta.final',
])
def test_names_of_the_ecosystem(names, path):
    assert names._resolve(path) is not None


def test_aliases_are_the_same_objects():
    import collections
    import collections.abc

    import chainer
    from chainer.functions.math import basic_math
    from chainer.utils import _collections
    from chainer.utils import collections_abc

    assert chainer.basic_math is basic_math
    assert chainer.array is chainer.functions.array
    assert chainer.function.no_backprop_mode is chainer.no_backprop_mode
    assert chainer.function.force_backprop_mode is \
        chainer.force_backprop_mode
    assert collections_abc.Iterable is collections.abc.Iterable
    assert _collections.OrderedDict is collections.OrderedDict
    assert repr(chainer.Fallback) == 'Fallback'
    hooks = chainer._get_link_hooks()
    assert hooks is chainer._thread_local.link_hooks
    assert chainer.get_function_hooks() is \
        chainer._thread_local.function_hooks
