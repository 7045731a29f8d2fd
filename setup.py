"""Build script: the Python packages and the optional C++ CPU kernels."""

import glob
import os

import setuptools


def _extensions():
    sources = sorted(glob.glob(os.path.join('chainerx_cpp', '*.cpp')))
    if not sources:
        return []
    from pybind11.setup_helpers import Pybind11Extension
    return [Pybind11Extension(
        'chainerx_cpp._kernels', sources, cxx_std=17,
        extra_compile_args=['-O3'])]


setuptools.setup(ext_modules=_extensions())
