import numpy
import pytest

import chainer
from chainer.utils import cache


class Doubler:

    def __init__(self, x):
        self.x = x
        self.calls = 0

    @cache.cached_property
    def y(self):
        self.calls += 1
        return self.x * 2


def test_name_and_class_access():
    assert Doubler.y.__name__ == 'y'
    assert isinstance(Doubler.y, cache.cached_property)


def test_one_value_per_backprop_mode():
    obj = Doubler(chainer.Variable(numpy.array([1.])))
    y0 = obj.y
    with chainer.no_backprop_mode():
        y1 = obj.y
        assert obj.y is y1
    assert obj.y is y0 and y0 is not y1
    assert obj.calls == 2
    assert y0.creator is not None and y1.creator is None
    numpy.testing.assert_array_equal(y1.array, [2.])


def test_readonly():
    obj = Doubler(1)
    with pytest.raises(AttributeError, match='readonly'):
        obj.y = 3
