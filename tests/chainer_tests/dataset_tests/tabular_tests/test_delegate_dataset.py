import numpy
import pytest

import chainer
from chainer.dataset import tabular


@pytest.mark.parametrize('mode', [tuple, dict, None])
def test_delegate_dataset(make_table, mode):
    inner = make_table(mode=mode)
    dataset = tabular.DelegateDataset(inner)
    assert isinstance(dataset, chainer.dataset.TabularDataset)
    assert dataset.dataset is inner
    assert (len(dataset), dataset.keys, dataset.mode) == (
        len(inner), inner.keys, inner.mode)
    assert dataset.get_example(3) == inner.get_example(3)
    assert dataset.get_examples([1], (0,)) == ([1],)


def test_convert_is_the_default_one(make_table):
    inner = make_table().with_converter(lambda *columns: 'inner')
    dataset = tabular.DelegateDataset(inner)
    converted = dataset.convert(dataset.fetch())
    assert all(isinstance(c, numpy.ndarray) for c in converted)


class Squares(tabular.DelegateDataset):

    def __init__(self, n):
        super().__init__(tabular.from_data(
            (('x', numpy.arange(n)), ('square', self.square))))

    def square(self, i):
        return i * i


def test_subclass():
    squares = Squares(6)
    assert squares.keys == ('x', 'square')
    assert squares[4] == (4, 16)
    assert squares.slice[::-2, 'square'].fetch() == [25, 9, 1]
