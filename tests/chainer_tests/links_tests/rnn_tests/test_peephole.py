import numpy
import pytest

from chainer import functions as F
from chainer.links.rnn import peephole
from chainer import testing


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _peephole_step(link, c, h, x):
    n = link.state_size
    z = x.dot(link.upward.W.array.T) + link.upward.b.array
    if h is not None:
        z += h.dot(link.lateral.W.array.T)
    z = z.reshape(len(x), n, 4)
    a, i, f, o = (z[:, :, k] for k in range(4))
    if c is None:
        c = numpy.zeros((len(x), n), numpy.float32)
    a = numpy.tanh(a)
    i = _sigmoid(i + c.dot(link.peep_i.W.array.T))
    f = _sigmoid(f + c.dot(link.peep_f.W.array.T))
    c_new = a * i + f * c
    o = _sigmoid(o + c_new.dot(link.peep_o.W.array.T))
    return c_new, o * numpy.tanh(c_new)


def _randomize(link, seed):
    rng = numpy.random.RandomState(seed)
    for param in link.params():
        param.array[...] = rng.uniform(-1, 1, param.shape)


def _input(shape, seed):
    return numpy.random.RandomState(seed).uniform(
        -1, 1, shape).astype(numpy.float32)


class TestStatefulPeepholeLSTM:

    def setup_method(self):
        self.link = peephole.StatefulPeepholeLSTM(3, 4)
        _randomize(self.link, 0)
        self.xs = [_input((2, 3), k) for k in range(3)]

    def test_params(self):
        assert sorted((n, p.shape) for n, p in self.link.namedparams()) == [
            ('/lateral/W', (16, 4)), ('/peep_f/W', (4, 4)),
            ('/peep_i/W', (4, 4)), ('/peep_o/W', (4, 4)),
            ('/upward/W', (16, 3)), ('/upward/b', (16,))]
        assert self.link.c is None and self.link.h is None

    def test_steps_against_numpy(self):
        c = h = None
        for x in self.xs:
            y = self.link(x)
            c, h = _peephole_step(self.link, c, h, x)
            testing.assert_allclose(y.array, h, rtol=1e-5, atol=1e-6)
            testing.assert_allclose(self.link.c.array, c, rtol=1e-5,
                                    atol=1e-6)
            assert self.link.h is y

    def test_reset_state(self):
        y = self.link(self.xs[0]).array
        self.link(self.xs[1])
        self.link.reset_state()
        assert self.link.c is None and self.link.h is None
        numpy.testing.assert_array_equal(self.link(self.xs[0]).array, y)

    def test_backward(self):
        loss = F.sum(self.link(self.xs[0]) + self.link(self.xs[1]))
        self.link.cleargrads()
        loss.backward()
        for param in self.link.params():
            assert numpy.abs(param.grad).sum() > 0


# Cases run against the numbers recorded from Chainer 7.8.1 (see
# conftest.py): name: function of the helpers, returning the link and its
# outputs.
CHAINER_7_8_CASES = {
    'StatefulPeepholeLSTM':
        lambda helpers: helpers.stateful(peephole.StatefulPeepholeLSTM),
}


@pytest.mark.parametrize('name', sorted(CHAINER_7_8_CASES))
def test_matches_chainer_7_8(chainer_7_8, name):
    chainer_7_8.check(name, CHAINER_7_8_CASES[name])
