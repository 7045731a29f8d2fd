"""The test case base of distributions, ``testing.distribution_unittest``.

The implementation lives in :mod:`chainer.testing._distribution_test`, as
in Chainer 7.8; this is the module users import. It needs pytest: without
it, ``import chainer`` still works and a test derived from the class fails
with a message that says so.
"""

import unittest

try:
    import pytest  # NOQA
    _error = None
except ImportError as e:
    _error = e

if _error is None:
    from chainer.testing._distribution_test import distribution_unittest  # NOQA
else:
    class distribution_unittest(unittest.TestCase):
        """Stands in for the test case base when pytest is missing."""

        def test_dummy(self):
            raise RuntimeError(
                'chainer.testing.distribution_unittest is not available: '
                'it needs pytest ({}).'.format(_error))
