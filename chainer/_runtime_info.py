"""Versions of Chainer and of the libraries it runs on."""

import io
import platform
import sys

import numpy

from chainer import _version
from chainer.backends import cuda
from chainer.backends import intel64


# Which implementation of the Chainer 7.8 API this is, for bug reports.
IMPLEMENTATION = (
    'the re-implementation for Python 3.10+ and NumPy 2, '
    'API of Chainer 7.8.1')


class _RuntimeInfo:
    """A snapshot of the runtime versions; ``str()`` gives the report."""

    def __init__(self):
        import chainerx
        self.chainer_version = _version.__version__
        self.chainerx_available = chainerx.is_available()
        self.numpy_version = numpy.__version__
        self.platform_version = platform.platform()
        if cuda.available:
            self.cuda_info = cuda.cupyx.get_runtime_info()
        else:
            self.cuda_info = None
        if intel64.is_ideep_available():
            self.ideep_version = intel64.ideep.__version__
        else:
            self.ideep_version = None
        self.cpp_kernels_available = _cpp_kernels_available()
        from chainer import _core_fields
        self.compiled_core_available = _core_fields.compiled is not None

    def __str__(self):
        out = io.StringIO()
        out.write('Platform: {}\n'.format(self.platform_version))
        out.write('Chainer: {} ({})\n'.format(
            self.chainer_version, IMPLEMENTATION))
        out.write('ChainerX: {}\n'.format(
            _availability(self.chainerx_available)))
        out.write('NumPy: {}\n'.format(self.numpy_version))
        if self.cuda_info is None:
            out.write('CuPy: Not Available\n')
        else:
            out.write('CuPy:\n')
            for line in str(self.cuda_info).splitlines():
                out.write('  {}\n'.format(line))
        out.write('iDeep: {}\n'.format(
            self.ideep_version or 'Not Available'))
        out.write('C++ kernels (chainerx_cpp): {}\n'.format(
            _availability(self.cpp_kernels_available)))
        out.write('Compiled autograd core: {}\n'.format(
            _availability(self.compiled_core_available)))
        return out.getvalue()


def _availability(flag):
    return 'Available' if flag else 'Not Available'


def _cpp_kernels_available():
    try:
        import chainerx_cpp
    except ImportError:
        return False
    return chainerx_cpp.is_available()


def _get_runtime_info():
    return _RuntimeInfo()


def print_runtime_info(out=None):
    """Prints the versions of Chainer and of the libraries it uses.

    The report names the platform and the versions of Chainer, ChainerX,
    NumPy, CuPy (with its CUDA, cuDNN and NCCL details), iDeep and whether
    the compiled C++ kernels and the compiled autograd core are present.

    Args:
        out: A writable stream; standard output by default.
    """
    if out is None:
        out = sys.stdout
    out.write(str(_get_runtime_info()))
    if hasattr(out, 'flush'):
        out.flush()
