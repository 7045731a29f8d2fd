import itertools

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.loss import ctc


def _collapse(path, blank):
    # merge repeated symbols, then drop the blanks
    out = []
    previous = None
    for s in path:
        if s != previous and s != blank:
            out.append(s)
        previous = s
    return out


def _expected_loss(xs, t, blank, input_length, label_length, reduce):
    # -log of the summed probabilities of all the alignments, enumerated
    x = numpy.stack(xs).astype(numpy.float64)
    y = numpy.exp(x - x.max(axis=2, keepdims=True))
    y /= y.sum(axis=2, keepdims=True)
    n_vocab = x.shape[2]
    losses = []
    for b in range(x.shape[1]):
        length = input_length[b]
        label = list(t[b, :label_length[b]])
        total = 0.
        for path in itertools.product(range(n_vocab), repeat=length):
            if _collapse(path, blank) == label:
                total += numpy.prod([y[i, b, s] for i, s in enumerate(path)])
        losses.append(-numpy.log(total))
    losses = numpy.array(losses)
    if reduce == 'mean':
        return numpy.asarray(losses.mean())
    return losses


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'lengths': [False, True],
    'reduce': ['mean', 'no'],
    'blank_symbol': [0, 2],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCTC(testing.FunctionTestCase):

    # CTC is an old-style Function: it is differentiable once only.
    skip_double_backward_test = True
    n_time, n_batch, n_vocab, n_label = 5, 3, 3, 2

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_forward_options = {'atol': 1e-5, 'rtol': 1e-5}
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
        labels = [s for s in range(self.n_vocab) if s != self.blank_symbol]
        t = numpy.random.choice(labels, (self.n_batch, self.n_label))
        t[0] = labels[0]  # a repeated label needs a blank in between
        self.t = t.astype(numpy.int32)
        if self.lengths:
            self.input_length = numpy.array([5, 3, 4], numpy.int32)
            self.label_length = numpy.array([2, 1, 0], numpy.int32)
        else:
            self.input_length = numpy.full(3, self.n_time, numpy.int32)
            self.label_length = numpy.full(3, self.n_label, numpy.int32)

    def generate_inputs(self):
        return tuple(
            numpy.random.uniform(-1, 1, (self.n_batch, self.n_vocab))
            .astype(self.dtype) for _ in range(self.n_time))

    def forward(self, inputs, device):
        if self.lengths:
            lengths = (device.send(self.input_length),
                       device.send(self.label_length))
        else:
            lengths = None, None
        return F.connectionist_temporal_classification(
            list(inputs), device.send(self.t), self.blank_symbol,
            *lengths, reduce=self.reduce),

    def forward_expected(self, inputs):
        loss = _expected_loss(
            inputs, self.t, self.blank_symbol, self.input_length,
            self.label_length, self.reduce)
        return loss.astype(self.dtype),


def test_docstring_value():
    x = [chainer.Variable(numpy.zeros((1, 3), numpy.float32))
         for _ in range(2)]
    loss = F.connectionist_temporal_classification(
        x, numpy.array([[1]], numpy.int32), 0)
    assert isinstance(loss.creator, ctc.ConnectionistTemporalClassification)
    testing.assert_allclose(loss.array, numpy.log(3), rtol=1e-6)
    loss.backward()
    assert x[0].grad.shape == (1, 3)


def test_gradient_is_masked_beyond_input_length():
    xs = [chainer.Variable(numpy.random.RandomState(0).randn(2, 3))
          for _ in range(4)]
    loss = F.connectionist_temporal_classification(
        xs, numpy.array([[1], [2]], numpy.int32), 0,
        input_length=numpy.array([4, 2], numpy.int32))
    loss.backward()
    numpy.testing.assert_array_equal(xs[2].grad[1], 0)
    numpy.testing.assert_array_equal(xs[3].grad[1], 0)
    assert (xs[1].grad[1] != 0).any()


def test_invalid_arguments():
    x = [numpy.zeros((2, 3), numpy.float32)] * 3
    t = numpy.zeros((2, 1), numpy.int32)
    with pytest.raises(TypeError, match='list'):
        F.connectionist_temporal_classification(x[0], t, 0)
    with pytest.raises(TypeError, match='blank_symbol'):
        F.connectionist_temporal_classification(x, t, 0.)
    with pytest.raises(ValueError, match='blank_symbol'):
        F.connectionist_temporal_classification(x, t, 3)
    with pytest.raises(ValueError, match='reduce'):
        F.connectionist_temporal_classification(x, t, 0, reduce='sum')
    with pytest.raises(ValueError):
        F.connectionist_temporal_classification(
            [numpy.zeros((2, 3, 1), numpy.float32)] * 3, t, 0)
    with pytest.raises(chainer.utils.type_check.InvalidType):
        F.connectionist_temporal_classification(
            x, t, 0, input_length=numpy.full(2, 3, numpy.int64))
    with pytest.raises(chainer.utils.type_check.InvalidType):
        F.connectionist_temporal_classification(x, t[:, 0], 0)


def _ctc_inputs():
    x = [numpy.zeros((2, 3), numpy.float32)] * 4
    t = numpy.array([[1, 2], [1, 1]], numpy.int32)
    return x, t


@pytest.mark.parametrize('label, error', [
    (3, IndexError), (-4, IndexError), (-1, ValueError),
])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_label_out_of_the_units_raises(label, error, reduce):
    x, t = _ctc_inputs()
    t[0, 1] = label
    message = ('index %d is out of bounds for axis 2 with size 3' % label
               if error is IndexError else '0 <= t < 3, but %d' % label)
    with pytest.raises(error, match=message):
        F.connectionist_temporal_classification(x, t, 0, reduce=reduce)


def test_padding_beyond_the_label_length_is_not_a_label():
    x, t = _ctc_inputs()
    t[1, 1] = -1
    lengths = numpy.array([4, 4], numpy.int32)
    loss = F.connectionist_temporal_classification(
        x, t, 0, input_length=lengths,
        label_length=numpy.array([2, 1], numpy.int32), reduce='no')
    t[1, 1] = 2
    expected = F.connectionist_temporal_classification(
        x, t, 0, input_length=lengths,
        label_length=numpy.array([2, 1], numpy.int32), reduce='no')
    testing.assert_allclose(loss.array, expected.array)


@pytest.mark.parametrize('input_length, label_length, message', [
    ([5, 4], [2, 2], r'input_length must be in \[0, 4\].*but 5'),
    ([-1, 4], [2, 2], r'input_length must be in \[0, 4\].*but -1'),
    ([4, 4], [3, 2], r'label_length must be in \[0, 2\].*but 3'),
    ([4, 4], [-1, 2], r'label_length must be in \[0, 2\].*but -1'),
], ids=['input-long', 'input-negative', 'label-long', 'label-negative'])
def test_lengths_out_of_the_arrays_raise(input_length, label_length, message):
    # The loss of such lengths was a silent number.
    x, t = _ctc_inputs()
    with pytest.raises(ValueError, match=message):
        F.connectionist_temporal_classification(
            x, t, 0, input_length=numpy.array(input_length, numpy.int32),
            label_length=numpy.array(label_length, numpy.int32))
