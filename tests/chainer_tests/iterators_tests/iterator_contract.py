"""Behaviour shared by SerialIterator, MultithreadIterator and
MultiprocessIterator, against the numbers of Chainer 7.8.1.

The test module of each iterator loads this module (it is no test module
itself) and subclasses ``IteratorContract`` with its ``iterator_class``.
"""

import numpy
import pytest

from chainer import iterators


def _steps(it, n):
    out = []
    for _ in range(n):
        try:
            batch = next(it)
        except StopIteration:
            out.append('stop')
            break
        previous = it.previous_epoch_detail
        out.append((list(batch), it.epoch, round(it.epoch_detail, 6),
                    None if previous is None else round(previous, 6),
                    it.is_new_epoch, it.current_position))
    return out


# (batch, epoch, epoch_detail, previous_epoch_detail, is_new_epoch,
#  current_position) after each next(), as Chainer 7.8.1 gives them.
REPEAT = [([0, 1], 0, 0.4, 0.0, False, 2), ([2, 3], 0, 0.8, 0.4, False, 4),
          ([4, 0], 1, 1.2, 0.8, True, 1), ([1, 2], 1, 1.6, 1.2, False, 3),
          ([3, 4], 2, 2.0, 1.6, True, 0), ([0, 1], 2, 2.4, 2.0, False, 2)]
NO_REPEAT = [([0, 1], 0, 0.4, 0.0, False, 2),
             ([2, 3], 0, 0.8, 0.4, False, 4),
             ([4], 1, 1.0, 0.8, True, 0), 'stop']
LARGE_BATCH = [([0, 1, 2, 0, 1, 2, 0], 2, 2.333333, 0.0, True, 1),
               ([1, 2, 0, 1, 2, 0, 1], 4, 4.666667, 2.333333, True, 2)]
LARGE_BATCH_NO_REPEAT = [([0, 1, 2], 1, 1.0, 0.0, True, 0), 'stop']


class IteratorContract:
    """The tests every iterator passes; ``make`` builds the iterator."""

    iterator_class = None
    # Default keyword arguments of the iterator in these tests.
    iterator_options = {}

    @pytest.fixture
    def make(self):
        iterators_made = []

        def make(*args, **kwargs):
            it = self.iterator_class(
                *args, **dict(self.iterator_options, **kwargs))
            iterators_made.append(it)
            return it

        make.cls = self.iterator_class
        yield make
        for it in iterators_made:
            it.finalize()

    def test_epoch_bookkeeping(self, make):
        it = make(list(range(5)), 2, shuffle=False)
        assert it.epoch == 0 and it.epoch_detail == 0.
        assert it.previous_epoch_detail is None and not it.is_new_epoch
        assert _steps(it, 6) == REPEAT
        assert it.repeat

    def test_no_repeat(self, make):
        it = make(list(range(5)), 2, repeat=False, shuffle=False)
        assert _steps(it, 6) == NO_REPEAT
        with pytest.raises(StopIteration):
            next(it)
        assert list(make(list(range(5)), 2, repeat=False, shuffle=False)) == \
            [[0, 1], [2, 3], [4]]

    def test_batch_larger_than_dataset(self, make):
        assert _steps(make(list(range(3)), 7, shuffle=False), 2) == LARGE_BATCH
        assert _steps(make(list(range(3)), 7, repeat=False, shuffle=False),
                      2) == LARGE_BATCH_NO_REPEAT

    def test_shuffle_like_original(self, make):
        # Chainer 7.8.1 with numpy.random.seed(7), on range(10) by 3.
        numpy.random.seed(7)
        it = make(list(range(10)), 3)
        assert [list(next(it)) for _ in range(5)] == [
            [8, 5, 0], [2, 1, 9], [7, 3, 6], [4, 1, 3], [2, 5, 9]]

    def test_shuffle_covers_each_epoch(self, make):
        it = make(list(range(7)), 7, shuffle=True)
        epochs = [sorted(next(it)) for _ in range(3)]
        assert epochs == [list(range(7))] * 3

    def test_reset(self, make):
        it = make(list(range(5)), 2, shuffle=False)
        next(it)
        next(it)
        it.reset()
        assert it.epoch == 0 and it.current_position == 0
        assert it.previous_epoch_detail is None
        assert _steps(it, 3) == REPEAT[:3]

    def test_custom_order_sampler(self, make):
        calls = []

        def reverse(order, position):
            calls.append(position)
            return order[::-1]

        it = make(list(range(4)), 3, order_sampler=reverse)
        assert [list(next(it)) for _ in range(3)] == [
            [3, 2, 1], [0, 0, 1], [2, 3, 3]]
        assert calls[:3] == [0, 3, 2]

    def test_order_sampler_changing_size(self, make):
        it = make(list(range(4)), 3,
                  order_sampler=lambda order, _: numpy.arange(len(order) + 1))
        with pytest.raises(ValueError, match='size of order does not match'):
            for _ in range(3):
                next(it)

    def test_shuffle_and_order_sampler_exclusive(self, make):
        with pytest.raises(ValueError, match='`shuffle` is not `None`'):
            make(list(range(4)), 2, shuffle=True,
                 order_sampler=iterators.ShuffleOrderSampler())

    def test_empty_dataset(self, make):
        with pytest.raises(ValueError, match='Epoch size must be positive'):
            next(make([], 2, shuffle=False))

    def test_serialize_keys_like_original(self, make, save):
        # Keys and values Chainer 7.8.1's save_npz writes after four batches.
        numpy.random.seed(7)
        it = make(list(range(10)), 3)
        for _ in range(4):
            next(it)
        saved = save(it)
        order_key = '_order' if make.cls is iterators.MultithreadIterator \
            else 'order'
        # Beyond Chainer's keys, the state of the shuffling generator.
        assert sorted(saved) == sorted([
            'current_position', 'epoch', 'is_new_epoch', order_key,
            'previous_epoch_detail', 'order_sampler/random_state'])
        assert saved['order_sampler/random_state'].dtype == numpy.uint8
        assert saved['current_position'] == 2 and saved['epoch'] == 1
        assert saved['is_new_epoch'].dtype == numpy.bool_
        assert bool(saved['is_new_epoch'])
        assert saved[order_key].tolist() == [1, 3, 2, 5, 9, 0, 4, 6, 7, 8]
        assert saved['previous_epoch_detail'] == pytest.approx(0.9)
        assert saved['previous_epoch_detail'].dtype == numpy.float64

    def test_serialize_round_trip_like_original(self, make, save, load):
        numpy.random.seed(7)
        it = make(list(range(10)), 3)
        for _ in range(4):
            next(it)
        saved = save(it)
        # Chainer 7.8.1 returns [2, 5, 9], [0, 4, 6], [7, 8, 2] after load_npz
        # with the seed 99: the next epoch's order comes from that seed. Here
        # the generator's state is restored too, so the resumed iterator goes
        # on exactly as the one that was saved.
        expected = [list(next(it)) for _ in range(3)]
        assert expected[:2] == [[2, 5, 9], [0, 4, 6]]
        numpy.random.seed(99)
        resumed = make(list(range(10)), 3)
        load(resumed, saved)
        assert resumed.epoch == 1 and resumed.current_position == 2
        assert resumed.is_new_epoch
        assert resumed.previous_epoch_detail == pytest.approx(0.9)
        assert [list(next(resumed)) for _ in range(3)] == expected
        assert resumed.epoch_detail == pytest.approx(2.1)
        assert resumed.previous_epoch_detail == pytest.approx(1.8)

    def test_serialize_without_generator_state(self, make, save, load):
        # A snapshot of Chainer 7.8 has no order_sampler key: it loads, and the
        # generator is left as it is.
        numpy.random.seed(7)
        it = make(list(range(10)), 3)
        for _ in range(4):
            next(it)
        saved = save(it)
        del saved['order_sampler/random_state']
        numpy.random.seed(99)
        resumed = make(list(range(10)), 3)
        load(resumed, saved)
        assert [list(next(resumed)) for _ in range(3)] == [
            [2, 5, 9], [0, 4, 6], [7, 8, 2]]

    def test_own_generator_state_is_saved(self, make, save, load):
        if make.cls is iterators.MultiprocessIterator:
            pytest.skip('its prefetch thread may draw the next order before '
                        'the state is saved')
        sampler = iterators.ShuffleOrderSampler(numpy.random.RandomState(3))
        it = make(list(range(10)), 4, order_sampler=sampler)
        for _ in range(2):
            next(it)
        saved = save(it)
        other = iterators.ShuffleOrderSampler(numpy.random.RandomState(0))
        resumed = make(list(range(10)), 4, order_sampler=other)
        load(resumed, saved)
        assert [list(next(resumed)) for _ in range(5)] == \
            [list(next(it)) for _ in range(5)]

    def test_serialize_natural_order(self, make, save, load):
        it = make(list(range(5)), 2, shuffle=False)
        next(it)
        next(it)
        saved = save(it)
        resumed = make(list(range(5)), 2, shuffle=False)
        load(resumed, saved)
        assert _steps(resumed, 4) == REPEAT[2:6]

    def test_load_snapshot_without_previous_epoch_detail(
            self, make, save, load):
        if make.cls is iterators.MultithreadIterator:
            pytest.skip('MultithreadIterator requires the key, as in Chainer')
        it = make(list(range(10)), 3, shuffle=False)
        for _ in range(4):
            next(it)
        saved = save(it)
        del saved['previous_epoch_detail']
        resumed = make(list(range(10)), 3, shuffle=False)
        load(resumed, saved)
        # Guessed from the batch size: 1 + (2 - 3) / 10.
        assert resumed.previous_epoch_detail == pytest.approx(0.9)
        fresh = make(list(range(10)), 3, shuffle=False)
        load(fresh, {k: v for k, v in save(fresh).items()
                     if k != 'previous_epoch_detail'})
        assert fresh.previous_epoch_detail is None

    def test_dataset_examples_are_returned_as_is(self, make):
        data = [(numpy.full((2, 2), i, numpy.float32), numpy.int32(i))
                for i in range(6)]
        it = make(data, 4, shuffle=False)
        batch = next(it)
        assert len(batch) == 4
        x, t = batch[3]
        assert x.dtype == numpy.float32 and x.shape == (2, 2)
        numpy.testing.assert_array_equal(x, data[3][0])
        assert int(t) == 3
