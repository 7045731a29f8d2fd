import numpy
import pytest

from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
    'use_loc_scale': [True, False],
}))
@testing.fix_random()
class TestUniform(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Uniform
        self.scipy_dist = stats.uniform
        self.test_targets = {
            'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf',
            'log_prob', 'mean', 'sample', 'stddev', 'support', 'variance'}
        low = numpy.asarray(numpy.random.uniform(-2, 0, self.shape),
                            numpy.float32)
        scale = numpy.asarray(numpy.random.uniform(1, 3, self.shape),
                              numpy.float32)
        if self.use_loc_scale:
            self.params = {'loc': low, 'scale': scale}
        else:
            self.params = {'low': low, 'high': numpy.asarray(low + scale)}
        self.scipy_params = {'loc': low, 'scale': scale}
        self.support = '[low, high]'

    def sample_for_test(self):
        return numpy.random.uniform(
            -3, 3, self.sample_shape + self.shape).astype(numpy.float32)

    def test_params(self):
        assert sorted(self.cpu_dist.params) == sorted(self.params)


@pytest.mark.parametrize('kwargs', [
    {}, {'low': 0.}, {'loc': 0.}, {'low': 0., 'high': 1., 'loc': 0.,
                                   'scale': 1.}])
def test_invalid_parameterisation(kwargs):
    kwargs = {k: numpy.array(v, numpy.float32) for k, v in kwargs.items()}
    with pytest.raises(ValueError):
        distributions.Uniform(**kwargs)
