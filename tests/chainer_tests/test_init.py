"""What a plain ``import chainer`` makes reachable, as in Chainer 7.8."""

import subprocess
import sys

import pytest

# The submodules that Chainer 7.8.1 loads with ``import chainer``, beyond
# the public packages, which code written for it reaches as attributes.
LOADED_WITH_THE_PACKAGE = (
    'chainer._backprop_utils',
    'chainer._environment_check',
    'chainer.backends._chainerx',
    'chainer.functions.pooling.average_pooling_nd_kernel',
    'chainer.functions.pooling.max_pooling_nd_kernel',
    'chainer.functions.pooling.pooling_nd_kernel',
    'chainer.memory_layouts',
    'chainer.utils._collections',
    'chainer.utils.conv_nd_kernel',
)

_SCRIPT = '''
import sys
import chainer
for path in sys.argv[1:]:
    obj = chainer
    for name in path.split('.')[1:]:
        obj = getattr(obj, name)
    assert obj is sys.modules[path], path
assert sys.modules['chainer.cuda'] is chainer.backends.cuda
'''


@pytest.mark.parametrize('path', LOADED_WITH_THE_PACKAGE)
def test_submodule_is_an_attribute_after_import(path):
    # A fresh interpreter: the test session has imported much more.
    result = subprocess.run(
        [sys.executable, '-c', _SCRIPT, path],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_chainerx_glue_is_reexported_by_backend():
    from chainer import backend
    from chainer.backends import _chainerx
    assert backend.ChainerxDevice is _chainerx.ChainerxDevice
    assert backend.to_chx is _chainerx.to_chx
    assert backend.from_chx is _chainerx.from_chx
