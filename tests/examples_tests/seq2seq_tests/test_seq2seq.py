"""The seq2seq example on a tiny generated parallel corpus.

The "translation" maps each source word ``wX`` to ``mX`` and reverses the
sentence; the source ends with ``.`` and the target with ``!``.
"""

import importlib
import math
import pathlib
import random
import sys

import numpy
import pytest

from chainer import testing

SEQ2SEQ_DIR = pathlib.Path(__file__).resolve().parents[3] / \
    'examples' / 'seq2seq'


@pytest.fixture
def seq2seq_module(monkeypatch):
    monkeypatch.syspath_prepend(str(SEQ2SEQ_DIR))
    yield importlib.import_module('seq2seq')
    sys.modules.pop('seq2seq', None)


@pytest.fixture
def wmt_preprocess(monkeypatch):
    monkeypatch.syspath_prepend(str(SEQ2SEQ_DIR))
    yield importlib.import_module('wmt_preprocess')
    sys.modules.pop('wmt_preprocess', None)


def _write_corpus(directory):
    rng = random.Random(0)
    sources, targets = [], []
    for _ in range(96):
        words = [rng.choice('abcdef') for _ in range(rng.randint(2, 5))]
        sources.append(' '.join('w' + w for w in words) + '.')
        targets.append(' '.join('m' + w for w in reversed(words)) + '!')
    for name, lines in (('train.en', sources[:80]), ('train.fr', targets[:80]),
                        ('dev.en', sources[80:]), ('dev.fr', targets[80:])):
        (directory / name).write_text('\n'.join(lines) + '\n')


@pytest.fixture(scope='module')
def corpus(tmp_path_factory, run_example):
    """The directory of the preprocessed corpus: sentence and vocabulary
    files."""
    tmp_path = tmp_path_factory.mktemp('corpus')
    _write_corpus(tmp_path)
    for split in ('train', 'dev'):
        for lang in ('en', 'fr'):
            name = '{}.{}'.format(split, lang)
            args = [name, '{}.pre.{}'.format(split, lang)]
            if split == 'train':
                args += ['--vocab-file', 'vocab.' + lang]
            run_example('seq2seq/wmt_preprocess.py', args, tmp_path)
    return tmp_path


def test_wmt_preprocess_output(corpus):
    first = (corpus / 'train.pre.en').read_text().splitlines()[0]
    # The full stop is split from the last word.
    assert first.split()[-1] == '.'
    assert all(w.startswith('w') for w in first.split()[:-1])
    vocab = (corpus / 'vocab.fr').read_text().splitlines()
    assert sorted(vocab) == ['!', 'ma', 'mb', 'mc', 'md', 'me', 'mf']
    # Most frequent first: every sentence ends with '!'.
    assert vocab[0] == '!'


def test_split_sentence(wmt_preprocess):
    assert wmt_preprocess.split_sentence(
        'It costs 25 dollars, doesn\u2019t it?', False) == \
        ['It', 'costs', '00', 'dollars', ',', 'doesn', "'", 't', 'it', '?']
    assert wmt_preprocess.split_sentence('"Who are WE?"', True) == \
        ['"', 'who', 'are', 'we', '?', '"']


def test_vocabulary_and_data(corpus, tmp_path, seq2seq_module):
    ids = seq2seq_module.load_vocabulary(str(corpus / 'vocab.en'))
    assert ids['<UNK>'] == 0 and ids['<EOS>'] == 1
    assert sorted(ids.values()) == list(range(len(ids)))
    (tmp_path / 'unknown.en').write_text('wa wz .\n')
    data = seq2seq_module.load_data(ids, str(tmp_path / 'unknown.en'))
    assert data[0].dtype == numpy.int32
    numpy.testing.assert_array_equal(data[0], [ids['wa'], 0, ids['.']])
    assert seq2seq_module.calculate_unknown_ratio(data) == pytest.approx(1 / 3)


def test_train_seq2seq(corpus, tmp_path, run_example, read_log, read_npz):
    out = tmp_path / 'result'
    output = run_example(
        'seq2seq/seq2seq.py',
        ['train.pre.en', 'train.pre.fr', 'vocab.en', 'vocab.fr',
         '--validation-source', 'dev.pre.en',
         '--validation-target', 'dev.pre.fr',
         '--unit', 64, '--layer', 1, '--batchsize', 16, '--epoch', 20,
         '--log-interval', 25, '--validation-interval', 50,
         '--out', out, '--save', out / 'final.npz'],
        corpus)
    assert 'Train data size: 80' in output
    assert 'Validation data: 16' in output
    assert '# source : ' in output
    assert '# expect : ' in output

    log = read_log(out / 'log')
    assert [e['iteration'] for e in log] == [25, 50, 75, 100]
    losses = [e['main/loss'] for e in log]
    assert all(math.isfinite(loss) for loss in losses)
    assert losses[-1] < 0.6 * losses[0]
    assert all(e['main/perp'] > 1 for e in log)
    bleus = [e.get('validation/main/bleu') for e in log]
    assert bleus[0] is None and bleus[2] is None
    assert 0 <= bleus[1] <= 1 and 0 < bleus[3] <= 1

    assert (out / 'snapshot_epoch_50').exists()
    final = read_npz(out / 'final.npz')
    assert final['updater/iteration'] == 100
    # 6 words, '.', <UNK> and <EOS>.
    assert final['updater/model:main/embed_x/W'].shape == (9, 64)
    assert final['updater/model:main/W/W'].shape == (9, 64)


def test_train_seq2seq_dataset_api(corpus, tmp_path, run_example,
                                   read_log):
    out = tmp_path / 'result'
    run_example(
        'seq2seq/seq2seq.py',
        ['train.pre.en', 'train.pre.fr', 'vocab.en', 'vocab.fr',
         '--use-dataset-api', '--max-source-sentence', 4,
         '--unit', 16, '--layer', 2, '--batchsize', 10, '--epoch', 1,
         '--log-interval', 1, '--out', out],
        corpus)
    n_short = sum(len(line.split()) <= 4 for line in
                  (corpus / 'train.pre.en').read_text().splitlines())
    log = read_log(out / 'log')
    assert 10 < n_short < 80
    # One log entry per iteration, one epoch of the filtered sentences.
    assert len(log) == math.ceil(n_short / 10)
    assert all(math.isfinite(e['main/loss']) for e in log)


@testing.fix_random()
def test_translate(seq2seq_module):
    model = seq2seq_module.Seq2seq(2, 7, 5, 8)
    xs = [numpy.array([2, 3, 4], numpy.int32),
          numpy.array([5], numpy.int32)]
    outs = model.translate(xs, max_length=6)
    assert len(outs) == 2
    for y in outs:
        assert y.dtype == numpy.int32
        assert len(y) <= 6
        # Translation stops at the first EOS, which is not returned.
        assert (y != seq2seq_module.EOS).all()
        assert ((0 <= y) & (y < 5)).all()


# BLEU computed by NLTK 3.10.4's corpus_bleu with
# SmoothingFunction().method1 on the same inputs.
@pytest.mark.parametrize('references,hypotheses,expected', [
    ([[[1, 2, 3, 4, 5, 6]]], [[1, 2, 3, 4, 5, 6]], 1.0),
    ([[[1, 2, 3, 4, 5, 6]]], [[1, 2, 3, 4, 5]], 0.8187307530779819),
    ([[[1, 2, 3, 4, 5, 6], [1, 2, 3, 7]]], [[1, 2, 3, 7, 8]],
     0.668740304976422),
    ([[[1, 2, 3, 4]], [[5, 6, 7, 8, 9]]], [[1, 2, 4, 3], [5, 6, 7, 9, 8, 8]],
     0.19364916731037088),
    ([[[1, 2, 3]]], [[4, 5, 6]], 0.0),
    ([[[1, 2]]], [[1]], 0.06541924356118012),
])
def test_corpus_bleu(references, hypotheses, expected, seq2seq_module):
    assert seq2seq_module.corpus_bleu(references, hypotheses) == \
        pytest.approx(expected, rel=1e-12)
