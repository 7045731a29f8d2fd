import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing


def _expected(x, t, W, samples, reduce):
    x, W = x.astype(numpy.float64), W.astype(numpy.float64)
    losses = []
    for i in range(len(x)):
        labels = [t[i]] + list(samples[i])
        scores = W[labels].dot(x[i])
        p = numpy.exp(scores - numpy.log(numpy.exp(scores).sum()))
        losses.append(-numpy.log(p[0]) - numpy.log(1 - p[1:]).sum())
    losses = numpy.array(losses)
    if reduce == 'mean':
        return numpy.asarray(losses.mean())
    return losses


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['mean', 'no'],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBlackOut(testing.FunctionTestCase):

    batch, n_in, n_vocab, n_sample = 4, 3, 6, 2

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
        self.samples = numpy.random.randint(
            0, self.n_vocab, (self.batch, self.n_sample)).astype(numpy.int32)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (self.batch, self.n_in))
        W = numpy.random.uniform(-1, 1, (self.n_vocab, self.n_in))
        return x.astype(self.dtype), W.astype(self.dtype)

    def forward(self, inputs, device):
        x, W = inputs
        return F.black_out(x, device.send(self.t), W,
                           device.send(self.samples), reduce=self.reduce),

    def forward_expected(self, inputs):
        x, W = inputs
        loss = _expected(x, self.t, W, self.samples, self.reduce)
        return loss.astype(self.dtype),


def test_docstring_value():
    x = numpy.ones((1, 2), numpy.float32)
    W = chainer.Variable(numpy.zeros((3, 2), numpy.float32))
    t = chainer.Variable(numpy.array([0], numpy.int32))
    loss = F.black_out(x, t, W, numpy.array([[1, 2]], numpy.int32))
    testing.assert_allclose(
        loss.array, numpy.log(3) - 2 * numpy.log(2 / 3), rtol=1e-6)
    loss.backward()
    assert W.grad.shape == (3, 2)


def test_invalid_reduce():
    with pytest.raises(ValueError, match='reduce'):
        F.black_out(numpy.ones((1, 2), numpy.float32),
                    numpy.array([0], numpy.int32),
                    numpy.zeros((3, 2), numpy.float32),
                    numpy.array([[1, 2]], numpy.int32), reduce='sum')


@pytest.mark.parametrize('t, samples, label', [
    ([0, 5], [[1, 2], [2, 3]], 5),
    ([0, 1], [[1, 9], [2, 3]], 9),
    ([0, -6], [[1, 2], [2, 3]], -6),
    ([0, 5], [[1, -1], [2, 3]], 5),
], ids=['t', 'samples', 't-below', 'mixed'])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_label_beyond_W_raises_index_error(t, samples, label, reduce):
    x = numpy.zeros((2, 3), numpy.float32)
    W = numpy.zeros((5, 3), numpy.float32)
    message = 'index %d is out of bounds for axis 0 with size 5' % label
    with pytest.raises(IndexError, match=message):
        F.black_out(x, numpy.array(t, numpy.int32), W,
                    numpy.array(samples, numpy.int32), reduce=reduce)


@pytest.mark.parametrize('t, samples, label', [
    ([0, -1], [[1, 2], [2, 3]], -1),
    ([0, 1], [[1, -2], [2, 3]], -2),
], ids=['t', 'samples'])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_negative_label_raises(t, samples, label, reduce):
    # Such a label read a word from the end of W silently.
    x = numpy.zeros((2, 3), numpy.float32)
    W = numpy.zeros((5, 3), numpy.float32)
    with pytest.raises(ValueError, match=r'\[0, 5\), but %d' % label):
        F.black_out(x, numpy.array(t, numpy.int32), W,
                    numpy.array(samples, numpy.int32), reduce=reduce)


@pytest.mark.parametrize('t_shape, samples_shape', [
    ((3,), (1, 2)), ((1,), (3, 2)), ((3,), (3,)), ((3, 1), (3, 2)),
])
def test_t_and_samples_of_other_batch_shapes_raise(t_shape, samples_shape):
    # They broadcast into the losses of other examples silently.
    x = numpy.ones((3, 2), numpy.float32)
    W = numpy.zeros((5, 2), numpy.float32)
    with pytest.raises(ValueError, match='N = len.x. = 3'):
        F.black_out(x, numpy.ones(t_shape, numpy.int32), W,
                    numpy.ones(samples_shape, numpy.int32))
