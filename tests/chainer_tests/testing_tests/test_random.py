import random
import unittest

import numpy
import pytest

from chainer import testing
from chainer.testing import random as testing_random


def _expected_numbers():
    state = numpy.random.get_state()
    numpy.random.seed(100)
    numbers = numpy.random.uniform(size=3)
    numpy.random.set_state(state)
    return numbers


def _expected_python_numbers():
    state = random.getstate()
    random.seed(99)
    numbers = [random.random() for _ in range(3)]
    random.setstate(state)
    return numbers


@testing.fix_random()
def test_function_sees_fixed_numbers():
    numpy.testing.assert_array_equal(
        numpy.random.uniform(size=3), _expected_numbers())
    assert [random.random() for _ in range(3)] == _expected_python_numbers()


def test_function_decorator_restores_state():
    numpy.random.seed(5)
    random.seed(6)
    expected_numpy = numpy.random.uniform(size=2)
    expected_python = random.random()
    numpy.random.seed(5)
    random.seed(6)

    @testing.fix_random()
    def test_inner():
        return numpy.random.uniform()

    test_inner()
    numpy.testing.assert_array_equal(
        numpy.random.uniform(size=2), expected_numpy)
    assert random.random() == expected_python


@testing.fix_random()
class TestUnittestClass(unittest.TestCase):

    def setUp(self):
        self.x = numpy.random.uniform(size=3)

    def test_fixed(self):
        numpy.testing.assert_array_equal(self.x, _expected_numbers())
        assert testing_random._nest_count == 1


@testing.fix_random(
    setup_method='setup_method', teardown_method='teardown_method')
class TestPlainClass:

    def setup_method(self, method):
        self.x = numpy.random.uniform(size=3)

    def test_fixed(self):
        numpy.testing.assert_array_equal(self.x, _expected_numbers())


@testing.fix_random()
@testing.parameterize({'n': 1}, {'n': 2})
class TestParameterizedClass(unittest.TestCase):

    def test_fixed(self):
        numpy.testing.assert_array_equal(
            numpy.random.uniform(size=3), _expected_numbers())


def test_class_stays_a_class():
    assert isinstance(TestUnittestClass, type)
    assert isinstance(TestPlainClass, type)


def test_generate_seed():
    with pytest.raises(AssertionError, match='random is not set up'):
        testing.generate_seed()

    @testing.fix_random()
    def test_seed():
        return testing.generate_seed()

    seed = test_seed()
    assert seed == test_seed()
    assert 0 <= seed < 0xffffffff


def test_failing_setup_does_not_leak():
    @testing.fix_random()
    class Broken(unittest.TestCase):
        def setUp(self):
            raise ValueError('setup failed')

        def test_nothing(self):
            pass

    result = unittest.TestResult()
    Broken('test_nothing').run(result)
    assert len(result.errors) == 1
    assert testing_random._nest_count == 0


def test_nondeterministic(monkeypatch):
    monkeypatch.setenv('CHAINER_TEST_RANDOM_NONDETERMINISTIC', '1')

    @testing.fix_random()
    def test_draw():
        return numpy.random.uniform(size=4)

    assert not numpy.array_equal(test_draw(), test_draw())
