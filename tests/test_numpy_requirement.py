"""The NumPy that Chainer requires keeps what Chainer code relies on.

Code written for Chainer 7.8.1 turns one-element arrays into Python
numbers with ``float()`` and ``int()``, also when they have dimensions
(a loss of shape ``(1,)``, the value of a one-sample batch). NumPy 2.4
made that a ``TypeError``, so the package requires an older NumPy.
"""

import importlib.metadata
import warnings

import numpy
import pytest
from packaging.requirements import Requirement

import chainer
import chainer.functions as F


def _numpy_requirement():
    for line in importlib.metadata.requires('chainer'):
        requirement = Requirement(line)
        if requirement.name == 'numpy':
            return requirement
    raise AssertionError('chainer does not require numpy')


def test_numpy_requirement_excludes_2_4():
    specifier = _numpy_requirement().specifier
    assert specifier.contains('2.3.5')
    assert specifier.contains('1.26.4')
    assert not specifier.contains('2.4.0')


def test_installed_numpy_is_the_required_one():
    assert _numpy_requirement().specifier.contains(numpy.__version__)


@pytest.mark.parametrize('shape', [(1,), (1, 1)])
def test_one_element_arrays_convert_to_numbers(shape):
    x = chainer.Variable(numpy.full(shape + (3,), 0.5, numpy.float32))
    loss = F.sum(x, axis=-1)
    assert loss.shape == shape
    with warnings.catch_warnings():
        # NumPy 1.25 to 2.3 warn, and give the number.
        warnings.simplefilter('ignore', DeprecationWarning)
        assert float(loss.array) == 1.5
        assert int(loss.array) == 1
