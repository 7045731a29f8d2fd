"""Testing utilities for Chainer functions, links and user code.

Parameterized test classes (:func:`parameterize`, :func:`product`),
backend injection (:func:`inject_backend_tests`, :class:`BackendConfig`),
the function and link test harnesses (:class:`FunctionTestCase`,
:class:`LinkTestCase`, :class:`LinkInitializersTestCase`), array assertions
(:func:`assert_allclose`), fixed random seeds (:func:`fix_random`) and
smaller helpers. :mod:`chainer.testing.attr` holds the pytest marks and
:mod:`chainer.testing.condition` the decorators for flaky tests.
"""

from chainer.testing.array import assert_allclose  # NOQA
from chainer.testing.backend import BackendConfig  # NOQA
from chainer.testing.backend import inject_backend_tests  # NOQA
from chainer.testing.distribution_test import distribution_unittest  # NOQA
from chainer.testing.function_link import FunctionTestCase  # NOQA
from chainer.testing.function_link import FunctionTestError  # NOQA
from chainer.testing.function_link import InitializerArgument  # NOQA
from chainer.testing.function_link import LinkInitializersTestCase  # NOQA
from chainer.testing.function_link import LinkTestCase  # NOQA
from chainer.testing.function_link import LinkTestError  # NOQA
from chainer.testing.helper import assert_warns  # NOQA
from chainer.testing.helper import patch  # NOQA
from chainer.testing.helper import with_requires  # NOQA
from chainer.testing.helper import without_requires  # NOQA
from chainer.testing.matrix import generate_matrix  # NOQA
from chainer.testing.parameterized import from_pytest_parameterize  # NOQA
from chainer.testing.parameterized import parameterize  # NOQA
from chainer.testing.parameterized import parameterize_pytest  # NOQA
from chainer.testing.parameterized import product  # NOQA
from chainer.testing.parameterized import product_dict  # NOQA
from chainer.testing.random import fix_random  # NOQA
from chainer.testing.random import generate_seed  # NOQA
from chainer.testing.serializer import save_and_load  # NOQA
from chainer.testing.serializer import save_and_load_hdf5  # NOQA
from chainer.testing.serializer import save_and_load_npz  # NOQA
from chainer.testing.training import get_trainer_with_mock_updater  # NOQA
from chainer.testing.unary_math_function_test import unary_math_function_unittest  # NOQA


def run_module(name, file):
    """Runs the tests of a file with pytest when it is the main script.

    Put ``testing.run_module(__name__, __file__)`` at the end of a test
    file to make ``python test_file.py`` run it.

    Args:
        name: ``__name__`` of the file.
        file: ``__file__`` of the file.
    """
    if name == '__main__':
        import pytest
        pytest.main([file, '-vvs', '-x', '--pdb'])
