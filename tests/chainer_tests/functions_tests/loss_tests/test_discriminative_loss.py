import itertools

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.loss import discriminative_loss


def _norm(x, axis, norm):
    if norm == 1:
        return numpy.abs(x).sum(axis=axis)
    return numpy.sqrt((x * x).sum(axis=axis))


def _expected(emb, labels, delta_v, delta_d, n_instance, norm, alpha, beta,
              gamma):
    # loops over the images and instances
    emb = emb.astype(numpy.float64)
    batch = len(emb)
    means = numpy.zeros((n_instance, batch, emb.shape[1]))
    l_var = 0.
    for c in range(n_instance):
        mask = labels == c + 1
        var = 0.
        for b in range(batch):
            pixels = emb[b][:, mask[b]]
            means[c, b] = pixels.sum(axis=1) / max(mask[b].sum(), 1)
            dist = _norm(pixels - means[c, b][:, None], 0, norm)
            var += (numpy.maximum(dist - delta_v, 0) ** 2).sum()
        l_var += var / max(mask.sum(), 1)
    l_var /= n_instance
    l_dist = 0.
    pairs = list(itertools.combinations(range(n_instance), 2))
    for a, b in pairs:
        dist = _norm(means[a] - means[b], 1, norm)
        l_dist += (numpy.maximum(2 * delta_d - dist, 0) ** 2).sum()
    l_dist /= max(len(pairs) * batch, 1)
    l_reg = _norm(means, (1, 2), norm).sum() / (n_instance * batch)
    return alpha * l_var, beta * l_dist, gamma * l_reg


@testing.parameterize(*testing.product({
    'dtype': [numpy.float32, numpy.float64],
    'norm': [1, 2],
    'batch': [1, 2],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDiscriminativeLoss(testing.FunctionTestCase):

    n_instance = 3
    delta_v, delta_d = 0.2, 0.8
    alpha, beta, gamma = 1.0, 0.5, 0.01
    # the norms and the hinges bend; redraw the inputs near their kinks
    dodge_nondifferentiable = True

    def setUp(self):
        self.check_forward_options = {'atol': 1e-5, 'rtol': 1e-5}
        self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
        self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
        # instance 3 is absent from the second image
        labels = numpy.random.randint(0, 3, (self.batch, 3, 4))
        labels[0, 0, :2] = 3
        self.labels = labels.astype(numpy.int32)

    def generate_inputs(self):
        emb = numpy.random.uniform(
            -1, 1, (self.batch, self.n_instance, 3, 4))
        return emb.astype(self.dtype),

    def forward(self, inputs, device):
        emb, = inputs
        return F.discriminative_margin_based_clustering_loss(
            emb, device.send(self.labels), self.delta_v, self.delta_d,
            self.n_instance, self.norm, self.alpha, self.beta, self.gamma)

    def forward_expected(self, inputs):
        emb, = inputs
        return tuple(numpy.asarray(v, self.dtype) for v in _expected(
            emb, self.labels, self.delta_v, self.delta_d, self.n_instance,
            self.norm, self.alpha, self.beta, self.gamma))


def test_docstring_values():
    emb = numpy.zeros((1, 2, 2, 2), numpy.float32)
    emb[0, 0, :, 1] = 1
    labels = numpy.array([[[1, 2], [1, 2]]], numpy.int32)
    loss = discriminative_loss.DiscriminativeMarginBasedClusteringLoss(
        0.5, 1.5, 2)
    l_var, l_dist, l_reg = loss(chainer.Variable(emb), labels)
    assert float(l_var.array) == 0
    assert float(l_dist.array) == 4
    testing.assert_allclose(l_reg.array, 0.0005)


def test_l2_norm_of_zero_vectors_has_finite_gradient():
    emb = chainer.Variable(numpy.zeros((1, 2, 2, 2), numpy.float32))
    labels = numpy.array([[[1, 0], [0, 0]]], numpy.int32)
    losses = F.discriminative_margin_based_clustering_loss(
        emb, labels, 0.5, 1.5, 2, norm=2)
    F.sum(F.stack(losses)).backward()
    assert numpy.isfinite(emb.grad).all()


def test_invalid_arguments():
    emb = numpy.zeros((1, 2, 2, 2), numpy.float32)
    labels = numpy.zeros((1, 2, 2), numpy.int32)
    with pytest.raises(ValueError, match='norm'):
        F.discriminative_margin_based_clustering_loss(
            emb, labels, 0.5, 1.5, 2, norm=3)
    with pytest.raises(ValueError, match='positive'):
        F.discriminative_margin_based_clustering_loss(
            emb, labels, 0.5, 1.5, 0)
    with pytest.raises(ValueError, match='max_embedding_dim'):
        F.discriminative_margin_based_clustering_loss(
            emb, labels, 0.5, 1.5, 3)
