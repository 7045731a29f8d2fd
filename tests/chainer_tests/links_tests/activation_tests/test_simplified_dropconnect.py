import numpy

import chainer
from chainer.links.activation import simplified_dropconnect as sdc


def _x(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def test_parameters_and_default_initializers():
    numpy.random.seed(0)
    link = sdc.SimplifiedDropconnect(50, 40)
    assert link.W.shape == (40, 50) and link.b.shape == (40,)
    assert (link.b.array == 0).all()
    numpy.testing.assert_allclose(link.W.array.std(), numpy.sqrt(1 / 50),
                                  rtol=0.1)
    assert sdc.SimplifiedDropconnect(3, 2, nobias=True).b is None


def test_no_drop_is_linear():
    link = sdc.SimplifiedDropconnect(3, 2, initial_bias=0.5)
    x = _x(4, 3)
    expected = x.dot(link.W.array.T) + 0.5
    # Sums of three float32 products, in another order than NumPy's dot:
    # a few units in the last place of the largest term.
    numpy.testing.assert_allclose(link(x, train=False).array, expected,
                                  rtol=1e-5, atol=1e-6)


def test_given_mask_scales_kept_weights_and_is_persistent():
    link = sdc.SimplifiedDropconnect(3, 2, ratio=0.5)
    x = _x(4, 3)
    mask = (numpy.random.RandomState(1).rand(4, 2, 3) > 0.5).astype('f')
    y = link(x, mask=mask)
    expected = numpy.einsum('nk,nok->no', x, mask * link.W.array) / 0.5
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
    assert 'mask' in link._persistent
    assert link.mask is mask


def test_lazy_initialization_and_random_drop():
    link = sdc.SimplifiedDropconnect(None, 2, ratio=0.99)
    x = _x(4, 3, 2)
    numpy.random.seed(0)
    with chainer.using_config('train', True):
        y = link(x)
    assert link.W.shape == (2, 6)
    assert y.shape == (4, 2)
    # Nearly all weights are dropped.
    full = x.reshape(4, 6).dot(link.W.array.T) / 0.01
    assert numpy.abs(y.array).sum() < numpy.abs(full).sum() / 5
