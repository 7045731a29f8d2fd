"""The Penn Treebank loaders, fed small files from a file:// mirror."""

import numpy
import pytest

from chainer import datasets


def _ptb_mirror(directory, valid_text):
    directory.mkdir()
    (directory / 'ptb.train.txt').write_text(' the cat sat \n a cat <unk>\n')
    (directory / 'ptb.valid.txt').write_text(valid_text)
    (directory / 'ptb.test.txt').write_text('\n sat \n')
    return directory


def test_ptb(tmp_path, dataset_root, monkeypatch):
    mirror = _ptb_mirror(tmp_path / 'ptb_mirror', ' the a\n')
    monkeypatch.setenv('CHAINER_PTB_BASE_URL', mirror.as_uri())
    vocab = datasets.get_ptb_words_vocabulary()
    assert vocab == {'the': 0, 'cat': 1, 'sat': 2, '<eos>': 3, 'a': 4,
                     '<unk>': 5}
    train, valid, test = datasets.get_ptb_words()
    assert train.dtype == numpy.int32
    assert train.tolist() == [0, 1, 2, 3, 4, 1, 5, 3]
    assert valid.tolist() == [0, 4, 3]
    assert test.tolist() == [3, 2, 3]
    assert (dataset_root / 'pfnet' / 'chainer' / 'ptb' /
            'vocab.txt').read_text() == 'the\ncat\nsat\n<eos>\na\n<unk>\n'
    # Both the vocabulary and the arrays come from the cache now.
    monkeypatch.setenv('CHAINER_PTB_BASE_URL', 'file:///nonexistent')
    assert datasets.get_ptb_words_vocabulary() == vocab
    assert datasets.get_ptb_words()[1].tolist() == [0, 4, 3]


def test_ptb_unknown_word(tmp_path, dataset_root, monkeypatch):
    # Words outside the training vocabulary cannot be numbered.
    mirror = _ptb_mirror(tmp_path / 'ptb_mirror', ' the dog\n')
    monkeypatch.setenv('CHAINER_PTB_BASE_URL', str(mirror))
    with pytest.raises(KeyError):
        datasets.get_ptb_words()


def test_ptb_missing_file_names_variable(tmp_path, dataset_root,
                                         monkeypatch):
    monkeypatch.setenv('CHAINER_PTB_BASE_URL', str(tmp_path / 'nothing'))
    with pytest.raises(OSError, match='CHAINER_PTB_BASE_URL') as info:
        datasets.get_ptb_words()
    assert 'ptb.train.txt' in str(info.value)
