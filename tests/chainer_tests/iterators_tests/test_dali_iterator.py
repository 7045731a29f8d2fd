import warnings

import pytest

from chainer import iterators


class FakePipeline:
    """The parts of a DALI pipeline the iterator uses."""

    batch_size = 3

    def __init__(self):
        self.built = 0
        self.runs = 0

    def build(self):
        self.built += 1

    def epoch_size(self):
        return {'reader': 7}

    def run(self):
        self.runs += 1
        return 'batch {}'.format(self.runs)


def _make(**kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', FutureWarning)
        return iterators.DaliIterator(FakePipeline(), **kwargs)


def test_experimental_warning():
    with pytest.warns(FutureWarning, match='DaliIterator is experimental'):
        iterators.DaliIterator(FakePipeline())


def test_epochs():
    it = _make()
    assert next(it) == 'batch 1'
    assert it.pipeline.built == 1 and it.epoch_size == 7
    assert it.epoch_detail == pytest.approx(3 / 7)
    next(it)
    assert not it.is_new_epoch
    next(it)
    assert it.is_new_epoch and it.epoch == 1 and it.current_position == 2
    assert it.previous_epoch_detail == pytest.approx(6 / 7)
    assert it.pipeline.built == 1


def test_no_repeat():
    it = _make(repeat=False)
    assert [next(it) for _ in range(3)] == ['batch 1', 'batch 2', 'batch 3']
    assert it.current_position == 0
    with pytest.raises(StopIteration):
        next(it)


def test_serialize(save, load):
    it = _make()
    next(it)
    next(it)
    saved = save(it)
    assert sorted(saved) == ['current_position', 'epoch', 'is_new_epoch',
                             'previous_epoch_detail']
    other = _make()
    next(other)
    load(other, saved)
    assert other.current_position == 6
    assert other.previous_epoch_detail == pytest.approx(3 / 7)
    del saved['previous_epoch_detail']
    load(other, saved)
    assert other.previous_epoch_detail == pytest.approx(3 / 7)
