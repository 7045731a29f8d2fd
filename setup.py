"""Build script: the Python packages and two optional C++ extensions.

- ``chainer._compiled_autograd``, the compiled autograd core
  (``csrc/autograd``): the bookkeeping of ``FunctionNode.apply`` and of
  backprop, on the CPython C API alone. It builds wherever a C++17
  compiler is; ``CHAINER_BUILD_COMPILED_CORE=0`` skips it.
- ``chainerx_cpp._kernels``, the CPU kernels, compiled against oneDNN from
  the ``onednn-devel-cpu-gomp`` and ``onednn-cpu-gomp`` wheels and against
  NumPy's C API (its memory handler), which the build requirements in
  pyproject.toml install.
  ``CHAINER_BUILD_CHAINERX_CPP=0`` skips them.

A build that fails warns and leaves the library without that extension:
the Python autograd core and the NumPy paths do the same work.

The sources compile in parallel (``CHAINER_BUILD_JOBS`` workers, by default
one per available core), and each object file is kept in a cache keyed by
everything that goes into it: the source and the kernels' headers, the
compiler and its flags, and the versions of Python, pybind11, oneDNN and
NumPy. A reinstall with unchanged sources only links. The cache is the folder
``CHAINER_BUILD_CACHE`` names, by default ``chainer/chainerx_cpp`` in the
user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``); objects unused
for 30 days are removed, and ``CHAINER_BUILD_CACHE=0`` compiles without it.
"""

import concurrent.futures
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time

import setuptools
from setuptools.command.build_ext import build_ext

_CACHE_LIFETIME_S = 30 * 24 * 3600


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
    return _compiled_core() + _kernels()


def _compiled_core():
    if os.environ.get('CHAINER_BUILD_COMPILED_CORE', '1') == '0':
        return []
    folder = os.path.join('csrc', 'autograd')
    std = '/std:c++17' if sys.platform == 'win32' else '-std=c++17'
    return [setuptools.Extension(
        'chainer._compiled_autograd',
        sorted(glob.glob(os.path.join(folder, '*.cpp'))), language='c++',
        depends=sorted(glob.glob(os.path.join(folder, '*.hpp'))),
        extra_compile_args=[std])]


def _kernels():
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
    import numpy
    from pybind11.setup_helpers import Pybind11Extension
    return [Pybind11Extension(
        'chainerx_cpp._kernels', sources, cxx_std=17,
        depends=sorted(glob.glob(os.path.join('chainerx_cpp', '*.hpp'))),
        include_dirs=[include_dir, 'chainerx_cpp', numpy.get_include()],
        library_dirs=[lib_dir], libraries=['dnnl'],
        extra_compile_args=['-O3', '-fopenmp', '-fno-math-errno',
                            '-fno-trapping-math', '-ffp-contract=off'],
        extra_link_args=['-fopenmp'])]


def _cache_dir():
    """The object cache's folder, or ``None`` when the cache is off."""
    setting = os.environ.get('CHAINER_BUILD_CACHE')
    if setting == '0':
        return None
    if setting:
        return os.path.abspath(setting)
    root = os.environ.get('XDG_CACHE_HOME') or os.path.join(
        os.path.expanduser('~'), '.cache')
    return os.path.join(root, 'chainer', 'chainerx_cpp')


def _jobs():
    setting = os.environ.get('CHAINER_BUILD_JOBS')
    if setting:
        return max(1, int(setting))
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _version(distribution):
    from importlib import metadata
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _compiler_identity(command):
    """What ``command --version`` prints: the compiler's make and version."""
    try:
        return subprocess.run(
            [command[0], '--version'], stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, check=False).stdout
    except OSError:
        return None


class _ObjectCache:
    """Compiles sources in parallel, reusing objects compiled before.

    An object's key hashes the source, the headers it may include (the
    extension's ``depends``), the compiler, its flags and macros, and the
    versions of Python, pybind11, oneDNN and NumPy whose headers it reads
    (their folders differ between isolated builds, their versions do not).
    Objects are written under a temporary name and renamed into place, so
    concurrent builds never see half-written files.
    """

    def __init__(self, folder, compiler, jobs):
        self.folder = folder
        self.compiler = compiler
        self.jobs = jobs
        self.hits = 0
        self.identity = _compiler_identity(compiler.compiler_so)

    def _key(self, source, macros, extra_postargs, depends):
        digest = hashlib.sha256()
        parts = [repr(self.compiler.compiler_so),
                 self.identity,
                 repr(macros), repr(extra_postargs), sys.version,
                 sysconfig.get_paths()['include'],
                 _version('pybind11'), _version('onednn-devel-cpu-gomp'),
                 _version('numpy')]
        for part in parts:
            digest.update(repr(part).encode() + b'\0')
        for path in [source] + sorted(depends):
            digest.update(path.encode() + b'\0')
            with open(path, 'rb') as f:
                digest.update(hashlib.sha256(f.read()).digest())
        return digest.hexdigest()[:32]

    def _compile_one(self, compile_function, source, target, **kwargs):
        scratch = tempfile.mkdtemp(dir=self.folder, prefix='.compiling-')
        try:
            [built] = compile_function([source], output_dir=scratch,
                                       **kwargs)
            os.replace(built, target)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    def compile(self, compile_function, sources, macros=None,
                extra_postargs=None, depends=None, **kwargs):
        """Returns the objects of ``sources``, compiling the missing ones."""
        os.makedirs(self.folder, exist_ok=True)
        targets = []
        missing = []
        for source in sources:
            key = self._key(source, macros, extra_postargs, depends or ())
            name = os.path.splitext(os.path.basename(source))[0]
            target = os.path.join(self.folder, '{}-{}.o'.format(name, key))
            targets.append(target)
            if os.path.exists(target):
                os.utime(target)
                self.hits += 1
            else:
                missing.append((source, target))
        kwargs.update(macros=macros, extra_postargs=extra_postargs,
                      depends=depends)
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
            futures = [pool.submit(self._compile_one, compile_function,
                                   source, target, **kwargs)
                       for source, target in missing]
            for future in futures:
                future.result()
        self._prune()
        return targets

    def _prune(self):
        expiry = time.time() - _CACHE_LIFETIME_S
        for path in glob.glob(os.path.join(self.folder, '*.o')):
            try:
                if os.path.getmtime(path) < expiry:
                    os.remove(path)
            except OSError:  # removed by a concurrent build
                pass


class _OptionalBuildExt(build_ext):
    """Builds each extension, or warns and goes on without it."""

    def run(self):
        try:
            super().run()
        except Exception as e:  # compiler or linker failure
            print('build of the extensions failed, none is used: {}'.format(
                e), file=sys.stderr)

    def build_extensions(self):
        # An extension that fails to build is left out of the outputs (an
        # editable install copies every output into the source tree).
        self._failed = []
        super().build_extensions()
        self.extensions = [
            ext for ext in self.extensions if ext not in self._failed]

    def build_extension(self, ext):
        folder = _cache_dir()
        jobs = _jobs()
        original_compile = self.compiler.compile
        cache = _ObjectCache(
            folder or os.path.join(self.build_temp, 'objects'),
            self.compiler, jobs)

        def compile_cached(sources, output_dir=None, **kwargs):
            return cache.compile(original_compile, sources, **kwargs)

        self.compiler.compile = compile_cached
        start = time.monotonic()
        try:
            super().build_extension(ext)
        except Exception as e:  # compiler or linker failure
            print('{}: build failed, not used: {}'.format(ext.name, e),
                  file=sys.stderr)
            self._failed.append(ext)
            return
        finally:
            self.compiler.compile = original_compile
        print('{}: built in {:.0f} s with {} jobs, {} of {} '
              'objects from the cache{}'.format(
                  ext.name, time.monotonic() - start, jobs, cache.hits,
                  len(ext.sources),
                  ' ({})'.format(folder) if folder else ' (off)'),
              file=sys.stderr)


if __name__ == '__main__':
    setuptools.setup(ext_modules=_extensions(),
                     cmdclass={'build_ext': _OptionalBuildExt})
