import numpy
import pytest

from chainer import dataset


class Squares(dataset.DatasetMixin):

    def __init__(self, n):
        self.n = n
        self.calls = []

    def __len__(self):
        return self.n

    def get_example(self, i):
        self.calls.append(i)
        return i * i


def test_integer_index():
    d = Squares(5)
    assert d[3] == 9
    assert d.calls == [3]


@pytest.mark.parametrize('index, expected', [
    (slice(1, 4), [1, 4, 9]),
    (slice(None, None, -2), [16, 4, 0]),
    (slice(-2, None), [9, 16]),
    (slice(10, 20), []),
    ([4, 0, 4], [16, 0, 16]),
    (numpy.array([2, 1]), [4, 1]),
])
def test_multiple_indices(index, expected):
    assert Squares(5)[index] == expected


def test_abstract_methods():
    d = dataset.DatasetMixin()
    with pytest.raises(NotImplementedError):
        len(d)
    with pytest.raises(NotImplementedError):
        d[0]
