import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.loss import negative_sampling
from chainer.utils import type_check


def _expected(x, t, W, samples, reduce):
    x, W = x.astype(numpy.float64), W.astype(numpy.float64)
    losses = numpy.zeros(len(x))
    for i in range(len(x)):
        if t[i] == -1:
            continue
        wx = W[samples[i]].dot(x[i])
        wx[0] *= -1
        losses[i] = numpy.log1p(numpy.exp(wx)).sum()
    if reduce == 'sum':
        return numpy.asarray(losses.sum())
    return losses


class _FixedSampler:

    def __init__(self, samples):
        self.samples = samples

    def __call__(self, shape):
        assert shape == self.samples.shape
        return self.samples.copy()


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['sum', 'no'],
    'ignore': [False, True],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestNegativeSampling(testing.FunctionTestCase):

    batch, n_in, n_vocab, sample_size = 4, 3, 5, 3

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
        self.t = numpy.random.randint(
            0, self.n_vocab, self.batch).astype(numpy.int32)
        if self.ignore:
            self.t[1] = -1
        # duplicated samples make gradients of W accumulate
        samples = numpy.random.randint(
            0, self.n_vocab, (self.batch, self.sample_size + 1))
        samples[:, 2] = samples[:, 1]
        self.samples = samples.astype(numpy.int32)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (self.batch, self.n_in))
        W = numpy.random.uniform(-1, 1, (self.n_vocab, self.n_in))
        return x.astype(self.dtype), W.astype(self.dtype)

    def forward(self, inputs, device):
        x, W = inputs
        sampler = _FixedSampler(device.send(self.samples))
        return F.negative_sampling(
            x, device.send(self.t), W, sampler, self.sample_size,
            reduce=self.reduce),

    def forward_expected(self, inputs):
        x, W = inputs
        samples = self.samples.copy()
        samples[:, 0] = self.t
        loss = _expected(x, self.t, W, samples, self.reduce)
        return loss.astype(self.dtype),


def test_return_samples_and_docstring_values():
    x = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    W = chainer.Variable(numpy.ones((5, 3), numpy.float32))
    t = numpy.array([0, 4], numpy.int32)
    loss, samples = F.negative_sampling(
        x, t, W, lambda shape: numpy.ones(shape, numpy.int32), 2,
        return_samples=True)
    assert type(loss.creator) is negative_sampling.NegativeSamplingFunction
    testing.assert_allclose(loss.array, 6 * numpy.log(2), rtol=1e-6)
    numpy.testing.assert_array_equal(samples, [[0, 1, 1], [4, 1, 1]])
    loss.backward()
    # every sampled row of W gets the gradient of its examples
    assert x.grad.shape == (2, 3) and W.grad.shape == (5, 3)
    numpy.testing.assert_array_equal(W.grad[[2, 3]], 0)


def test_ignored_examples_get_no_gradient():
    rng = numpy.random.RandomState(0)
    x = chainer.Variable(rng.randn(3, 2).astype(numpy.float32))
    t = numpy.array([1, -1, 0], numpy.int32)
    loss = F.negative_sampling(
        x, t, rng.randn(4, 2).astype(numpy.float32),
        lambda shape: numpy.full(shape, 2, numpy.int32), 1, reduce='no')
    assert loss.array[1] == 0
    F.sum(loss).backward()
    numpy.testing.assert_array_equal(x.grad[1], 0)


def test_invalid_arguments():
    x = numpy.zeros((2, 3), numpy.float32)
    W = numpy.zeros((5, 3), numpy.float32)
    t = numpy.zeros(2, numpy.int32)

    def sampler(shape):
        return numpy.zeros(shape, numpy.int32)
    with pytest.raises(ValueError, match='reduce'):
        F.negative_sampling(x, t, W, sampler, 2, reduce='mean')
    with pytest.raises(TypeError):
        F.negative_sampling(x, t, W, sampler, 2, return_sample=True)
    with pytest.raises(type_check.InvalidType):
        F.negative_sampling(x, t.astype(numpy.int64), W, sampler, 2)
    with pytest.raises(type_check.InvalidType):
        F.negative_sampling(x, t, W[:, :2], sampler, 2)
    with pytest.raises(type_check.InvalidType):
        F.negative_sampling(x, t, W.astype(numpy.float64), sampler, 2)


def _sampler_of(word):
    def sampler(shape):
        return numpy.full(shape, word, numpy.int32)
    return sampler


@pytest.mark.parametrize('label', [5, -6])
@pytest.mark.parametrize('reduce', ['sum', 'no'])
def test_word_beyond_W_raises_index_error(label, reduce):
    x = numpy.zeros((2, 3), numpy.float32)
    W = numpy.zeros((5, 3), numpy.float32)
    t = numpy.array([0, label], numpy.int32)
    message = 'index %d is out of bounds for axis 0 with size 5' % label
    with pytest.raises(IndexError, match=message):
        F.negative_sampling(x, t, W, _sampler_of(1), 2, reduce=reduce)


@pytest.mark.parametrize('reduce', ['sum', 'no'])
def test_negative_label_other_than_ignore_label_raises(reduce):
    # -2 read the last word of W silently.
    x = numpy.zeros((2, 3), numpy.float32)
    W = numpy.zeros((5, 3), numpy.float32)
    t = numpy.array([-2, 1], numpy.int32)
    with pytest.raises(ValueError, match='or t == -1, but -2 is given'):
        F.negative_sampling(x, t, W, _sampler_of(1), 2, reduce=reduce)


def test_samples_out_of_the_words_raise():
    x = numpy.zeros((2, 3), numpy.float32)
    W = numpy.zeros((5, 3), numpy.float32)
    t = numpy.array([0, -1], numpy.int32)
    with pytest.raises(ValueError, match=r'in \[0, 5\), but it drew -2'):
        F.negative_sampling(x, t, W, _sampler_of(-2), 2)
    with pytest.raises(IndexError, match='index 5 is out of bounds'):
        F.negative_sampling(x, t, W, _sampler_of(5), 2)
