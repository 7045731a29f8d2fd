import numpy

from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestGeometric(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Geometric
        self.scipy_dist = stats.geom
        self.test_targets = {
            'batch_shape', 'event_shape', 'log_prob', 'mean', 'sample',
            'support', 'variance'}
        p = numpy.asarray(numpy.random.uniform(0.3, 0.9, self.shape),
                          numpy.float32)
        self.params = {'p': p}
        self.scipy_params = {'p': p}
        self.support = 'positive integer'
        self.continuous = False

    def sample_for_test(self):
        return numpy.random.randint(
            1, 10, self.sample_shape + self.shape).astype(numpy.float32)
