import unittest

import numpy
import pytest

from chainer import distributions
from chainer import testing


class _NormalCase(testing.distribution_unittest):

    # Run by the tests below, not collected by pytest.
    __test__ = False
    shape = (2,)
    sample_shape = ()
    is_variable = False
    targets = {'batch_shape', 'mean'}

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Normal
        self.scipy_dist = stats.norm
        self.test_targets = set(self.targets)
        loc = numpy.array([0., 1.], numpy.float32)
        scale = numpy.array([1., 2.], numpy.float32)
        self.params = {'loc': loc, 'scale': scale}
        self.scipy_params = {'loc': loc, 'scale': scale}


def _run(case, name):
    result = unittest.TestResult()
    case(name).run(result)
    return result


def test_targets_run_and_others_skip():
    result = _run(_NormalCase, 'test_mean_cpu')
    assert result.wasSuccessful() and not result.skipped
    result = _run(_NormalCase, 'test_entropy_cpu')
    assert len(result.skipped) == 1


def test_unknown_target():
    class Case(_NormalCase):
        targets = {'mean', 'median'}

    result = _run(Case, 'test_mean_cpu')
    assert len(result.errors) == 1
    assert 'invalid target' in result.errors[0][1]


def test_wrong_value_fails():
    class Case(_NormalCase):
        def setUp_configure(self):
            super().setUp_configure()
            self.scipy_params = {'loc': self.params['loc'] + 1,
                                 'scale': self.params['scale']}

    result = _run(Case, 'test_mean_cpu')
    assert len(result.failures) == 1


def test_overridden_check_is_used():
    calls = []

    class Case(_NormalCase):
        def check_mean(self, is_gpu):
            calls.append(is_gpu)

    assert _run(Case, 'test_mean_cpu').wasSuccessful()
    assert calls == [False]


@pytest.mark.parametrize('name', ['test_mean_cpu', 'test_variance_gpu'])
def test_names(name):
    assert getattr(testing.distribution_unittest, name).__name__ == name
