import importlib.util
import os
import threading

import numpy

from chainer import iterators


def _load_contract():
    # The tests shared by the iterators (iterator_contract.py).
    path = os.path.join(os.path.dirname(__file__), 'iterator_contract.py')
    spec = importlib.util.spec_from_file_location('iterator_contract', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


contract = _load_contract()


class TestMultithreadIteratorContract(contract.IteratorContract):
    iterator_class = iterators.MultithreadIterator


class ThreadRecordingDataset:

    def __init__(self, n):
        self.n = n
        self.threads = set()

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        self.threads.add(threading.get_ident())
        return i


def test_reads_in_threads_and_prefetches():
    dataset = ThreadRecordingDataset(9)
    it = iterators.MultithreadIterator(dataset, 3, shuffle=False,
                                       n_threads=2)
    assert next(it) == [0, 1, 2]
    # The next batch is already being read.
    assert it._next is not None
    assert [next(it) for _ in range(3)] == [[3, 4, 5], [6, 7, 8], [0, 1, 2]]
    assert threading.get_ident() not in dataset.threads
    it.finalize()
    assert it._pool is None


def test_serialize_keeps_none_order(save, load):
    it = iterators.MultithreadIterator(list(range(4)), 3, shuffle=False)
    next(it)
    saved = save(it)
    assert saved['_order'].dtype == object and saved['_order'][()] is None
    resumed = iterators.MultithreadIterator(list(range(4)), 3, shuffle=False)
    load(resumed, saved)
    assert next(resumed) == [3, 0, 1]
    it.finalize()
    resumed.finalize()


def test_old_snapshot_with_none_previous_epoch_detail(save, load):
    it = iterators.MultithreadIterator(list(range(4)), 3, shuffle=False)
    saved = save(it)
    saved['previous_epoch_detail'] = numpy.asarray(None)
    load(it, saved)
    assert it.previous_epoch_detail is None
    assert next(it) == [0, 1, 2]
    it.finalize()
