#!/usr/bin/env python
"""Tokenizes a corpus for seq2seq.py, and optionally writes its vocabulary.

Each input line becomes a line of space-separated words: punctuation marks
are split off, digits become ``0``, and with ``--lower`` everything is lower
case. ``--vocab-file`` writes the ``--vocab-size`` most frequent words, one
a line, most frequent first.
"""
import argparse
import collections
import re


split_pattern = re.compile(r'([.,!?"\':;)(])')
digit_pattern = re.compile(r'\d')


def split_sentence(s, use_lower):
    """Returns the words of a sentence.

    Args:
        s (str): The sentence.
        use_lower (bool): Whether to lower the case first.

    Returns:
        list of str: The words and punctuation marks.
    """
    if use_lower:
        s = s.lower()
    s = s.replace('\u2019', "'")
    s = digit_pattern.sub('0', s)
    words = []
    for word in s.strip().split():
        words.extend(split_pattern.split(word))
    return [w for w in words if w]


def read_file(path, use_lower):
    """Yields the words of each line of a UTF-8 text file."""
    with open(path, encoding='utf-8', errors='ignore') as f:
        for line in f:
            yield split_sentence(line, use_lower)


def proc_dataset(
        path, outpath, vocab_path=None, vocab_size=None, use_lower=False):
    """Writes the tokenized corpus and, optionally, its vocabulary.

    Args:
        path (str): Input corpus, one sentence a line.
        outpath (str): Output file of space-separated words.
        vocab_path (str): Vocabulary file to write, or ``None``.
        vocab_size (int): Number of words in the vocabulary.
        use_lower (bool): Whether to lower the case.
    """
    token_count = 0
    counts = collections.Counter()
    with open(outpath, 'w', encoding='utf-8') as f:
        for words in read_file(path, use_lower):
            f.write(' '.join(words))
            f.write('\n')
            if vocab_path:
                counts.update(words)
            token_count += len(words)
    print('number of tokens: %d' % token_count)

    if vocab_path and vocab_size:
        with open(vocab_path, 'w', encoding='utf-8') as f:
            for word, _ in counts.most_common(vocab_size):
                f.write(word)
                f.write('\n')


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument(
        'INPUT', help='input sentence data')
    parser.add_argument(
        'OUTPUT', help='output sentence data')
    parser.add_argument(
        '--vocab-file', help='vocabulary file to save')
    parser.add_argument(
        '--vocab-size', type=int, default=40000,
        help='size of vocabulary file')
    parser.add_argument(
        '--lower', action='store_true', help='use lower case')
    args = parser.parse_args(argv)

    proc_dataset(
        args.INPUT, args.OUTPUT, vocab_path=args.vocab_file,
        vocab_size=args.vocab_size, use_lower=args.lower)


if __name__ == '__main__':
    main()
