import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.links.rnn import gru
from chainer import testing


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _affine(lin, x):
    return x.dot(lin.W.array.T) + lin.b.array


def _gru_step(link, h, x):
    # NumPy GRU update; h may be None (the first step of StatefulGRU).
    if h is None:
        z = _sigmoid(_affine(link.W_z, x))
        return z * numpy.tanh(_affine(link.W, x))
    r = _sigmoid(_affine(link.W_r, x) + _affine(link.U_r, h))
    z = _sigmoid(_affine(link.W_z, x) + _affine(link.U_z, h))
    h_bar = numpy.tanh(_affine(link.W, x) + _affine(link.U, r * h))
    return (1 - z) * h + z * h_bar


def _randomize(link, seed):
    rng = numpy.random.RandomState(seed)
    for param in link.params():
        param.array[...] = rng.uniform(-1, 1, param.shape)


def _input(shape, seed):
    return numpy.random.RandomState(seed).uniform(
        -1, 1, shape).astype(numpy.float32)


PARAM_NAMES = ['/U/W', '/U/b', '/U_r/W', '/U_r/b', '/U_z/W', '/U_z/b',
               '/W/W', '/W/b', '/W_r/W', '/W_r/b', '/W_z/W', '/W_z/b']


@pytest.mark.parametrize('cls', [gru.StatelessGRU, gru.StatefulGRU, gru.GRU])
def test_params(cls):
    link = cls(3, 4)
    assert sorted(name for name, _ in link.namedparams()) == PARAM_NAMES
    assert link.W.W.shape == (4, 3)
    assert link.U.W.shape == (4, 4)
    numpy.testing.assert_array_equal(link.W_r.b.array, 0)


def test_initializers():
    link = gru.StatefulGRU(2, 3, init=0.5, inner_init=-1.0, bias_init=2.0)
    for name in ('W_r', 'W_z', 'W'):
        numpy.testing.assert_array_equal(getattr(link, name).W.array, 0.5)
    for name in ('U_r', 'U_z', 'U'):
        numpy.testing.assert_array_equal(getattr(link, name).W.array, -1)
    for lin in link.children():
        numpy.testing.assert_array_equal(lin.b.array, 2)


def test_lazy_init():
    link = gru.StatelessGRU(None, 4)
    assert link.W.W.array is None
    y = link(numpy.zeros((2, 4), numpy.float32), _input((2, 3), 0))
    assert y.shape == (2, 4)
    assert link.W.W.shape == (4, 3)


def test_stateless_against_numpy():
    link = gru.StatelessGRU(3, 4)
    _randomize(link, 0)
    h, x = _input((2, 4), 1), _input((2, 3), 2)
    testing.assert_allclose(link(h, x).array, _gru_step(link, h, x),
                            rtol=1e-5, atol=1e-6)


def test_stateless_against_functions():
    link = gru.StatelessGRU(3, 4)
    _randomize(link, 0)
    h, x = _input((2, 4), 1), _input((2, 3), 2)
    r = F.sigmoid(link.W_r(x) + link.U_r(h))
    z = F.sigmoid(link.W_z(x) + link.U_z(h))
    h_bar = F.tanh(link.W(x) + link.U(r * h))
    expected = (1 - z) * h + z * h_bar
    testing.assert_allclose(link(h, x).array, expected.array)


class TestStatefulGRU:

    def setup_method(self):
        self.link = gru.StatefulGRU(3, 4)
        _randomize(self.link, 3)
        self.xs = [_input((2, 3), k) for k in range(3)]

    def test_steps_against_numpy(self):
        h = None
        for x in self.xs:
            y = self.link(x)
            h = _gru_step(self.link, h, x)
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
            _gru_step(self.link, h.array, self.xs[0]), rtol=1e-5, atol=1e-6)

    def test_set_state_needs_variable(self):
        with pytest.raises(AssertionError):
            self.link.set_state(numpy.zeros((2, 4), numpy.float32))

    def test_backward(self):
        loss = F.sum(self.link(self.xs[0]) * self.link(self.xs[1]))
        self.link.cleargrads()
        loss.backward()
        for param in self.link.params():
            assert param.grad is not None
            assert numpy.isfinite(param.grad).all()

    def test_state_size(self):
        assert self.link.state_size == 4


class TestGRUAlias:

    def test_is_stateful(self):
        link = gru.GRU(3, 4)
        assert isinstance(link, gru.StatefulGRU)
        _randomize(link, 2)
        x = _input((2, 3), 4)
        testing.assert_allclose(link(x).array, _gru_step(link, None, x),
                                rtol=1e-5, atol=1e-6)

    def test_two_arguments(self):
        link = gru.GRU(3, 4)
        with pytest.raises(ValueError, match='StatelessGRU instead'):
            link(numpy.zeros((1, 4), numpy.float32),
                 numpy.zeros((1, 3), numpy.float32))

    @pytest.mark.parametrize('n_args', [0, 3])
    def test_wrong_number_of_arguments(self, n_args):
        link = gru.GRU(3, 4)
        args = [numpy.zeros((1, 3), numpy.float32)] * n_args
        with pytest.raises(ValueError, match='But %d is given' % n_args):
            link(*args)


# Cases run against the numbers recorded from Chainer 7.8.1 (see
# conftest.py): name: function of the helpers, returning the link and its
# outputs.
CHAINER_7_8_CASES = {
    'StatefulGRU': lambda helpers: helpers.stateful(gru.StatefulGRU),
    'GRU': lambda helpers: helpers.stateful(gru.GRU, n_steps=2),
    'StatelessGRU': lambda helpers: helpers.stateless(gru.StatelessGRU),
}


@pytest.mark.parametrize('name', sorted(CHAINER_7_8_CASES))
def test_matches_chainer_7_8(chainer_7_8, name):
    chainer_7_8.check(name, CHAINER_7_8_CASES[name])
