import numpy
import pytest

from chainer import iterators


def test_shuffle_order_sampler_with_random_state():
    sampler = iterators.ShuffleOrderSampler(numpy.random.RandomState(5))
    order = sampler(numpy.arange(6), 0)
    expected = numpy.random.RandomState(5).permutation(6)
    numpy.testing.assert_array_equal(order, expected)
    assert sorted(sampler(order, 6)) == list(range(6))


def test_shuffle_order_sampler_uses_global_state():
    sampler = iterators.ShuffleOrderSampler()
    numpy.random.seed(11)
    first = sampler(numpy.arange(8), 0)
    numpy.random.seed(11)
    numpy.testing.assert_array_equal(numpy.random.permutation(8), first)


def test_with_iterator():
    sampler = iterators.ShuffleOrderSampler(numpy.random.RandomState(0))
    it = iterators.SerialIterator(list(range(5)), 5, order_sampler=sampler)
    expected = numpy.random.RandomState(0)
    assert next(it) == list(expected.permutation(5))
    assert next(it) == list(expected.permutation(5))


def test_base_is_abstract():
    with pytest.raises(NotImplementedError):
        iterators.OrderSampler()(numpy.arange(3), 0)
