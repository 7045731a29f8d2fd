import numpy

from chainer import functions as F
from chainer.links.loss import negative_sampling


def _x(*shape, seed=1):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype('f')


def test_matches_original():
    link = negative_sampling.NegativeSampling(3, [1, 2, 3, 4, 5], 2)
    assert link.W.shape == (5, 3) and (link.W.array == 0).all()
    link.W.array[...] = _x(5, 3)
    x = _x(3, 3, seed=2)
    t = numpy.array([1, 3, 0], 'i')
    numpy.random.seed(5)
    loss, samples = link(x, t, reduce='no', return_samples=True)
    # Chainer 7.8.1, same seed.
    numpy.testing.assert_allclose(loss.array, [
        1.8784621953964233, 2.1876883506774902, 1.9277005195617676],
        rtol=1e-6)
    numpy.testing.assert_array_equal(
        samples, [[1, 4, 1], [3, 2, 3], [0, 3, 1]])
    numpy.random.seed(5)
    numpy.testing.assert_allclose(link(x, t).array, 5.993851184844971,
                                  rtol=1e-6)


def test_forward_is_the_function_with_the_sampler():
    link = negative_sampling.NegativeSampling(3, [4, 1, 2], 3, power=0.5)
    link.W.array[...] = _x(3, 3)
    x = _x(2, 3, seed=2)
    t = numpy.array([0, 2], 'i')
    numpy.random.seed(1)
    y = link(x, t)
    numpy.random.seed(1)
    expected = F.negative_sampling(x, t, link.W, link.sampler.sample, 3)
    numpy.testing.assert_array_equal(y.array, expected.array)


def test_sampling_weights_are_powered_counts():
    link = negative_sampling.NegativeSampling(2, [1, 16], 1, power=0.5)
    numpy.random.seed(0)
    freq = numpy.bincount(link.sampler.sample((20000,)), minlength=2)
    numpy.testing.assert_allclose(freq / 20000, [0.2, 0.8], atol=0.02)
