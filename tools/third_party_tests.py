"""Runs a third-party library's own test suite against two Chainers.

A library built on Chainer (chainercv, chainer-chemistry, chainerrl, ...)
ships tests that pass on the original Chainer 7.8.1. This script runs the
same tests, from the same folder, with two Pythons — one whose ``chainer``
is the original, one whose ``chainer`` is this project — records the
outcome of every test id from pytest's JUnit XML report, and prints::

    third-party: N/M (P%)

the number of tests passing here among the M tests that pass on the
original, followed by the ids that pass there and not here.

Example (chainerrl's tests, unpacked in /tmp/chainerrl-src)::

    python tools/third_party_tests.py \\
        --original /work/venv-rl-orig/bin/python \\
        --project /work/venv-rl/bin/python \\
        --cwd /tmp/chainerrl-src -m 'not gpu and not slow' tests

Arguments after the options are passed to pytest (paths, ``-k``, ...).
``--reuse`` compares the XML reports of an earlier run without running
pytest again.
"""

import argparse
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree


def run_pytest(python, cwd, pytest_args, report, workers, timeout):
    command = [python, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
               '--junitxml', report, '-o', 'junit_family=xunit1']
    if workers:
        command += ['-n', str(workers)]
    if timeout:
        command += ['--timeout', str(timeout)]
    command += list(pytest_args)
    print('$', ' '.join(command), flush=True)
    completed = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    lines = completed.stdout.rstrip().splitlines()
    print('\n'.join(lines[-3:]), flush=True)


# A temporary folder's name in a parameterized test id (``tempfile.mkdtemp``
# at collection) differs between the two runs; it is one name in both.
_TEMP_NAME = re.compile(r'/tmp[A-Za-z0-9_]{8}\b')


def outcomes(report):
    """``{test id: 'passed' | 'failed' | 'error' | 'skipped'}``."""
    result = {}
    for case in ElementTree.parse(report).getroot().iter('testcase'):
        if case.get('name') is None:
            continue  # a bare entry pytest writes after an internal error
        test_id = _TEMP_NAME.sub('/tmpXXXXXXXX', '{}::{}'.format(
            case.get('classname'), case.get('name')))
        state = 'passed'
        for child in case:
            if child.tag in ('failure', 'error', 'skipped'):
                state = {'failure': 'failed'}.get(child.tag, child.tag)
                break
        # A test that passes but errors in teardown appears twice.
        if result.get(test_id, 'passed') == 'passed':
            result[test_id] = state
    return result


def compare(original, project):
    passing = sorted(t for t, s in original.items() if s == 'passed')
    short = [t for t in passing if project.get(t) != 'passed']
    return passing, short


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split('\n\n')[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--original', required=True,
                        help='Python whose chainer is Chainer 7.8.1')
    parser.add_argument('--project', required=True,
                        help='Python whose chainer is this project')
    parser.add_argument('--cwd', default='.',
                        help='folder to run pytest in (the suite\'s root)')
    parser.add_argument('--out', default='third-party-reports',
                        help='folder for the XML reports and short.txt')
    parser.add_argument('-n', '--workers', type=int, default=0,
                        help='pytest-xdist workers (0: none)')
    parser.add_argument('--timeout', type=int, default=0,
                        help='pytest-timeout per test, in seconds')
    parser.add_argument('--reuse', action='store_true',
                        help='compare the reports already in --out')
    args, pytest_args = parser.parse_known_args(argv)

    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    reports = {name: os.path.join(out, name + '.xml')
               for name in ('original', 'project')}
    if not args.reuse:
        for name in ('original', 'project'):
            run_pytest(getattr(args, name), args.cwd, pytest_args,
                       reports[name], args.workers, args.timeout)

    original = outcomes(reports['original'])
    project = outcomes(reports['project'])
    passing, short = compare(original, project)
    with open(os.path.join(out, 'short.txt'), 'w') as f:
        for test_id in short:
            f.write('{}\t{}\n'.format(project.get(test_id, 'absent'),
                                      test_id))
    for test_id in short:
        print('  {:8s} {}'.format(project.get(test_id, 'absent'), test_id))
    if passing:
        count = len(passing) - len(short)
        print('third-party: {}/{} ({:.2f}%)'.format(
            count, len(passing), 100.0 * count / len(passing)))
    else:
        print('third-party: no test passes on the original')
    return 0


if __name__ == '__main__':
    sys.exit(main())
