import itertools

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import testing


def _score(cost, xs, b, labels):
    s = sum(xs[i][b, y] for i, y in enumerate(labels))
    return s + sum(cost[a, c] for a, c in zip(labels[:-1], labels[1:]))


def _expected_loss(cost, xs, ys, reduce):
    cost = cost.astype(numpy.float64)
    n_label = cost.shape[0]
    losses = []
    for b in range(len(xs[0])):
        length = sum(1 for x in xs if len(x) > b)
        scores = [_score(cost, xs, b, path) for path in
                  itertools.product(range(n_label), repeat=length)]
        log_z = numpy.log(numpy.exp(scores).sum())
        gold = [int(ys[i][b]) for i in range(length)]
        losses.append(log_z - _score(cost, xs, b, gold))
    losses = numpy.array(losses)
    if reduce == 'mean':
        return numpy.asarray(losses.mean())
    return losses


def _batch_sizes(lengths):
    return [sum(1 for n in lengths if n > i) for i in range(max(lengths))]


@testing.parameterize(*testing.product({
    'lengths': [(3, 3, 3), (4, 2, 1), (1,)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['mean', 'no'],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCRF1d(testing.FunctionTestCase):

    n_label = 3

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
        # the loss of sequences of length one does not depend on cost
        self.skip_double_backward_test = max(self.lengths) == 1
        self.ys = [numpy.random.randint(0, self.n_label, b).astype(numpy.int32)
                   for b in _batch_sizes(self.lengths)]

    def generate_inputs(self):
        cost = numpy.random.uniform(-1, 1, (self.n_label, self.n_label))
        xs = [numpy.random.uniform(-1, 1, (b, self.n_label))
              for b in _batch_sizes(self.lengths)]
        return tuple(a.astype(self.dtype) for a in [cost] + xs)

    def forward(self, inputs, device):
        cost, *xs = inputs
        ys = [device.send(y) for y in self.ys]
        return F.crf1d(cost, xs, ys, reduce=self.reduce),

    def forward_expected(self, inputs):
        cost, *xs = inputs
        loss = _expected_loss(cost, xs, self.ys, self.reduce)
        return loss.astype(self.dtype),


@pytest.mark.parametrize('lengths', [(3, 3), (4, 2, 1), (1,)], ids=str)
def test_argmax_crf1d(lengths):
    rng = numpy.random.RandomState(0)
    n_label = 3
    cost = rng.uniform(-1, 1, (n_label, n_label)).astype(numpy.float32)
    xs = [rng.uniform(-1, 1, (b, n_label)).astype(numpy.float32)
          for b in _batch_sizes(lengths)]
    score, path = F.argmax_crf1d(cost, xs)
    assert isinstance(score, chainer.Variable)
    assert score.shape == (len(lengths),)
    assert len(path) == len(xs)
    for p, x in zip(path, xs):
        assert p.dtype == numpy.int32 and p.shape == (len(x),)
    for b, length in enumerate(lengths):
        best = max(itertools.product(range(n_label), repeat=length),
                   key=lambda labels: _score(cost, xs, b, labels))
        assert [int(path[i][b]) for i in range(length)] == list(best)
        testing.assert_allclose(
            score.array[b], _score(cost, xs, b, best), rtol=1e-5)


def test_argmax_crf1d_score_is_differentiable():
    rng = numpy.random.RandomState(1)
    cost = rng.uniform(-1, 1, (3, 3))
    xs = [rng.uniform(-1, 1, (b, 3)) for b in (3, 2, 2)]

    def f(cost, *xs):
        return F.argmax_crf1d(cost, list(xs))[0]
    gradient_check.check_backward(
        f, (cost,) + tuple(xs), rng.uniform(-1, 1, 3), atol=1e-4, rtol=1e-4)


def test_docstring_values():
    cost = numpy.zeros((2, 2), numpy.float32)
    xs = [numpy.zeros((1, 2), numpy.float32)] * 3
    ys = [chainer.Variable(numpy.zeros(1, numpy.int32))] * 3
    loss = F.crf1d(cost, xs, ys)
    testing.assert_allclose(loss.array, numpy.log(8), rtol=1e-6)


def test_invalid_arguments():
    cost = numpy.zeros((3, 3), numpy.float32)
    xs = [numpy.zeros((2, 3), numpy.float32)]
    ys = [numpy.zeros(2, numpy.int32)]
    with pytest.raises(ValueError, match='reduce'):
        F.crf1d(cost, xs, ys, reduce='sum')
    with pytest.raises(ValueError):
        F.crf1d(numpy.zeros((2, 2), numpy.float32), xs, ys)
    with pytest.raises(ValueError):
        F.argmax_crf1d(numpy.zeros((3, 2), numpy.float32), xs)


@pytest.mark.parametrize('label, error', [
    (3, IndexError), (9, IndexError), (-4, IndexError),
    (-1, ValueError), (-3, ValueError),
])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_label_out_of_the_labels_raises(label, error, reduce):
    # A negative label in range of the axis picked label 3 + y silently.
    cost = numpy.zeros((3, 3), numpy.float32)
    xs = [numpy.zeros((2, 3), numpy.float32)] * 2
    ys = [numpy.array([0, 1], numpy.int32), numpy.array([label, 1],
                                                        numpy.int32)]
    message = ('index %d is out of bounds for axis 1 with size 3' % label
               if error is IndexError else '0 <= ys < 3, but %d' % label)
    with pytest.raises(error, match=message):
        F.crf1d(cost, xs, ys, reduce=reduce)


@pytest.mark.parametrize('length', [2, 4])
def test_ys_of_another_length_than_xs_raise(length):
    # zip cut the longer list: the loss was that of other sequences.
    cost = numpy.zeros((3, 3), numpy.float32)
    xs = [numpy.zeros((2, 3), numpy.float32)] * 3
    ys = [numpy.array([0, 1], numpy.int32)] * length
    with pytest.raises(ValueError, match='len.xs. is 3 and len.ys. is %d'
                       % length):
        F.crf1d(cost, xs, ys)
