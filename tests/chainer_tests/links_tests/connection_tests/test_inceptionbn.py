import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.links.connection import inceptionbn


def _x(*shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(
        numpy.float32)


def test_children():
    link = inceptionbn.InceptionBN(3, 2, 2, 3, 2, 4, 'max', proj_pool=2)
    names = sorted(name for name, _ in link.namedlinks(skipself=True))
    assert names == sorted([
        '/proj3', '/conv3', '/proj33', '/conv33a', '/conv33b', '/proj3n',
        '/conv3n', '/proj33n', '/conv33an', '/conv33bn', '/conv1',
        '/conv1n', '/poolp', '/poolpn'])
    assert link.conv3.b is None
    assert link.conv33b.W.shape == (4, 4, 3, 3)


def test_forward_max_pool():
    link = inceptionbn.InceptionBN(3, 2, 2, 3, 2, 4, 'max', proj_pool=2)
    x = _x(2, 3, 5, 5)
    y = link(x)
    assert y.shape == (2, 2 + 3 + 4 + 2, 5, 5)
    # In training mode every branch is batch-normalized, then rectified.
    h = y.array
    assert (h >= 0).all()
    numpy.testing.assert_allclose(
        F.relu(F.batch_normalization(
            link.conv1(x), link.conv1n.gamma, link.conv1n.beta)).array,
        h[:, :2], rtol=1e-4, atol=1e-5)


def test_forward_average_pool_strided_without_projection():
    link = inceptionbn.InceptionBN(3, 0, 2, 3, 2, 2, 'avg', stride=2)
    x = _x(2, 3, 5, 5)
    with chainer.using_config('train', False):
        y = link(x)
    assert y.shape == (2, 3 + 2 + 3, 3, 3)
    numpy.testing.assert_allclose(
        y.array[:, 5:], F.average_pooling_2d(x, 3, 2, 1).array, rtol=1e-6)
    assert not hasattr(link, 'conv1')


def test_invalid_pooltype():
    with pytest.raises(NotImplementedError):
        inceptionbn.InceptionBN(3, 0, 2, 3, 2, 2, 'min')


def test_dtype():
    link = inceptionbn.InceptionBN(3, 0, 2, 3, 2, 2, 'avg',
                                   dtype=numpy.float64)
    assert link.conv3n.avg_mean.dtype == numpy.float64
