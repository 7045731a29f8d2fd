"""ConcatenatedDataset."""

import numpy
import pytest

from chainer import datasets


def test_concatenated_dataset():
    d = datasets.ConcatenatedDataset([1, 2], [], numpy.array([3, 4, 5]))
    assert len(d) == 5
    assert [d[i] for i in range(5)] == [1, 2, 3, 4, 5]
    assert d[1:4] == [2, 3, 4]
    for i in (5, -1):
        with pytest.raises(IndexError):
            d[i]
