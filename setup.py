"""Build script: the Python packages and the optional C++ CPU kernels.

The kernels (``chainerx_cpp._kernels``) are compiled against oneDNN from
the ``onednn-devel-cpu-gomp`` and ``onednn-cpu-gomp`` wheels, which the
build requirements in pyproject.toml install. ``CHAINER_BUILD_CHAINERX_CPP=0``
skips them; a build that fails warns and leaves the pure-NumPy library.
"""

import glob
import os
import sys

import setuptools
from setuptools.command.build_ext import build_ext


def _wheel_dir(distribution, suffix):
    """The folder of the first file of ``distribution`` ending in suffix."""
    from importlib import metadata
    try:
        dist = metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        return None
    for f in dist.files or ():
        if str(f).endswith(suffix):
            path = os.path.normpath(str(dist.locate_file(f)))
            return path[:-len(suffix)].rstrip(os.sep)
    return None


def _extensions():
    if os.environ.get('CHAINER_BUILD_CHAINERX_CPP', '1') == '0':
        return []
    sources = sorted(glob.glob(os.path.join('chainerx_cpp', '*.cpp')))
    include_dir = _wheel_dir(
        'onednn-devel-cpu-gomp', os.path.join('oneapi', 'dnnl', 'dnnl.hpp'))
    lib_dir = _wheel_dir('onednn-cpu-gomp', 'libdnnl.so.3')
    if not sources or include_dir is None or lib_dir is None:
        print('chainerx_cpp: oneDNN wheels not found, kernels not built',
              file=sys.stderr)
        return []
    from pybind11.setup_helpers import Pybind11Extension
    return [Pybind11Extension(
        'chainerx_cpp._kernels', sources, cxx_std=17,
        depends=sorted(glob.glob(os.path.join('chainerx_cpp', '*.hpp'))),
        include_dirs=[include_dir, 'chainerx_cpp'],
        library_dirs=[lib_dir], libraries=['dnnl'],
        extra_compile_args=['-O3', '-fopenmp', '-fno-math-errno',
                            '-fno-trapping-math', '-ffp-contract=off'],
        extra_link_args=['-fopenmp'])]


class _OptionalBuildExt(build_ext):
    """Builds the kernels, or warns and goes on without them."""

    def run(self):
        try:
            super().run()
        except Exception as e:  # compiler or linker failure
            print('chainerx_cpp: build failed, kernels disabled: {}'.format(
                e), file=sys.stderr)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as e:  # compiler or linker failure
            print('chainerx_cpp: build failed, kernels disabled: {}'.format(
                e), file=sys.stderr)


setuptools.setup(ext_modules=_extensions(),
                 cmdclass={'build_ext': _OptionalBuildExt})
