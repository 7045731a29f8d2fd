import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.links.rnn import zoneoutlstm
from chainer import testing


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _lstm_step(link, c, h, x):
    n = link.state_size
    z = (x.dot(link.upward.W.array.T) + link.upward.b.array
         + h.dot(link.lateral.W.array.T))
    z = z.reshape(len(x), n, 4)
    a, i, f, o = (z[:, :, k] for k in range(4))
    c_new = numpy.tanh(a) * _sigmoid(i) + _sigmoid(f) * c
    return c_new, _sigmoid(o) * numpy.tanh(c_new)


def _randomize(link, seed):
    rng = numpy.random.RandomState(seed)
    for param in link.params():
        param.array[...] = rng.uniform(-1, 1, param.shape)


def _input(shape, seed):
    return numpy.random.RandomState(seed).uniform(
        -1, 1, shape).astype(numpy.float32)


class TestStatefulZoneoutLSTM:

    def setup_method(self):
        self.link = zoneoutlstm.StatefulZoneoutLSTM(
            3, 4, c_ratio=0.25, h_ratio=0.75)
        _randomize(self.link, 0)
        self.xs = [_input((2, 3), k) for k in range(3)]

    def test_params(self):
        assert sorted((n, p.shape) for n, p in self.link.namedparams()) == [
            ('/lateral/W', (16, 4)), ('/upward/W', (16, 3)),
            ('/upward/b', (16,))]
        assert (self.link.c_ratio, self.link.h_ratio) == (0.25, 0.75)

    def test_defaults(self):
        link = zoneoutlstm.StatefulZoneoutLSTM(3, 4)
        assert (link.c_ratio, link.h_ratio) == (0.5, 0.5)

    def test_test_mode_is_plain_lstm(self):
        c = h = numpy.zeros((2, 4), numpy.float32)
        with chainer.using_config('train', False):
            for x in self.xs:
                y = self.link(x)
                c, h = _lstm_step(self.link, c, h, x)
                testing.assert_allclose(y.array, h, rtol=1e-5, atol=1e-6)
                testing.assert_allclose(self.link.c.array, c, rtol=1e-5,
                                        atol=1e-6)

    def test_train_mode_mixes_old_and_new_states(self):
        numpy.random.seed(0)
        c = h = numpy.zeros((20, 4), numpy.float32)
        self.link.reset_state()
        x = _input((20, 3), 5)
        self.link(x)
        c0, h0 = self.link.c.array, self.link.h.array
        y = self.link(x)
        c_new, h_new = _lstm_step(self.link, c0, h0, x)
        kept_c = numpy.isclose(self.link.c.array, c0, rtol=0, atol=1e-7)
        took_c = numpy.isclose(self.link.c.array, c_new, rtol=1e-5,
                               atol=1e-6)
        took_h = numpy.isclose(y.array, h_new, rtol=1e-5, atol=1e-6)
        kept_h = numpy.isclose(y.array, h0, rtol=0, atol=1e-7)
        assert (kept_c | took_c).all() and (kept_h | took_h).all()
        # With ratios 0.25 and 0.75 over 80 units, both kinds occur.
        assert 0 < kept_c.mean() < 0.5 < kept_h.mean() < 1
        del c, h

    def test_set_and_reset_state(self):
        c = chainer.Variable(_input((2, 4), 7))
        h = chainer.Variable(_input((2, 4), 8))
        self.link.set_state(c, h)
        assert self.link.c is c and self.link.h is h
        with chainer.using_config('train', False):
            y = self.link(self.xs[0])
        testing.assert_allclose(
            y.array, _lstm_step(self.link, c.array, h.array, self.xs[0])[1],
            rtol=1e-5, atol=1e-6)
        self.link.reset_state()
        assert self.link.c is None and self.link.h is None

    def test_train_argument_is_retired(self):
        with pytest.raises(ValueError, match='train argument'):
            zoneoutlstm.StatefulZoneoutLSTM(3, 4, train=True)

    def test_backward(self):
        loss = F.sum(self.link(self.xs[0]) + self.link(self.xs[1]))
        self.link.cleargrads()
        loss.backward()
        for param in self.link.params():
            assert numpy.isfinite(param.grad).all()


def _zoneout_test_mode(helpers):
    with chainer.using_config('train', False):
        return helpers.stateful(zoneoutlstm.StatefulZoneoutLSTM)


def _zoneout_train_mode(helpers):
    numpy.random.seed(3)
    return helpers.stateful(zoneoutlstm.StatefulZoneoutLSTM,
                            c_ratio=0.3, h_ratio=0.6)


# Cases run against the numbers recorded from Chainer 7.8.1 (see
# conftest.py): name: function of the helpers, returning the link and its
# outputs.
CHAINER_7_8_CASES = {
    'StatefulZoneoutLSTM_test': _zoneout_test_mode,
    'StatefulZoneoutLSTM_train': _zoneout_train_mode,
}


@pytest.mark.parametrize('name', sorted(CHAINER_7_8_CASES))
def test_matches_chainer_7_8(chainer_7_8, name):
    chainer_7_8.check(name, CHAINER_7_8_CASES[name])
