import copy
import gc
import importlib.util
import os
import pickle
import signal
import threading
import time

import numpy
import pytest

from chainer import iterators
from chainer.iterators import multiprocess_iterator


def _load_contract():
    # The tests shared by the iterators (iterator_contract.py).
    path = os.path.join(os.path.dirname(__file__), 'iterator_contract.py')
    spec = importlib.util.spec_from_file_location('iterator_contract', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


contract = _load_contract()


class TestMultiprocessIteratorContract(contract.IteratorContract):
    iterator_class = iterators.MultiprocessIterator
    iterator_options = {'n_processes': 2}


class PidDataset:
    """Each example tells which process read it."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return os.getpid(), i


class ArrayDataset:

    def __len__(self):
        return 8

    def __getitem__(self, i):
        x = numpy.full((2, 3), i, numpy.float32)
        return {'tuple': (x, numpy.int32(i), 'label'),
                'dict': {'x': x, 't': numpy.arange(i, dtype=numpy.int64)},
                'array': x}


class FailingDataset:

    def __init__(self, bad_index, how):
        self.bad_index = bad_index
        self.how = how

    def __len__(self):
        return 10

    def __getitem__(self, i):
        if i == self.bad_index:
            if self.how == 'exit':
                os._exit(3)
            if self.how == 'unpicklable':
                raise UnpicklableError(lambda: None)
            raise KeyError('bad example {}'.format(i))
        return i


class UnpicklableError(Exception):
    pass


class SlowDataset:

    def __len__(self):
        return 4

    def __getitem__(self, i):
        time.sleep(0.3)
        return i


def _make(dataset, batch_size, **kwargs):
    kwargs.setdefault('n_processes', 2)
    kwargs.setdefault('shuffle', False)
    return iterators.MultiprocessIterator(dataset, batch_size, **kwargs)


def _wait_dead(pids, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = []
        for pid in pids:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                continue
            alive.append(pid)
        if not alive:
            return True
        time.sleep(0.05)
    return False


def test_examples_are_read_by_workers():
    with _make(PidDataset(12), 4, shared_mem=64) as it:
        batches = [next(it) for _ in range(3)]
        pids = set(it._prefetch_loop._pool.pids)
    assert [i for batch in batches for _, i in batch] == list(range(12))
    readers = {pid for batch in batches for pid, _ in batch}
    assert os.getpid() not in readers
    assert readers <= pids


def test_first_batch_measured_in_calling_process():
    # Without shared_mem the first batch is read here to size the memory.
    with _make(PidDataset(8), 4) as it:
        first = next(it)
        second = next(it)
    assert {pid for pid, _ in first} == {os.getpid()}
    assert os.getpid() not in {pid for pid, _ in second}


@pytest.mark.parametrize('kind', ['tuple', 'dict', 'array'])
@pytest.mark.parametrize('shared_mem', [None, 1000])
def test_arrays_through_shared_memory(kind, shared_mem):
    base = ArrayDataset()
    data = [base[i][kind] for i in range(8)]
    with _make(data, 3, shared_mem=shared_mem) as it:
        batches = [next(it) for _ in range(4)]
    examples = [e for batch in batches for e in batch][:8]
    for i, example in enumerate(examples):
        if kind == 'tuple':
            x, t, label = example
            assert type(example) is tuple and label == 'label'
            assert int(t) == i
        elif kind == 'dict':
            x = example['x']
            assert example['t'].dtype == numpy.int64
            numpy.testing.assert_array_equal(example['t'], numpy.arange(i))
        else:
            x = example
        assert x.dtype == numpy.float32 and x.shape == (2, 3)
        numpy.testing.assert_array_equal(x, numpy.full((2, 3), i))


def test_packing_round_trip():
    mem = multiprocess_iterator.multiprocessing.sharedctypes.RawArray(
        'b', 200)
    example = (numpy.arange(6, dtype=numpy.float64).reshape(2, 3),
               numpy.arange(3, dtype=numpy.int16), 7)
    packed = multiprocess_iterator._pack(example, mem, 40, 200)
    assert isinstance(packed[0], multiprocess_iterator._PackedNdarray)
    assert isinstance(packed[1], multiprocess_iterator._PackedNdarray)
    assert packed[1].offset == 40 + 48
    unpacked = multiprocess_iterator._unpack(packed, mem)
    numpy.testing.assert_array_equal(unpacked[0], example[0])
    numpy.testing.assert_array_equal(unpacked[1], example[1])
    assert unpacked[2] == 7
    assert multiprocess_iterator._measure(example) == 48 + 6


def test_shared_memory_too_small():
    data = [numpy.full(100, i, numpy.float64) for i in range(4)]
    with _make(data, 2, shared_mem=16) as it:
        batch = next(it)
    # The arrays that do not fit are pickled instead.
    numpy.testing.assert_array_equal(batch[1], numpy.full(100, 1.))
    mem = multiprocess_iterator.multiprocessing.sharedctypes.RawArray(
        'b', 32)
    with pytest.warns(UserWarning, match='Shared memory size is too small'):
        packed = multiprocess_iterator._pack(data[0], mem, 0, 16)
    assert packed is data[0]


def test_killed_worker_raises():
    it = _make(list(range(100)), 4, shared_mem=64)
    try:
        next(it)
        victim = it._prefetch_loop._pool.pids[0]
        os.kill(victim, signal.SIGKILL)
        start = time.monotonic()
        with pytest.raises(RuntimeError, match='was killed by SIGKILL'):
            for _ in range(1000):
                next(it)
        assert time.monotonic() - start < 10
        # The error stays.
        with pytest.raises(RuntimeError, match=str(victim)):
            next(it)
    finally:
        it.finalize()


def test_worker_exiting_raises():
    with _make(FailingDataset(6, 'exit'), 4, shared_mem=64) as it:
        assert next(it) == [0, 1, 2, 3]
        with pytest.raises(RuntimeError, match='exited with code 3'):
            next(it)


def test_dataset_error_is_raised_again():
    with _make(FailingDataset(5, 'raise'), 4, shared_mem=64) as it:
        next(it)
        with pytest.raises(KeyError, match='bad example 5') as info:
            next(it)
    cause = info.value.__cause__
    assert isinstance(cause, multiprocess_iterator._RemoteTraceback)
    assert '__getitem__' in str(cause)
    assert "KeyError: 'bad example 5'" in str(cause)


def test_unpicklable_dataset_error():
    with _make(FailingDataset(1, 'unpicklable'), 4, shared_mem=64) as it:
        with pytest.raises(RuntimeError, match='UnpicklableError'):
            next(it)


def test_maxtasksperchild_replaces_workers():
    # With one worker and batches of 4, each task is one example: a new
    # process reads each of them.
    with _make(PidDataset(8), 4, shared_mem=64, n_processes=1,
               maxtasksperchild=1) as it:
        batches = [next(it) for _ in range(2)]
    assert [i for batch in batches for _, i in batch] == list(range(8))
    assert len({pid for batch in batches for pid, _ in batch}) == 8


def test_dataset_timeout_warns():
    with _make(SlowDataset(), 2, dataset_timeout=0.1, n_processes=1) as it:
        with pytest.warns(iterators.MultiprocessIterator.TimeoutWarning):
            assert next(it) == [0, 1]
        with pytest.warns(iterators.MultiprocessIterator.TimeoutWarning):
            assert next(it) == [2, 3]


def test_finalize_stops_workers_and_thread():
    it = _make(PidDataset(8), 2, shared_mem=64, n_prefetch=3)
    next(it)
    pids = it._prefetch_loop._pool.pids
    thread = it._prefetch_loop.thread
    it.finalize()
    it.finalize()
    assert not thread.is_alive()
    assert _wait_dead(pids)
    with pytest.raises(NotImplementedError):
        it.reset()


def test_no_repeat_with_prefetch_ends():
    with _make(list(range(7)), 3, repeat=False, n_prefetch=4) as it:
        assert list(it) == [[0, 1, 2], [3, 4, 5], [6]]
        with pytest.raises(StopIteration):
            next(it)


def test_reset_drops_prefetched_batches():
    with _make(list(range(10)), 2, n_prefetch=3) as it:
        assert next(it) == [0, 1]
        assert next(it) == [2, 3]
        time.sleep(0.05)
        it.reset()
        assert it.epoch_detail == 0 and it.previous_epoch_detail is None
        assert [next(it) for _ in range(6)] == [
            [0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [0, 1]]
        assert it.epoch == 1


def test_serialize_during_prefetch(save, load):
    with _make(list(range(10)), 2, n_prefetch=3) as it:
        for _ in range(3):
            next(it)
        saved = save(it)
        assert 'order' not in saved
        load(it, saved)
        assert next(it) == [6, 7]


def test_pickle_and_copy():
    numpy.random.seed(3)
    it = _make(list(range(10)), 3, shuffle=True)
    restored = duplicate = None
    try:
        next(it)
        next(it)
        restored = pickle.loads(pickle.dumps(it))
        duplicate = copy.copy(it)
        assert (it.epoch, it.current_position) == (0, 6)
        assert it.previous_epoch_detail == pytest.approx(0.3)
        expected = [next(it) for _ in range(3)]
        for other in (restored, duplicate):
            assert other.current_position == 6
            assert other.previous_epoch_detail == pytest.approx(0.3)
            # The same order for the rest of the epoch.
            assert next(other) == expected[0]
    finally:
        for other in (it, restored, duplicate):
            if other is not None:
                other.finalize()


def test_many_iterators_in_threads():
    # Iterators used from several threads at once do not disturb each
    # other.
    results = {}

    def run(k):
        with _make([k * 100 + i for i in range(6)], 3,
                   n_processes=1) as it:
            results[k] = [next(it) for _ in range(2)]

    threads = [threading.Thread(target=run, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert results == {
        k: [[k * 100, k * 100 + 1, k * 100 + 2],
            [k * 100 + 3, k * 100 + 4, k * 100 + 5]] for k in range(3)}


def test_structured_arrays_through_shared_memory():
    dtype = numpy.dtype([('a', numpy.int16), ('b', numpy.float64, (2,))])
    data = [numpy.zeros(3, dtype) for _ in range(4)]
    for i, x in enumerate(data):
        x['a'] = i
        x['b'] = i / 2
    with _make(data, 2, shared_mem=200) as it:
        batch = next(it) + next(it)
    for i, x in enumerate(batch):
        assert x.dtype == dtype
        assert x['a'].tolist() == [i] * 3
        assert x['b'].tolist() == [[i / 2] * 2] * 3


def test_dropped_iterator_stops_workers():
    it = _make(list(range(8)), 2, shared_mem=64)
    next(it)
    pids = it._prefetch_loop._pool.pids
    del it
    gc.collect()
    assert _wait_dead(pids)
