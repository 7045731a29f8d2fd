import io
import pickle

import numpy
import pytest

from chainer import datasets
from chainer import iterators

EXAMPLES = [numpy.arange(3), {'a': 1}, 'text', (1.5, None)]


def _check(d):
    assert len(d) == len(EXAMPLES)
    numpy.testing.assert_array_equal(d[0], EXAMPLES[0])
    assert d[1] == {'a': 1}
    assert d[3] == (1.5, None)
    assert d[2] == 'text'
    assert d[1:3] == [{'a': 1}, 'text']


def test_file_round_trip(tmp_path):
    path = str(tmp_path / 'data.pkl')
    with datasets.open_pickle_dataset_writer(path) as writer:
        for example in EXAMPLES:
            writer.write(example)
        writer.flush()
    # The file is a plain sequence of pickles.
    with open(path, 'rb') as f:
        assert pickle.load(f)[1] == 1
        assert pickle.load(f) == {'a': 1}
    with datasets.open_pickle_dataset(path) as d:
        _check(d)


def test_in_memory():
    buffer = io.BytesIO()
    writer = datasets.PickleDatasetWriter(buffer, protocol=2)
    for example in EXAMPLES:
        writer.write(example)
    _check(datasets.PickleDataset(buffer))
    assert buffer.getvalue()[:2] == b'\x80\x02'


def test_unseekable_reader():
    class Unseekable(io.BytesIO):
        def seekable(self):
            return False

    with pytest.raises(ValueError, match='random access'):
        datasets.PickleDataset(Unseekable())


def test_pickling_reopens(tmp_path):
    path = str(tmp_path / 'data.pkl')
    with datasets.open_pickle_dataset_writer(path) as writer:
        for example in EXAMPLES:
            writer.write(example)
    d = datasets.open_pickle_dataset(path)
    restored = pickle.loads(pickle.dumps(d))
    d.close()
    _check(restored)
    restored.close()


def test_read_by_worker_processes(tmp_path):
    # Forked workers reopen the file, so their reads do not interfere.
    path = str(tmp_path / 'data.pkl')
    with datasets.open_pickle_dataset_writer(path) as writer:
        for i in range(20):
            writer.write(numpy.full(3, i))
    with datasets.open_pickle_dataset(path) as d:
        it = iterators.MultiprocessIterator(
            d, 10, repeat=False, shuffle=False, n_processes=2)
        with it:
            batches = list(it)
    values = [int(x[0]) for batch in batches for x in batch]
    assert values == list(range(20))
