"""Find docstring and comment sentences shared with another source tree.

Usage::

    python tools/compare_docstrings.py OTHER_PKG PROJECT_PKG \\
        [--other DIR ...] [--project DIR ...]

for instance, with Chainer 7.8.1 installed in the environment ``$ENV``::

    SITE=$ENV/lib/python3.11/site-packages
    python tools/compare_docstrings.py $SITE/chainer chainer \\
        --other $SITE/chainermn --project chainermn \\
        --other $SITE/onnx_chainer --project onnx_chainer

Both trees are parsed with :mod:`ast` (docstrings of modules, classes and
functions, and string statements elsewhere in a body) and :mod:`tokenize`
(comments). Each text is cut into sentences, which are compared after
lower-casing, dropping reST markup and collapsing whitespace. Every
project sentence of ``--min-words`` words or more (not counting the name
and type that open an argument or return entry) that occurs in the other
tree is reported, then every longer one (``--near-words`` in all and
``--near-description`` after the prefix) whose
:class:`difflib.SequenceMatcher` ratio against a sentence of the other tree
exceeds ``--ratio``.

Each sentence has a kind: ``prose``, or ``code`` (doctests, literal
blocks), ``formula`` (``math`` directives), ``citation`` (paper
references), ``signature`` (a call signature on a line of its own) and
``pragma`` (``noqa`` comments). Prose matches are listed; the others are
only counted unless ``--all`` is given, as they cannot be reworded.

The report names the project's file and line, the kind, the sentence as the
project writes it and, for a near match, the ratio and the file and line in
the other tree; text of the other tree is never printed or stored. The
exit status is 1 when a prose sentence is reported, so the script can gate
a check.
"""

import argparse
import ast
import collections
import difflib
import io
import os
import re
import sys
import tokenize


_FIELD = re.compile(
    r'^\s*(?:[*\w.]+(?:\s*\([^)]*\))?\s*:(?:\s|$)'
    r'|(?:args|arguments|keyword arguments|parameters|returns?|yields?'
    r'|raises|attributes|examples?|notes?|see also|warning|todo)\s*:'
    r'|\.\.\s+\w[\w-]*::|[-*]\s|>>>|\.\.\.\s)', re.IGNORECASE)
_SENTENCE_END = re.compile(r'(?<=[.!?])\s+')
_ROLE = re.compile(r':[\w:+-]+:(?=`)')
_MARKUP = re.compile(r'[`*~|]')
_WORD = re.compile(r'\w')
_FIELD_PREFIX = re.compile(
    r'^(?:(?:returns?|yields?|raises)\s*:\s*)?'
    r'(?:[\w*.]+(?:\s*\([^)]*\))?\s*:\s+)?')
_MATH = re.compile(r'\.\.\s+math::')
_CODE = re.compile(r'\.\.\s+(?:code-block|code|testcode|testoutput|doctest)::')
_SIGNATURE = re.compile(r'^[\w.]+\(.*\)\s*(?:->.*)?$')
_CITATION = re.compile(r'<(?:https?|ftp)://|^\[\w[\w+-]*\]')
_PRAGMA = re.compile(
    r'^(?:\s*(?:noqa(?::\s*[\w, ]+)?|type:\s*ignore\S*|pragma:.*|'
    r'nosec|pylint:.*|fmt:\s*\w+))+\s*$', re.IGNORECASE)


def normalize(text):
    """Lower-cases a sentence, drops reST markup and extra whitespace."""
    text = _ROLE.sub('', text)
    text = _MARKUP.sub('', text)
    text = ' '.join(text.lower().split())
    return text.strip(' \t.,;:!?()[]"\'')


def word_count(text):
    return sum(1 for w in text.split() if _WORD.search(w))


def description_words(text):
    """Counts the words of a normalized sentence after any field prefix.

    The name and type of an argument entry (``x (int): ...``) and the type
    of a return entry are set by the API, so they do not count.
    """
    return word_count(_FIELD_PREFIX.sub('', text, count=1))


def _indent(text):
    return len(text) - len(text.lstrip())


def tag_docstring(lines):
    """Tags docstring lines as prose, ``code`` or ``formula``.

    Doctest lines and their output, literal blocks (after ``::``) and code
    directives are code; the body of a ``math`` directive is a formula.
    """
    tagged = []
    block = None  # (kind, indent of the line that opened the block)
    doctest = False
    for lineno, text in lines:
        stripped = text.strip()
        if block is not None and stripped and _indent(text) <= block[1]:
            block = None
        if not stripped:
            doctest = False
            tagged.append((lineno, text, block[0] if block else 'prose'))
            continue
        if block is not None:
            tagged.append((lineno, text, block[0]))
            continue
        if stripped.startswith(('>>>', '... ')) or stripped == '...':
            doctest = True
        if doctest:
            tagged.append((lineno, text, 'code'))
            continue
        if _MATH.match(stripped):
            block = ('formula', _indent(text))
            tagged.append((lineno, text, 'formula'))
            continue
        if _CODE.match(stripped):
            block = ('code', _indent(text))
            tagged.append((lineno, text, 'code'))
            continue
        tagged.append((lineno, text, 'prose'))
        if stripped.endswith('::') and not stripped.startswith('..'):
            block = ('code', _indent(text))
    return tagged


def _chunks(lines):
    """Groups tagged lines into paragraphs and field entries."""
    chunk = []
    for lineno, text, kind in lines:
        if not text.strip() or (chunk and (
                _FIELD.match(text) or kind != chunk[0][2])):
            if chunk:
                yield chunk
            chunk = []
        if text.strip():
            chunk.append((lineno, text, kind))
    if chunk:
        yield chunk


def _kind(kind, text):
    if kind != 'prose':
        return kind
    if _SIGNATURE.match(text):
        return 'signature'
    if _CITATION.search(text):
        return 'citation'
    if _PRAGMA.match(text):
        return 'pragma'
    return kind


def sentences(lines):
    """Yields ``(lineno, kind, raw sentence)`` from tagged lines."""
    for chunk in _chunks(lines):
        joined = ''
        starts = []
        for lineno, text, kind in chunk:
            starts.append((len(joined), lineno))
            joined += text.strip() + ' '
        kind = chunk[0][2]
        parts = [joined] if kind != 'prose' else _SENTENCE_END.split(joined)
        pos = 0
        for part in parts:
            offset = joined.find(part, pos)
            pos = offset + len(part)
            lineno = chunk[0][0]
            for start, line in starts:
                if start <= offset:
                    lineno = line
            if part.strip():
                yield lineno, _kind(kind, part.strip()), part


def _docstring_nodes(tree):
    for node in ast.walk(tree):
        body = getattr(node, 'body', None)
        if not isinstance(body, list):
            continue
        for stmt in body:
            if (isinstance(stmt, ast.Expr)
                    and isinstance(stmt.value, ast.Constant)
                    and isinstance(stmt.value.value, str)):
                yield stmt.value


def _comment_blocks(source):
    block = []
    last = None
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return
    for tok in tokens:
        if tok.type != tokenize.COMMENT:
            continue
        lineno = tok.start[0]
        text = tok.string.lstrip('#').lstrip(':')
        alone = tok.line.lstrip().startswith('#')
        if block and (not alone or last is None or lineno != last + 1):
            yield block
            block = []
        block.append((lineno, text, 'prose'))
        last = lineno if alone else None
    if block:
        yield block


def _place(node, source_lines):
    """Pairs the lines of a string constant with their source lines.

    Escapes such as a backslash at the end of a line join source lines, so
    each line of the value is looked up in the source, in order.
    """
    placed = []
    at = node.lineno
    last = getattr(node, 'end_lineno', None) or node.lineno
    for i, line in enumerate(node.value.splitlines()):
        key = line.strip()[:30]
        found = node.lineno + i if not placed else placed[-1][0] + 1
        if key:
            for n in range(at, last + 1):
                if key in source_lines[n - 1]:
                    found = n
                    break
        placed.append((found, line))
        at = max(at, found)
    return placed


def extract(path):
    """Yields ``(lineno, kind, raw sentence)`` of a file's docs, comments."""
    with open(path, encoding='utf-8', errors='replace') as f:
        source = f.read()
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError:
        tree = None
    if tree is not None:
        source_lines = source.splitlines()
        for node in _docstring_nodes(tree):
            lines = _place(node, source_lines)
            yield from sentences(tag_docstring(lines))
    for block in _comment_blocks(source):
        yield from sentences(block)


def python_files(roots):
    for root in roots:
        if os.path.isfile(root):
            yield root
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(
                d for d in dirnames if d != '__pycache__')
            for name in sorted(filenames):
                if name.endswith(('.py', '.pyx', '.pxd')):
                    yield os.path.join(dirpath, name)


def _shingles(words):
    return {' '.join(words[i:i + 2]) for i in range(len(words) - 1)}


class OtherTree:
    """Normalized sentences of the tree compared against, and their places.

    Only the normalized form is kept, in memory, for the comparison.
    """

    def __init__(self, roots, near_words):
        self.exact = {}
        self.near = []
        self.index = collections.defaultdict(list)
        seen = set()
        for path in python_files(roots):
            for lineno, _, raw in extract(path):
                text = normalize(raw)
                if not text:
                    continue
                self.exact.setdefault(text, (path, lineno))
                if word_count(text) >= near_words - 2 and text not in seen:
                    seen.add(text)
                    k = len(self.near)
                    self.near.append((text, path, lineno))
                    for s in _shingles(text.split()):
                        self.index[s].append(k)

    def closest(self, text, ratio):
        shingles = _shingles(text.split())
        counts = collections.Counter()
        for s in shingles:
            counts.update(self.index.get(s, ()))
        need = max(1, len(shingles) // 2)
        best = None
        matcher = difflib.SequenceMatcher(autojunk=False)
        matcher.set_seq2(text)
        for k, n in counts.items():
            if n < need:
                continue
            other, path, lineno = self.near[k]
            matcher.set_seq1(other)
            if matcher.real_quick_ratio() <= ratio:
                continue
            if matcher.quick_ratio() <= ratio:
                continue
            r = matcher.ratio()
            if r > ratio and (best is None or r > best[0]):
                best = (r, path, lineno)
        return best


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split('\n\n')[0])
    parser.add_argument('other', help='package directory compared against')
    parser.add_argument('project', help="the project's package directory")
    parser.add_argument('--other', dest='more_other', action='append',
                        default=[], help='another directory to compare '
                        'against (repeatable)')
    parser.add_argument('--project', dest='more_project', action='append',
                        default=[], help='another project directory '
                        '(repeatable)')
    parser.add_argument('--min-words', type=int, default=6,
                        help='shortest sentence reported as an exact match')
    parser.add_argument('--near-words', type=int, default=8,
                        help='shortest sentence checked for a near match')
    parser.add_argument('--near-description', type=int, default=4,
                        help='fewest words after the field prefix of a '
                        'sentence checked for a near match')
    parser.add_argument('--ratio', type=float, default=0.9,
                        help='difflib ratio above which a sentence is near')
    parser.add_argument('--all', action='store_true',
                        help='also list the matches that are not prose: '
                        'code, formulas, citations, signatures, pragmas')
    args = parser.parse_args(argv)

    other = OtherTree([args.other] + args.more_other, args.near_words)
    exact = []
    near = []
    for path in python_files([args.project] + args.more_project):
        for lineno, kind, raw in extract(path):
            text = normalize(raw)
            words = description_words(text)
            shown = ' '.join(raw.split())
            if words >= args.min_words and text in other.exact:
                exact.append((kind, path, lineno, shown))
            elif (words >= args.near_description
                    and word_count(text) >= args.near_words):
                found = other.closest(text, args.ratio)
                if found is not None:
                    r, opath, oline = found
                    near.append((kind, path, lineno, shown, r, opath, oline))

    for kind, path, lineno, shown in exact:
        if kind == 'prose' or args.all:
            print('{}:{}: exact {}: {}'.format(path, lineno, kind, shown))
    for kind, path, lineno, shown, r, opath, oline in near:
        if kind == 'prose' or args.all:
            print('{}:{}: near {} {:.2f} ({}:{}): {}'.format(
                path, lineno, kind, r, opath, oline, shown))
    for name, found in (('exact', exact), ('near', near)):
        counts = collections.Counter(item[0] for item in found)
        print('{}: {} prose; other: {}'.format(
            name, counts.pop('prose', 0),
            ', '.join('{} {}'.format(counts[k], k) for k in sorted(counts))
            or 'none'))
    return 1 if any(item[0] == 'prose' for item in exact + near) else 0


if __name__ == '__main__':
    sys.exit(main())
