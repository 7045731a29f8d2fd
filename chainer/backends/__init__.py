"""Backends: the CPU (NumPy), CUDA (CuPy) and Intel64 (iDeep) devices."""

from chainer.backends import _cpu  # NOQA
from chainer.backends import cuda  # NOQA
from chainer.backends import intel64  # NOQA
