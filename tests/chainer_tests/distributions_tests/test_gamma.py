import numpy

import chainer
from chainer import distributions
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'is_variable': [True, False],
    'sample_shape': [(2,), ()],
}))
@testing.fix_random()
class TestGamma(testing.distribution_unittest):

    def setUp_configure(self):
        from scipy import stats
        self.dist = distributions.Gamma
        self.scipy_dist = stats.gamma
        self.test_targets = {
            'batch_shape', 'entropy', 'event_shape', 'log_prob', 'mean',
            'sample', 'support', 'variance'}
        k = numpy.asarray(numpy.random.uniform(1, 5, self.shape),
                          numpy.float32)
        theta = numpy.asarray(numpy.random.uniform(0.5, 2, self.shape),
                              numpy.float32)
        self.params = {'k': k, 'theta': theta}
        self.scipy_params = {'a': k, 'scale': theta}
        self.support = 'positive'

    def sample_for_test(self):
        return numpy.random.uniform(
            0.1, 5, self.sample_shape + self.shape).astype(numpy.float32)


def test_sample_is_differentiable_in_theta():
    theta = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    numpy.random.seed(0)
    y = distributions.Gamma(numpy.array([2., 3.], numpy.float32),
                            theta).sample(5)
    chainer.functions.sum(y).backward()
    numpy.random.seed(0)
    eps = numpy.random.gamma(numpy.array([2., 3.]), size=(5, 2))
    testing.assert_allclose(theta.grad, eps.sum(axis=0), rtol=1e-5)
