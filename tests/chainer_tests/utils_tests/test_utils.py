"""The helpers of chainer.utils (chainer/utils/__init__.py)."""

import chainer
from chainer import utils
from chainer.utils import meta


def test_meta_helpers_and_repr_helper():
    assert utils.final is meta.final
    assert utils.enable_final is meta.enable_final
    assert utils._repr_with_named_data(chainer.Link(), a=1, b='x') == (
        '<chainer.link.Link a=1 b=x>')


def test_size_of_shape_is_int():
    assert type(chainer.utils.size_of_shape((2, 3))) is int
