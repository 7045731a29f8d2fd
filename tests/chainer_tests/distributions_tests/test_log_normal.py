import numpy

from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestLogNormal(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.LogNormal
        self.scipy_dist = stats.lognorm
        self.test_targets = {
            'batch_shape', 'entropy', 'event_shape', 'log_prob', 'mean',
            'sample', 'support', 'variance'}
        mu = numpy.asarray(numpy.random.uniform(-1, 0, self.shape),
                           numpy.float32)
        sigma = numpy.asarray(numpy.random.uniform(0.1, 0.5, self.shape),
                              numpy.float32)
        self.params = {'mu': mu, 'sigma': sigma}
        self.scipy_params = {'s': sigma, 'scale': numpy.exp(mu)}
        self.support = 'positive'

    def sample_for_test(self):
        return numpy.random.uniform(
            0.1, 5, self.sample_shape + self.shape).astype(numpy.float32)
