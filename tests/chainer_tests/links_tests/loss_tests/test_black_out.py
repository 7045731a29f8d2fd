import numpy

from chainer import functions as F
from chainer.links.loss import black_out


def _x(*shape, seed=1):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype('f')


def test_loss_matches_original():
    link = black_out.BlackOut(3, [1, 2, 3, 4], 2)
    # As in the original, W starts NaN-filled.
    assert link.W.shape == (4, 3) and numpy.isnan(link.W.array).all()
    link.W.array[...] = _x(4, 3)
    numpy.random.seed(5)
    loss = link(_x(2, 3, seed=2), numpy.array([1, 3], 'i'))
    # Chainer 7.8.1, same seed.
    numpy.testing.assert_allclose(loss.array, 1.820265769958496, rtol=1e-6)


def test_given_samples():
    link = black_out.BlackOut(3, [1, 2, 3, 4], 2)
    link.W.array[...] = _x(4, 3)
    link.sample_data = numpy.array([[0, 2], [1, 2]], numpy.int32)
    x = _x(2, 3, seed=2)
    t = numpy.array([1, 3], 'i')
    expected = F.black_out(x, t, link.W, link.sample_data)
    numpy.testing.assert_array_equal(link(x, t).array, expected.array)


def test_sampler_follows_counts():
    link = black_out.BlackOut(2, [1, 0, 3], 4)
    numpy.random.seed(0)
    samples = link.sampler.sample((10000,))
    freq = numpy.bincount(samples, minlength=3) / 10000
    numpy.testing.assert_allclose(freq, [0.25, 0, 0.75], atol=0.02)
