import pickle

import pytest

from chainer import datasets


@pytest.fixture
def files(tmp_path):
    src = tmp_path / 'src.txt'
    dst = tmp_path / 'dst.txt'
    src.write_text('hello world\n\nthird line\nlast')
    dst.write_text('bonjour\nvide\ntroisième\nfin\n', encoding='utf-8')
    return str(src), str(dst)


def test_single_file(files):
    d = datasets.TextDataset(files[0])
    assert len(d) == 4
    assert d[0] == 'hello world\n'
    assert d[1] == '\n'
    assert d[3] == 'last'
    assert d[2:4] == ['third line\n', 'last']
    for i in (4, -1):
        with pytest.raises(IndexError):
            d[i]
    d.close()


def test_parallel_files(files):
    d = datasets.TextDataset(list(files), encoding=['ascii', 'utf-8'])
    assert len(d) == 4
    assert d[2] == ('third line\n', 'troisième\n')
    assert d[0] == ('hello world\n', 'bonjour\n')
    d.close()


def test_filter(files):
    d = datasets.TextDataset(list(files), encoding='utf-8',
                             filter_func=lambda s, t: s.strip() != '')
    assert len(d) == 3
    assert [s for s, _ in d] == ['hello world\n', 'third line\n', 'last']
    d.close()


def test_pickle_reopens(files):
    d = datasets.TextDataset(files[1], encoding='utf-8')
    restored = pickle.loads(pickle.dumps(d))
    d.close()
    assert restored[2] == 'troisième\n'
    restored.close()


def test_errors(files, tmp_path):
    with pytest.raises(ValueError, match='at least one text file'):
        datasets.TextDataset([])
    with pytest.raises(ValueError, match='length of each option'):
        datasets.TextDataset(list(files), encoding=['utf-8'])
    short = tmp_path / 'short.txt'
    short.write_text('one\n')
    with pytest.raises(ValueError, match='number of lines'):
        datasets.TextDataset([files[0], str(short)])
