import numpy

from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestGumbel(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Gumbel
        self.scipy_dist = stats.gumbel_r
        self.test_targets = {
            'batch_shape', 'entropy', 'event_shape', 'log_prob', 'mean',
            'sample', 'support', 'variance'}
        loc = numpy.asarray(numpy.random.uniform(-1, 1, self.shape),
                            numpy.float32)
        scale = numpy.asarray(numpy.random.uniform(0.5, 2, self.shape),
                              numpy.float32)
        self.params = {'loc': loc, 'scale': scale}
        self.scipy_params = {'loc': loc, 'scale': scale}

    def sample_for_test(self):
        return numpy.random.normal(
            size=self.sample_shape + self.shape).astype(numpy.float32)
