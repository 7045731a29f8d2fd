"""The test case base of distributions, ``testing.distribution_unittest``.

The implementation lives in :mod:`chainer.testing._distribution_test`, as
in Chainer 7.8; this is the module users import.
"""

from chainer.testing._distribution_test import distribution_unittest  # NOQA
