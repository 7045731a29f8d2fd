"""Checks of the environment made when ``chainer`` is imported.

As Chainer 7.8, :func:`check` warns when an optional dependency listed in
``chainer._version._optional_dependencies`` is installed in a version
Chainer does not support (unless the environment variable
``CHAINER_WARN_VERSION_MISMATCH`` is set to something other than ``1``),
and when more than one distribution of it is installed (``cupy-cuda12x``
beside ``cupy-cuda13x``, say).
"""

import importlib.metadata
import os
import warnings

from chainer import _version

_VERSION_MISMATCH = '''
--------------------------------------------------------------------------------
{name} ({pkg}) version {version} may not be compatible with this version of Chainer.
Please consider installing the supported version by running:
  $ pip install '{requirement}'

See the following page for more details:
  {help}
--------------------------------------------------------------------------------
'''  # NOQA

_MULTIPLE_INSTALLATIONS = '''
--------------------------------------------------------------------------------
Multiple installations of {name} package has been detected.
You should select only one package from from {pkgs}.
Follow these steps to resolve this issue:
  1. `pip list` to list {name} packages installed
  2. `pip uninstall <package name>` to uninstall all {name} packages
  3. `pip install <package name>` to install the proper one
--------------------------------------------------------------------------------
'''  # NOQA


def _supports(specifier, version):
    # Whether the version is within the specifier; True when it cannot be
    # told (the ``packaging`` distribution is missing, or the version is
    # not a PEP 440 one).
    try:
        from packaging import specifiers
        return specifiers.SpecifierSet(specifier).contains(
            version, prereleases=True)
    except Exception:
        return True


def _check_optional_dependencies():
    check_version = os.environ.get('CHAINER_WARN_VERSION_MISMATCH',
                                   '1') == '1'
    for dep in _version._optional_dependencies:
        name = dep['name']
        pkgs = dep['packages']
        spec = dep['specifier']
        installed = False
        for pkg in pkgs:
            try:
                version = importlib.metadata.version(pkg)
            except importlib.metadata.PackageNotFoundError:
                continue
            if check_version and not _supports(spec, version):
                warnings.warn(_VERSION_MISMATCH.format(
                    name=name, pkg=pkg, version=version,
                    requirement=pkg + spec, help=dep['help']))
            if installed:
                warnings.warn(_MULTIPLE_INSTALLATIONS.format(
                    name=name, pkgs=pkgs))
            installed = True


def check():
    """Warns about the optional dependencies, as ``import chainer`` does."""
    _check_optional_dependencies()
