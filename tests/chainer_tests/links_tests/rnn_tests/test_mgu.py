import numpy
import pytest

import chainer
from chainer.links.rnn import mgu
from chainer import testing


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _affine(lin, x):
    return x.dot(lin.W.array.T) + lin.b.array


def _mgu_step(link, h, x):
    f = _sigmoid(_affine(link.W_f, numpy.concatenate([h, x], axis=1)))
    h_bar = numpy.tanh(
        _affine(link.W_h, numpy.concatenate([f * h, x], axis=1)))
    return (1 - f) * h + f * h_bar


def _randomize(link, seed):
    rng = numpy.random.RandomState(seed)
    for param in link.params():
        param.array[...] = rng.uniform(-1, 1, param.shape)


def _input(shape, seed):
    return numpy.random.RandomState(seed).uniform(
        -1, 1, shape).astype(numpy.float32)


@pytest.mark.parametrize('cls', [mgu.StatelessMGU, mgu.StatefulMGU])
def test_params(cls):
    link = cls(3, 4)
    assert sorted((name, p.shape) for name, p in link.namedparams()) == [
        ('/W_f/W', (4, 7)), ('/W_f/b', (4,)),
        ('/W_h/W', (4, 7)), ('/W_h/b', (4,))]


def test_stateless_against_numpy():
    link = mgu.StatelessMGU(3, 4)
    _randomize(link, 0)
    h, x = _input((2, 4), 1), _input((2, 3), 2)
    testing.assert_allclose(link(h, x).array, _mgu_step(link, h, x),
                            rtol=1e-5, atol=1e-6)


class TestStatefulMGU:

    def setup_method(self):
        self.link = mgu.StatefulMGU(3, 4)
        _randomize(self.link, 3)
        self.xs = [_input((2, 3), k) for k in range(3)]

    def test_steps_against_numpy(self):
        h = numpy.zeros((2, 4), numpy.float32)
        for x in self.xs:
            y = self.link(x)
            h = _mgu_step(self.link, h, x)
            testing.assert_allclose(y.array, h, rtol=1e-5, atol=1e-6)
            assert self.link.h is y

    def test_reset_state(self):
        y = self.link(self.xs[0]).array
        self.link(self.xs[1])
        self.link.reset_state()
        assert self.link.h is None
        numpy.testing.assert_array_equal(self.link(self.xs[0]).array, y)

    def test_set_state(self):
        h = chainer.Variable(_input((2, 4), 9))
        self.link.set_state(h)
        assert self.link.h is h
        testing.assert_allclose(
            self.link(self.xs[0]).array,
            _mgu_step(self.link, h.array, self.xs[0]), rtol=1e-5, atol=1e-6)

    def test_initial_state_has_default_dtype(self):
        with chainer.using_config('dtype', numpy.float64):
            link = mgu.StatefulMGU(3, 4)
            y = link(numpy.zeros((2, 3)))
        assert y.dtype == numpy.float64


# Cases run against the numbers recorded from Chainer 7.8.1 (see
# conftest.py): name: function of the helpers, returning the link and its
# outputs.
CHAINER_7_8_CASES = {
    'StatefulMGU': lambda helpers: helpers.stateful(mgu.StatefulMGU),
    'StatelessMGU': lambda helpers: helpers.stateless(mgu.StatelessMGU),
}


@pytest.mark.parametrize('name', sorted(CHAINER_7_8_CASES))
def test_matches_chainer_7_8(chainer_7_8, name):
    chainer_7_8.check(name, CHAINER_7_8_CASES[name])
