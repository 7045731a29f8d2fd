import numpy
import pytest

import chainer
from chainer.utils import array as array_utils


def test_experimental_warns_unless_disabled(monkeypatch):
    with pytest.warns(FutureWarning, match='foo.bar is experimental'):
        chainer.utils.experimental('foo.bar')
    monkeypatch.setattr(chainer, 'disable_experimental_feature_warning', True)
    with _no_warning():
        chainer.utils.experimental('foo.bar')


class _no_warning:

    def __enter__(self):
        import warnings
        self._catch = warnings.catch_warnings(record=True)
        self._records = self._catch.__enter__()
        warnings.simplefilter('always')

    def __exit__(self, *args):
        self._catch.__exit__(*args)
        assert not self._records


def test_nondeterministic_warns_only_when_asked():
    with _no_warning():
        chainer.utils.nondeterministic('F.foo')
    with chainer.using_config('warn_nondeterministic', True):
        with pytest.warns(UserWarning, match='Source: F.foo'):
            chainer.utils.nondeterministic('F.foo')


def test_deprecated_array_helpers():
    x = numpy.arange(24).reshape(2, 3, 4)
    with pytest.warns(DeprecationWarning):
        assert array_utils.as_mat(x).shape == (2, 12)
    with pytest.warns(DeprecationWarning):
        assert array_utils.as_vec(x).shape == (24,)
    assert array_utils.empty_like(x).shape == x.shape


def test_top_level_helpers():
    assert chainer.get_compute_mode() is None
    with chainer.using_config('use_cudnn', 'never'):
        assert not chainer.should_use_cudnn('>=auto')


def test_top_level_helpers_of_the_original():
    import chainer
    from chainer import utils
    from chainer.utils import meta
    assert utils.final is meta.final
    assert utils.enable_final is meta.enable_final
    assert utils._repr_with_named_data(chainer.Link(), a=1, b='x') == (
        '<chainer.link.Link a=1 b=x>')


def test_size_of_shape_is_int():
    assert type(chainer.utils.size_of_shape((2, 3))) is int
