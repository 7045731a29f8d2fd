import pytest

from chainer import dataset


class Counting(dataset.Iterator):

    def __init__(self):
        self.finalized = 0

    def finalize(self):
        self.finalized += 1


def test_iter_returns_self():
    it = Counting()
    assert iter(it) is it


def test_next_is_abstract():
    with pytest.raises(NotImplementedError):
        next(dataset.Iterator())
    with pytest.raises(NotImplementedError):
        dataset.Iterator().next()


def test_context_manager_finalizes():
    with Counting() as it:
        assert it.finalized == 0
    assert it.finalized == 1


def test_base_finalize_and_serialize_do_nothing():
    it = dataset.Iterator()
    it.finalize()
    assert it.serialize(None) is None
