"""Importing the packages changes nothing process-wide.

A library must leave the process as it found it: the environment
(``GOMP_SPINCOUNT`` and the like, which libraries loaded later read), the
exception hook, the signal handlers, NumPy's error and print settings,
the recursion limit and glibc's malloc settings.
"""

import os
import subprocess
import sys

import pytest

_SCRIPT = r'''
import json
import os
import signal
import sys
import threading
import warnings

import numpy
numpy.polyfit  # NumPy registers its own RankWarning filter on first use

def state():
    return {
        'environ': dict(os.environ),
        'excepthook': repr(sys.excepthook),
        'threading.excepthook': repr(threading.excepthook),
        'signals': {s.name: repr(signal.getsignal(s))
                    for s in signal.valid_signals()
                    if isinstance(s, signal.Signals)},
        'seterr': numpy.geterr(),
        'printoptions': repr(numpy.get_printoptions()),
        'recursionlimit': sys.getrecursionlimit(),
        'switchinterval': sys.getswitchinterval(),
        'warnings.filters': repr(warnings.filters),
    }

before = state()
import chainer, chainer.functions, chainer.links, chainer.training  # NOQA
import chainermn, onnx_chainer, chainerx, chainerx_cpp  # NOQA
after = state()
print(json.dumps({'before': before, 'after': after,
                  'malloc': chainerx_cpp._malloc_setting}))
'''


@pytest.fixture(scope='module')
def states():
    env = dict(os.environ)
    for name in ('GOMP_SPINCOUNT', 'CHAINERX_CPP_KEEP_FREED_MEMORY',
                 'CHAINERMN_FORCE_ABORT_ON_EXCEPTION'):
        env.pop(name, None)
    result = subprocess.run([sys.executable, '-c', _SCRIPT], env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    import json
    return json.loads(result.stdout.splitlines()[-1])


@pytest.mark.parametrize('what', [
    'environ', 'excepthook', 'threading.excepthook', 'signals', 'seterr',
    'printoptions', 'recursionlimit', 'switchinterval', 'warnings.filters'])
def test_import_leaves_it_unchanged(states, what):
    assert states['after'][what] == states['before'][what]


def test_import_keeps_glibcs_malloc_settings(states):
    assert states['malloc'] == 'glibc defaults'


def test_import_chainer_loads_no_test_tools():
    # As Chainer 7.8.1's: the testing tools (and pytest, which they use)
    # load when a program asks for them.
    code = ('import sys, chainer, chainer.functions, chainer.links; '
            'print(sorted(m for m in ("pytest", "chainer.testing", '
            '"chainer.gradient_check") if m in sys.modules))')
    result = subprocess.run([sys.executable, '-c', code],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == '[]'
