"""Alias of :mod:`chainer.backends.cuda`, kept for older user code."""

import sys

from chainer.backends import cuda

sys.modules[__name__] = cuda
