"""Small helpers for test suites: requirement-based skips, warnings, mocks.
"""

import contextlib
import importlib.metadata
import sys
import unittest
import unittest.mock
import warnings


def _requirements_satisfied(requirements):
    # True if every PEP 508 requirement string is met by the installed
    # distributions.
    try:
        from packaging.requirements import Requirement
    except ImportError as e:
        raise RuntimeError(
            'Checking requirements needs the "packaging" package: '
            'pip install packaging') from e

    for requirement in requirements:
        req = Requirement(requirement)
        try:
            version = importlib.metadata.version(req.name)
        except importlib.metadata.PackageNotFoundError:
            return False
        if not req.specifier.contains(version, prereleases=True):
            return False
    return True


def with_requires(*requirements):
    """Skips a test unless every given requirement holds.

    Args:
        *requirements (str): Requirement strings such as
            ``'numpy>=1.10'``.

    Returns:
        callable: A :func:`unittest.skipIf` decorator.

    .. admonition:: Example

       >>> import unittest
       >>> from chainer import testing
       >>> class Test(unittest.TestCase):
       ...     @testing.with_requires('numpy>=1.10')
       ...     def test_for_numpy_1_10(self):
       ...         pass
    """
    skip = not _requirements_satisfied(requirements)
    msg = 'requires: {}'.format(','.join(requirements))
    return unittest.skipIf(skip, msg)


def without_requires(*requirements):
    """Skips a test when all the given requirements hold.

    Args:
        *requirements (str): Requirement strings such as
            ``'numpy>=1.10'``.

    Returns:
        callable: A :func:`unittest.skipIf` decorator.
    """
    skip = _requirements_satisfied(requirements)
    msg = 'requires: {}'.format(','.join(requirements))
    return unittest.skipIf(skip, msg)


@contextlib.contextmanager
def assert_warns(expected):
    """Asserts that the block issues a warning of the class ``expected``.

    Args:
        expected (type): The warning class.

    Raises:
        AssertionError: If no such warning is issued.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        yield
    if not any(isinstance(w.message, expected) for w in caught):
        name = getattr(expected, '__name__', str(expected))
        raise AssertionError('%s not triggerred' % name)


def _import_object_from_name(fullname):
    # Finds an object by its dotted name, starting from a loaded module.
    names = fullname.split('.')
    obj = sys.modules.get(names[0])
    if obj is None:
        raise RuntimeError('Can\'t import {}'.format(names[0]))
    for i, name in enumerate(names[1:]):
        obj = getattr(obj, name)
        if obj is None:
            raise RuntimeError(
                'Can\'t find object {}'.format('.'.join(names[:i + 1])))
    return obj


def patch(target, *args, **kwargs):
    """:func:`unittest.mock.patch` that wraps the patched object.

    Calls go through to the patched object (or to ``wraps`` if given)
    while being recorded by the mock. ``wraps`` cannot be an unbound
    method.

    Args:
        target (str): Full dotted name of the object to patch.
        *args: Passed to :func:`unittest.mock.patch`.
        **kwargs: Passed to :func:`unittest.mock.patch`; ``wraps`` defaults
            to the object named by ``target``.

    Returns:
        The patcher.
    """
    if 'wraps' in kwargs:
        wraps = kwargs.pop('wraps')
    else:
        wraps = _import_object_from_name(target)
    return unittest.mock.patch(target, *args, wraps=wraps, **kwargs)
