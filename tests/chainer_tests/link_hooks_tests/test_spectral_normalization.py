import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.link_hooks import spectral_normalization as sn
from chainer.links.connection import convolution_2d
from chainer.links.connection import deconvolution_2d
from chainer.links.connection import linear


W0 = numpy.array([[1., 2., 0.5], [-1., 0.5, 3.]], numpy.float32)
X0 = numpy.array([[1., -1., 2.], [0.5, 0.25, -1.]], numpy.float32)


def test_matches_original():
    # Numbers of Chainer 7.8.1 with numpy.random.seed(0).
    link = linear.Linear(3, 2, initialW=W0)
    numpy.random.seed(0)
    link.add_hook(sn.SpectralNormalization())
    numpy.testing.assert_array_equal(link.W_u, numpy.array(
        [1.764052391052246, 0.40015721321105957], numpy.float32))
    assert 'W_u' in link._persistent
    y = link(X0)
    numpy.testing.assert_allclose(y.array, [
        [0.0, 1.6882495880126953],
        [0.18758328258991241, -1.2661871910095215]], rtol=1e-6, atol=1e-7)
    numpy.testing.assert_allclose(
        link.W_u, [0.8252936601638794, 0.564703106880188], rtol=1e-6)
    link.cleargrads()
    F.sum(y * y).backward()
    numpy.testing.assert_allclose(link.W.grad, [
        [-0.7752857804298401, -2.2764110565185547, -1.431968331336975],
        [0.2130792737007141, -3.085965156555176, 2.6000514030456543]],
        rtol=1e-5)
    # The link gets its own weight back after the call.
    assert isinstance(link.W, chainer.Parameter)
    numpy.testing.assert_array_equal(link.W.array, W0)


def test_gamma_and_factor_match_original():
    link = linear.Linear(3, 2, initialW=W0)
    numpy.random.seed(0)
    link.add_hook(sn.SpectralNormalization(
        use_gamma=True, n_power_iteration=5, factor=2.0))
    numpy.testing.assert_allclose(link.gamma.array, 3.2658040523529053,
                                  rtol=1e-6)
    assert numpy.linalg.svd(W0)[1][0] == pytest.approx(
        float(link.gamma.array), rel=1e-6)
    y = link(X0)
    numpy.testing.assert_allclose(y.array, [
        [0.0, 9.00687026977539],
        [1.0007634162902832, -6.755153179168701]], rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(
        link.W_u, [0.3010476529598236, 0.9536088109016418], rtol=1e-6)


def test_normalized_weight_has_unit_spectral_norm():
    numpy.random.seed(1)
    link = linear.Linear(6, 4)
    link.add_hook(sn.SpectralNormalization(n_power_iteration=50))
    x = numpy.eye(6, dtype=numpy.float32)
    y = link(x)
    # Rows of y are the columns of the normalized weight.
    assert numpy.linalg.svd(y.array)[1][0] == pytest.approx(1, rel=1e-4)


def test_test_mode_keeps_vector():
    link = linear.Linear(3, 2, initialW=W0)
    link.add_hook(sn.SpectralNormalization())
    link(X0)
    u = link.W_u.copy()
    with chainer.using_config('train', False):
        link(X0)
    numpy.testing.assert_array_equal(link.W_u, u)


def test_lazy_link_and_axis():
    link = convolution_2d.Convolution2D(None, 4, 3)
    hook = sn.SpectralNormalization()
    link.add_hook(hook)
    assert not hasattr(link, 'W_u')
    link(numpy.ones((1, 2, 4, 4), numpy.float32))
    assert link.W.shape == (4, 2, 3, 3) and link.W_u.shape == (4,)
    link = deconvolution_2d.Deconvolution2D(2, 3, 3)
    hook = sn.SpectralNormalization(name='sn')
    link.add_hook(hook)
    assert hook.axis == 1 and link.W_u.shape == (3,)
    assert 'sn' in link.local_link_hooks


def test_delete_hook_removes_vector_and_gamma():
    link = linear.Linear(3, 2)
    link.add_hook(sn.SpectralNormalization(use_gamma=True))
    link.delete_hook('SpectralNormalization')
    assert not hasattr(link, 'W_u')
    assert not hasattr(link, 'gamma')
    assert 'gamma' not in link._params


def test_errors():
    with pytest.raises(ValueError, match='does not exist'):
        linear.Linear(3, 2).add_hook(
            sn.SpectralNormalization(weight_name='V'))
    with pytest.raises(NotImplementedError):
        with sn.SpectralNormalization():
            pass
    with pytest.raises(AssertionError):
        sn.SpectralNormalization(n_power_iteration=0)
