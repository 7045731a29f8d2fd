"""A variational autoencoder built on the distributions trains on MNIST.

The model is the one of Chainer's VAE example (a Normal posterior with
``log_scale``, a Bernoulli decoder given by logits, both made
:class:`~chainer.distributions.Independent`, and the KL divergence to a
standard Normal prior), trained on binarised images of the real MNIST
test set, which lies beside the checkout in ../shared/data/mnist.
"""

import gzip
import pathlib

import numpy
import pytest

import chainer
import chainer.distributions as D
import chainer.functions as F
import chainer.links as L
from chainer import testing

MNIST_IMAGES = (pathlib.Path(__file__).resolve().parents[3].parent
                / 'shared' / 'data' / 'mnist' / 't10k-images-idx3-ubyte.gz')

# Losses of the same run under Chainer 7.8.1: iterations 1, 2, 3 and 60.
ORIGINAL_LOSSES = [589.2014770507812, 574.5228881835938, 563.0912475585938,
                   211.1071014404297]


class Encoder(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.hidden = L.Linear(784, 200)
            self.mu = L.Linear(200, 20)
            self.ln_sigma = L.Linear(200, 20)

    def forward(self, x):
        h = F.tanh(self.hidden(x))
        return D.Independent(
            D.Normal(loc=self.mu(h), log_scale=self.ln_sigma(h)),
            reinterpreted_batch_ndims=1)


class Decoder(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.hidden = L.Linear(20, 200)
            self.output = L.Linear(200, 784)

    def forward(self, z):
        h = F.tanh(self.hidden(z, n_batch_axes=2))
        return D.Independent(
            D.Bernoulli(logit=self.output(h, n_batch_axes=2)),
            reinterpreted_batch_ndims=1)


def _prior():
    return D.Independent(
        D.Normal(numpy.zeros(20, numpy.float32),
                 scale=numpy.ones(20, numpy.float32)),
        reinterpreted_batch_ndims=1)


@pytest.fixture(scope='module')
def images():
    if not MNIST_IMAGES.exists():
        pytest.skip('the real MNIST test set is not at {} (it is there in '
                    'CI, beside the checkout)'.format(MNIST_IMAGES.parent))
    with gzip.open(MNIST_IMAGES) as f:
        pixels = numpy.frombuffer(f.read(), numpy.uint8, offset=16)
    return (pixels.reshape(-1, 784) > 127).astype(numpy.float32)


def test_vae_loss_falls_as_in_chainer(images):
    numpy.random.seed(0)
    encoder, decoder = Encoder(), Decoder()
    model = chainer.ChainList(encoder, decoder)
    optimizer = chainer.optimizers.Adam(1e-3)
    optimizer.setup(model)
    losses = []
    for _ in range(60):
        x = images[numpy.random.randint(0, len(images), 100)]
        q_z = encoder(x)
        p_x = decoder(q_z.sample(1))
        reconstruction = F.mean(
            p_x.log_prob(F.broadcast_to(x[None], (1,) + x.shape)))
        kl = F.mean(chainer.kl_divergence(q_z, _prior()))
        loss = kl - reconstruction
        model.cleargrads()
        loss.backward()
        optimizer.update()
        losses.append(float(loss.array))
    assert numpy.mean(losses[-10:]) < 0.5 * numpy.mean(losses[:10])
    testing.assert_allclose(losses[:3] + losses[-1:], ORIGINAL_LOSSES,
                            rtol=1e-4)
