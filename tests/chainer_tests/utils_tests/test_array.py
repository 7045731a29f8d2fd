"""chainer.utils.array."""

import numpy
import pytest

from chainer.utils import array as array_utils


def test_deprecated_array_helpers():
    x = numpy.arange(24).reshape(2, 3, 4)
    with pytest.warns(DeprecationWarning):
        assert array_utils.as_mat(x).shape == (2, 12)
    with pytest.warns(DeprecationWarning):
        assert array_utils.as_vec(x).shape == (24,)
    assert array_utils.empty_like(x).shape == x.shape
