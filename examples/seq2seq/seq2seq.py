#!/usr/bin/env python
"""Sequence-to-sequence learning for machine translation.

A stacked LSTM (:class:`chainer.links.NStepLSTM`) encodes each source
sentence, read backwards, into its final states; a second stacked LSTM
starts from them and is trained to emit the target sentence word by word.
Translation is greedy: the decoder's most probable word is fed back until
it emits the end-of-sentence word. BLEU on a validation set is computed
with NLTK when it is installed, and with an equivalent built-in
implementation otherwise.

Inputs are sentence files (one sentence a line, words separated by spaces)
and vocabulary files (one word a line), as written by wmt_preprocess.py.
"""
import argparse
import collections
import datetime
import math

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

try:
    from nltk.translate import bleu_score
except ImportError:
    bleu_score = None


UNK = 0
EOS = 1


def sequence_embed(embed, xs):
    """Embeds a list of variable-length ID sequences in one call.

    Args:
        embed (chainer.links.EmbedID): The embedding.
        xs (list of arrays): Integer sequences.

    Returns:
        tuple of chainer.Variable: The embedded sequences, in order.
    """
    x_len = [len(x) for x in xs]
    x_section = numpy.cumsum(x_len[:-1])
    ex = embed(F.concat(xs, axis=0))
    return F.split_axis(ex, x_section, 0)


class Seq2seq(chainer.Chain):
    """Encoder-decoder of two stacked LSTMs.

    Args:
        n_layers (int): Layers of each LSTM.
        n_source_vocab (int): Size of the source vocabulary.
        n_target_vocab (int): Size of the target vocabulary.
        n_units (int): Size of the embeddings and of the LSTM states.
    """

    def __init__(self, n_layers, n_source_vocab, n_target_vocab, n_units):
        super().__init__()
        with self.init_scope():
            self.embed_x = L.EmbedID(n_source_vocab, n_units)
            self.embed_y = L.EmbedID(n_target_vocab, n_units)
            self.encoder = L.NStepLSTM(n_layers, n_units, n_units, 0.1)
            self.decoder = L.NStepLSTM(n_layers, n_units, n_units, 0.1)
            self.W = L.Linear(n_units, n_target_vocab)

        self.n_layers = n_layers
        self.n_units = n_units

    def forward(self, xs, ys):
        """Returns the summed cross entropy of a batch, per sentence.

        Reports it as ``loss`` and the per-word perplexity as ``perp``.
        """
        xs = [x[::-1] for x in xs]

        eos = self.xp.array([EOS], numpy.int32)
        ys_in = [F.concat([eos, y], axis=0) for y in ys]
        ys_out = [F.concat([y, eos], axis=0) for y in ys]

        exs = sequence_embed(self.embed_x, xs)
        eys = sequence_embed(self.embed_y, ys_in)

        batch = len(xs)
        # None stands for zero initial states.
        hx, cx, _ = self.encoder(None, None, exs)
        _, _, os = self.decoder(hx, cx, eys)

        # One matrix product over all the words of the batch.
        concat_os = F.concat(os, axis=0)
        concat_ys_out = F.concat(ys_out, axis=0)
        loss = F.sum(F.softmax_cross_entropy(
            self.W(concat_os), concat_ys_out, reduce='no')) / batch

        chainer.report({'loss': loss}, self)
        n_words = concat_ys_out.shape[0]
        perp = self.xp.exp(loss.array * batch / n_words)
        chainer.report({'perp': perp}, self)
        return loss

    def translate(self, xs, max_length=100):
        """Translates a batch of source sentences greedily.

        Args:
            xs (list of arrays): Source word-ID sequences.
            max_length (int): Most words generated per sentence.

        Returns:
            list of numpy.ndarray: The target word IDs of each sentence,
            without the end-of-sentence word.
        """
        batch = len(xs)
        with chainer.no_backprop_mode(), chainer.using_config('train', False):
            xs = [x[::-1] for x in xs]
            exs = sequence_embed(self.embed_x, xs)
            h, c, _ = self.encoder(None, None, exs)
            ys = self.xp.full(batch, EOS, numpy.int32)
            result = []
            for _ in range(max_length):
                eys = self.embed_y(ys)
                eys = F.split_axis(eys, batch, 0)
                h, c, ys = self.decoder(h, c, eys)
                wy = self.W(F.concat(ys, axis=0))
                ys = self.xp.argmax(wy.array, axis=1).astype(numpy.int32)
                result.append(ys)

        result = chainer.get_device('@numpy').send(self.xp.stack(result).T)

        outs = []
        for y in result:
            inds = numpy.argwhere(y == EOS)
            if len(inds) > 0:
                y = y[:inds[0, 0]]
            outs.append(y)
        return outs


@chainer.dataset.converter()
def convert(batch, device):
    """Sends a batch of (source, target) pairs to a device.

    Each side is concatenated, sent in one transfer and split again.

    Returns:
        dict: ``xs`` and ``ys``, the lists of source and target arrays.
    """
    def to_device_batch(batch):
        if device is None:
            return batch
        src_xp = chainer.backend.get_array_module(*batch)
        concat = src_xp.concatenate(batch, axis=0)
        sections = numpy.cumsum([len(x) for x in batch[:-1]])
        concat_dst = device.send(concat)
        return device.xp.split(concat_dst, sections)

    return {'xs': to_device_batch([x for x, _ in batch]),
            'ys': to_device_batch([y for _, y in batch])}


def _ngram_counts(words, n):
    return collections.Counter(
        tuple(words[i:i + n]) for i in range(len(words) - n + 1))


def corpus_bleu(list_of_references, hypotheses, max_n=4, epsilon=0.1):
    """Corpus-level BLEU with uniform weights, as NLTK computes it.

    Modified n-gram precisions are pooled over the corpus; a precision
    whose count of matches is zero becomes ``epsilon`` over its count of
    n-grams (NLTK's ``SmoothingFunction().method1``). The brevity penalty
    compares the total hypothesis length with the total length of the
    references closest in length to each hypothesis.

    Args:
        list_of_references (list): For each sentence, a list of reference
            word sequences.
        hypotheses (list): For each sentence, the hypothesis word sequence.
        max_n (int): Longest n-gram.
        epsilon (float): Smoothing numerator of empty precisions.

    Returns:
        float: BLEU, between 0 and 1.
    """
    matches = [0] * max_n
    totals = [0] * max_n
    hyp_length = 0
    ref_length = 0
    for references, hypothesis in zip(list_of_references, hypotheses):
        for n in range(1, max_n + 1):
            counts = _ngram_counts(hypothesis, n)
            max_ref_counts = collections.Counter()
            for reference in references:
                max_ref_counts |= _ngram_counts(reference, n)
            matches[n - 1] += sum((counts & max_ref_counts).values())
            totals[n - 1] += max(1, sum(counts.values()))
        hyp_length += len(hypothesis)
        ref_length += min(
            (len(r) for r in references),
            key=lambda r: (abs(r - len(hypothesis)), r))

    if matches[0] == 0:
        return 0.0
    if hyp_length > ref_length:
        brevity_penalty = 1.0
    else:
        brevity_penalty = math.exp(1 - ref_length / hyp_length)
    log_precision = math.fsum(
        math.log((m if m else epsilon) / t) for m, t in zip(matches, totals))
    return brevity_penalty * math.exp(log_precision / max_n)


def compute_bleu(list_of_references, hypotheses):
    """Corpus BLEU, by NLTK when it is installed."""
    if bleu_score is None:
        return corpus_bleu(list_of_references, hypotheses)
    return bleu_score.corpus_bleu(
        list_of_references, hypotheses,
        smoothing_function=bleu_score.SmoothingFunction().method1)


class CalculateBleu(chainer.training.Extension):
    """Trainer extension reporting the BLEU of a model's translations.

    Args:
        model (Seq2seq): The model.
        test_data (list): (source, target) pairs of ID arrays.
        key (str): The name reported.
        device: Device the sources are sent to.
        batch (int): Sentences translated at once.
        max_length (int): Most words generated per sentence.
    """

    trigger = 1, 'epoch'
    priority = chainer.training.PRIORITY_WRITER

    def __init__(
            self, model, test_data, key, device, batch=100, max_length=100):
        self.model = model
        self.test_data = test_data
        self.key = key
        self.batch = batch
        self.device = device
        self.max_length = max_length

    def __call__(self, trainer):
        references = []
        hypotheses = []
        for i in range(0, len(self.test_data), self.batch):
            sources, targets = zip(*self.test_data[i:i + self.batch])
            references.extend([[t.tolist()] for t in targets])

            sources = [self.device.send(x) for x in sources]
            ys = [y.tolist()
                  for y in self.model.translate(sources, self.max_length)]
            hypotheses.extend(ys)

        chainer.report({self.key: compute_bleu(references, hypotheses)})


def load_vocabulary(path):
    """Reads a vocabulary file into a word-to-ID dict.

    IDs 0 and 1 are ``<UNK>`` and ``<EOS>``; the file's words follow.
    """
    with open(path, encoding='utf-8') as f:
        word_ids = {line.strip(): i + 2 for i, line in enumerate(f)}
    word_ids['<UNK>'] = UNK
    word_ids['<EOS>'] = EOS
    return word_ids


def _line_to_ids(vocabulary, line):
    return numpy.array(
        [vocabulary.get(w, UNK) for w in line.strip().split()], numpy.int32)


def load_data(vocabulary, path):
    """Reads a sentence file into a list of word-ID arrays."""
    print('loading...: %s' % path)
    with open(path, encoding='utf-8') as f:
        return [_line_to_ids(vocabulary, line) for line in f]


def load_data_using_dataset_api(
        src_vocab, src_path, target_vocab, target_path, filter_func):
    """Returns the parallel corpus as a dataset that reads lines lazily."""

    def _transform(example):
        source, target = example
        return (_line_to_ids(src_vocab, source),
                _line_to_ids(target_vocab, target))

    return chainer.datasets.TransformDataset(
        chainer.datasets.TextDataset(
            [src_path, target_path], encoding='utf-8',
            filter_func=filter_func),
        _transform)


def calculate_unknown_ratio(data):
    unknown = sum((s == UNK).sum() for s in data)
    total = sum(s.size for s in data)
    return unknown / total


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description='Chainer example: seq2seq')
    parser.add_argument('SOURCE', help='source sentence list')
    parser.add_argument('TARGET', help='target sentence list')
    parser.add_argument('SOURCE_VOCAB', help='source vocabulary file')
    parser.add_argument('TARGET_VOCAB', help='target vocabulary file')
    parser.add_argument('--validation-source',
                        help='source sentence list for validation')
    parser.add_argument('--validation-target',
                        help='target sentence list for validation')
    parser.add_argument('--batchsize', '-b', type=int, default=64,
                        help='number of sentence pairs in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='number of sweeps over the dataset to train')
    parser.add_argument('--resume', '-r', type=str,
                        help='resume the training from snapshot')
    parser.add_argument('--save', '-s', type=str,
                        help='save a snapshot of the training')
    parser.add_argument('--unit', '-u', type=int, default=1024,
                        help='number of units')
    parser.add_argument('--layer', '-l', type=int, default=3,
                        help='number of layers')
    parser.add_argument('--use-dataset-api', default=False,
                        action='store_true',
                        help='use TextDataset API to reduce CPU memory usage')
    parser.add_argument('--min-source-sentence', type=int, default=1,
                        help='minimium length of source sentence')
    parser.add_argument('--max-source-sentence', type=int, default=50,
                        help='maximum length of source sentence')
    parser.add_argument('--min-target-sentence', type=int, default=1,
                        help='minimium length of target sentence')
    parser.add_argument('--max-target-sentence', type=int, default=50,
                        help='maximum length of target sentence')
    parser.add_argument('--log-interval', type=int, default=200,
                        help='number of iteration to show log')
    parser.add_argument('--validation-interval', type=int, default=4000,
                        help='number of iteration to evlauate the model '
                        'with validation dataset')
    parser.add_argument('--device', '-d', type=str, default='-1',
                        help='Device specifier. Either ChainerX device '
                        'specifier or an integer. If non-negative integer, '
                        'CuPy arrays with specified device id are used. If '
                        'negative integer, NumPy arrays are used')
    parser.add_argument('--out', '-o', default='result',
                        help='directory to output the result')
    group = parser.add_argument_group('deprecated arguments')
    group.add_argument('--gpu', '-g', dest='device',
                       type=int, nargs='?', const=0,
                       help='GPU ID (negative value indicates CPU)')
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    device = chainer.get_device(args.device)

    print('Device: {}'.format(device))
    print('# Minibatch-size: {}'.format(args.batchsize))
    print('# epoch: {}'.format(args.epoch))
    print('')

    print('[{}] Loading dataset... (this may take several minutes)'.format(
        datetime.datetime.now()))
    source_ids = load_vocabulary(args.SOURCE_VOCAB)
    target_ids = load_vocabulary(args.TARGET_VOCAB)

    def in_length_limits(source_length, target_length):
        return (args.min_source_sentence <= source_length
                <= args.max_source_sentence and
                args.min_target_sentence <= target_length
                <= args.max_target_sentence)

    if args.use_dataset_api:
        # The lines are read when a batch needs them, not all at once.
        def _filter_func(s, t):
            return in_length_limits(len(s.split()), len(t.split()))

        train_data = load_data_using_dataset_api(
            source_ids, args.SOURCE, target_ids, args.TARGET, _filter_func)
    else:
        train_source = load_data(source_ids, args.SOURCE)
        train_target = load_data(target_ids, args.TARGET)
        assert len(train_source) == len(train_target)
        train_data = [(s, t) for s, t in zip(train_source, train_target)
                      if in_length_limits(len(s), len(t))]
    print('[{}] Dataset loaded.'.format(datetime.datetime.now()))

    if not args.use_dataset_api:
        # Statistics would need a pass over the whole lazy dataset.
        train_source_unknown = calculate_unknown_ratio(
            [s for s, _ in train_data])
        train_target_unknown = calculate_unknown_ratio(
            [t for _, t in train_data])

        print('Source vocabulary size: %d' % len(source_ids))
        print('Target vocabulary size: %d' % len(target_ids))
        print('Train data size: %d' % len(train_data))
        print('Train source unknown ratio: %.2f%%' % (
            train_source_unknown * 100))
        print('Train target unknown ratio: %.2f%%' % (
            train_target_unknown * 100))

    target_words = {i: w for w, i in target_ids.items()}
    source_words = {i: w for w, i in source_ids.items()}

    model = Seq2seq(args.layer, len(source_ids), len(target_ids), args.unit)
    model.to_device(device)

    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train_iter = chainer.iterators.SerialIterator(train_data, args.batchsize)

    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, converter=convert, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.LogReport(
        trigger=(args.log_interval, 'iteration')))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'main/loss', 'main/perp',
         'validation/main/bleu', 'elapsed_time']),
        trigger=(args.log_interval, 'iteration'))
    trainer.extend(
        extensions.snapshot(filename='snapshot_epoch_{.updater.iteration}'),
        trigger=(args.validation_interval, 'iteration'))

    if args.validation_source and args.validation_target:
        test_source = load_data(source_ids, args.validation_source)
        test_target = load_data(target_ids, args.validation_target)
        assert len(test_source) == len(test_target)
        test_data = [(s, t) for s, t in zip(test_source, test_target)
                     if len(s) > 0 and len(t) > 0]
        test_source_unknown = calculate_unknown_ratio(
            [s for s, _ in test_data])
        test_target_unknown = calculate_unknown_ratio(
            [t for _, t in test_data])

        print('Validation data: %d' % len(test_data))
        print('Validation source unknown ratio: %.2f%%' %
              (test_source_unknown * 100))
        print('Validation target unknown ratio: %.2f%%' %
              (test_target_unknown * 100))

        @chainer.training.make_extension()
        def translate(trainer):
            source, target = test_data[numpy.random.choice(len(test_data))]
            result = model.translate([model.xp.array(source)])[0]

            source_sentence = ' '.join([source_words[x] for x in source])
            target_sentence = ' '.join([target_words[y] for y in target])
            result_sentence = ' '.join([target_words[y] for y in result])
            print('# source : ' + source_sentence)
            print('# result : ' + result_sentence)
            print('# expect : ' + target_sentence)

        trainer.extend(
            translate, trigger=(args.validation_interval, 'iteration'))
        trainer.extend(
            CalculateBleu(model, test_data, 'validation/main/bleu', device),
            trigger=(args.validation_interval, 'iteration'))

    if args.resume is not None:
        chainer.serializers.load_npz(args.resume, trainer)

    print('start training')
    trainer.run()

    if args.save is not None:
        chainer.serializers.save_npz(args.save, trainer)


if __name__ == '__main__':
    main()
