import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer import initializers
from chainer.links.rnn import lstm
from chainer import testing
from chainer.testing import attr


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _lstm_step(link, c, h, x):
    # NumPy LSTM step; c and h may be None (zeros / no lateral input).
    z = x.dot(link.upward.W.array.T) + link.upward.b.array
    if h is not None:
        z += h.dot(link.lateral.W.array.T)
    n = link.state_size
    z = z.reshape(len(x), n, 4)
    a, i, f, o = (z[:, :, k] for k in range(4))
    if c is None:
        c = numpy.zeros((len(x), n), x.dtype)
    c_new = numpy.tanh(a) * _sigmoid(i) + _sigmoid(f) * c[:len(x)]
    return c_new, _sigmoid(o) * numpy.tanh(c_new)


def _randomize(link, seed):
    rng = numpy.random.RandomState(seed)
    for param in link.params():
        param.array[...] = rng.uniform(-1, 1, param.shape)


def _input(shape, seed):
    return numpy.random.RandomState(seed).uniform(
        -1, 1, shape).astype(numpy.float32)


class TestLSTMInit:

    def test_params(self):
        link = lstm.LSTM(3, 5)
        assert sorted(name for name, _ in link.namedparams()) == [
            '/lateral/W', '/upward/W', '/upward/b']
        assert link.upward.W.shape == (20, 3)
        assert link.lateral.W.shape == (20, 5)
        assert link.lateral.b is None
        assert link.state_size == 5

    def test_default_biases(self):
        # Gates of each unit lie side by side: a, i, f, o.
        b = lstm.LSTM(3, 5).upward.b.array.reshape(5, 4)
        numpy.testing.assert_array_equal(b[:, [0, 1, 3]], 0)
        numpy.testing.assert_array_equal(b[:, 2], 1)

    def test_scalar_biases(self):
        b = lstm.LSTM(3, 2, bias_init=0.5, forget_bias_init=-2).upward.b
        numpy.testing.assert_array_equal(
            b.array, [0.5, 0.5, -2, 0.5] * 2)

    def test_weight_initializers_see_gate_blocks(self):
        shapes = []

        def record(array):
            shapes.append(array.shape)
            array[...] = len(shapes)

        link = lstm.LSTM(3, 2, lateral_init=record, upward_init=record)
        # lateral, upward, lateral, upward, ... on row blocks.
        assert shapes == [(2, 2), (2, 3)] * 4
        numpy.testing.assert_array_equal(
            link.lateral.W.array[:, 0], [1, 1, 3, 3, 5, 5, 7, 7])
        numpy.testing.assert_array_equal(
            link.upward.W.array[:, 0], [2, 2, 4, 4, 6, 6, 8, 8])

    def test_bias_initializer_sees_each_gate(self):
        shapes = []

        def record(array):
            shapes.append(array.shape)
            array[...] = len(shapes)

        link = lstm.LSTM(3, 2, bias_init=record,
                         forget_bias_init=initializers.Constant(9))
        assert shapes == [(1, 2)] * 3
        numpy.testing.assert_array_equal(
            link.upward.b.array, [1, 2, 9, 3] * 2)

    def test_seeded_draws(self):
        numpy.random.seed(0)
        link = lstm.LSTM(2, 1)
        # Recorded from Chainer 7.8.1 with the same seed.
        numpy.testing.assert_allclose(
            link.lateral.W.array.ravel(),
            [1.7640524, 2.2408931, 0.95008844, 0.41059852], rtol=1e-6)
        numpy.testing.assert_allclose(
            link.upward.W.array[:, 0],
            [0.2829539, 1.320563, -0.10702571, 0.10185418], rtol=1e-6)

    @pytest.mark.parametrize('args', [(5,), (None, 5)])
    def test_lazy_init(self, args):
        link = lstm.LSTM(*args)
        assert link.upward.W.array is None
        assert link.lateral.W.shape == (20, 5)
        y = link(numpy.zeros((2, 3, 2), numpy.float32))
        assert y.shape == (2, 5)
        assert link.upward.W.shape == (20, 6)
        b = link.upward.b.array.reshape(5, 4)
        numpy.testing.assert_array_equal(b[:, 2], 1)

    def test_str(self):
        assert str(lstm.LSTM(3, 4)) == (
            'LSTM(\n'
            '  (lateral): Linear(in_size=4, out_size=16, nobias=True),\n'
            '  (upward): Linear(in_size=3, out_size=16, nobias=False),\n'
            ')')


class TestLSTMForward:

    def setup_method(self):
        self.link = lstm.LSTM(3, 4)
        _randomize(self.link, 1)
        self.xs = [_input((3, 3), 2), _input((3, 3), 3)]

    def test_steps_against_numpy(self):
        c = h = None
        for x in self.xs:
            y = self.link(x)
            c, h = _lstm_step(self.link, c, h, x)
            testing.assert_allclose(y.array, h, rtol=1e-5, atol=1e-6)
            testing.assert_allclose(self.link.c.array, c, rtol=1e-5,
                                    atol=1e-6)
            assert self.link.h is y

    def test_steps_against_functions(self):
        ys = [self.link(x) for x in self.xs]
        up, lat = self.link.upward, self.link.lateral
        c0 = numpy.zeros((3, 4), numpy.float32)
        c1, h1 = F.lstm(c0, F.linear(self.xs[0], up.W, up.b))
        c2, h2 = F.lstm(c1, F.linear(self.xs[1], up.W, up.b)
                        + F.linear(h1, lat.W))
        testing.assert_allclose(ys[0].array, h1.array)
        testing.assert_allclose(ys[1].array, h2.array)

    def test_shrinking_batch(self):
        y0 = self.link(self.xs[0])
        c0 = self.link.c.array.copy()
        x1 = self.xs[1][:2]
        y1 = self.link(x1)
        c, h = _lstm_step(self.link, c0, y0.array[:2], x1)
        testing.assert_allclose(y1.array, h, rtol=1e-5, atol=1e-6)
        assert self.link.h.shape == (3, 4)
        testing.assert_allclose(self.link.h.array[:2], h, rtol=1e-5,
                                atol=1e-6)
        numpy.testing.assert_array_equal(self.link.h.array[2], y0.array[2])
        numpy.testing.assert_array_equal(self.link.c.array[2], c0[2])

    def test_empty_batch_keeps_state(self):
        y0 = self.link(self.xs[0])
        y1 = self.link(numpy.zeros((0, 3), numpy.float32))
        assert y1.shape == (0, 4)
        numpy.testing.assert_array_equal(self.link.h.array, y0.array)

    def test_growing_batch_raises(self):
        self.link(self.xs[0][:2])
        with pytest.raises(TypeError):
            self.link(self.xs[1])

    def test_backward_reaches_params(self):
        loss = F.sum(self.link(self.xs[0]) * self.link(self.xs[1]))
        self.link.cleargrads()
        loss.backward()
        for param in self.link.params():
            assert param.grad is not None
            assert numpy.abs(param.grad).sum() > 0

    def test_reset_state(self):
        y0 = self.link(self.xs[0])
        self.link.reset_state()
        assert self.link.c is None and self.link.h is None
        numpy.testing.assert_array_equal(
            self.link(self.xs[0]).array, y0.array)

    def test_set_state(self):
        c = chainer.Variable(_input((3, 4), 5))
        h = chainer.Variable(_input((3, 4), 6))
        self.link.set_state(c, h)
        assert self.link.c is c and self.link.h is h
        y = self.link(self.xs[0])
        c_new, h_new = _lstm_step(self.link, c.array, h.array, self.xs[0])
        testing.assert_allclose(y.array, h_new, rtol=1e-5, atol=1e-6)
        testing.assert_allclose(self.link.c.array, c_new, rtol=1e-5,
                                atol=1e-6)

    def test_set_state_needs_variables(self):
        with pytest.raises(AssertionError):
            self.link.set_state(numpy.zeros((3, 4), numpy.float32),
                                chainer.Variable(numpy.zeros((3, 4))))

    def test_state_follows_to_device(self):
        self.link(self.xs[0])
        visited = []

        class Visitor(chainer.device_resident.DeviceResidentsVisitor):
            def visit_device_resident(self, device_resident):
                pass

            def visit_variable(self, param):
                visited.append(param)

        self.link.device_resident_accept(Visitor())
        assert any(v is self.link.c for v in visited)
        assert any(v is self.link.h for v in visited)
        self.link.to_cpu()
        assert isinstance(self.link.c.array, numpy.ndarray)

    @pytest.mark.parametrize('dtype', [numpy.float16, numpy.float64])
    def test_dtype(self, dtype):
        with chainer.using_config('dtype', dtype):
            link = lstm.LSTM(3, 4)
        y = link(numpy.ones((2, 3), dtype))
        assert y.dtype == dtype
        assert link.c.dtype == dtype


class TestStatelessLSTM:

    def setup_method(self):
        self.link = lstm.StatelessLSTM(3, 4)
        _randomize(self.link, 7)
        self.x = _input((2, 3), 8)

    def test_against_numpy(self):
        c = _input((2, 4), 9)
        h = _input((2, 4), 10)
        c_new, h_new = self.link(c, h, self.x)
        c_ref, h_ref = _lstm_step(self.link, c, h, self.x)
        testing.assert_allclose(c_new.array, c_ref, rtol=1e-5, atol=1e-6)
        testing.assert_allclose(h_new.array, h_ref, rtol=1e-5, atol=1e-6)

    def test_none_states(self):
        c_new, h_new = self.link(None, None, self.x)
        c_ref, h_ref = _lstm_step(self.link, None, None, self.x)
        testing.assert_allclose(c_new.array, c_ref, rtol=1e-5, atol=1e-6)
        testing.assert_allclose(h_new.array, h_ref, rtol=1e-5, atol=1e-6)

    def test_keeps_no_state(self):
        first = self.link(None, None, self.x)[1].array
        second = self.link(None, None, self.x)[1].array
        numpy.testing.assert_array_equal(first, second)
        assert not hasattr(self.link, 'h')

    @pytest.mark.parametrize('args', [(4,), (None, 4)])
    def test_lazy_init(self, args):
        link = lstm.StatelessLSTM(*args)
        assert link.upward.W.array is None
        c, h = link(None, None, self.x)
        assert link.upward.W.shape == (16, 3)
        assert c.shape == h.shape == (2, 4)


@attr.gpu
def test_gpu_matches_cpu():
    link = lstm.LSTM(3, 4)
    _randomize(link, 1)
    xs = [_input((3, 3), 2), _input((2, 3), 3)]
    expected = [link(x).array for x in xs]
    link.reset_state()
    link.to_gpu()
    ys = [link(cuda.to_gpu(x)) for x in xs]
    assert isinstance(link.c.array, cuda.ndarray)
    for y, e in zip(ys, expected):
        testing.assert_allclose(y.array, e, rtol=1e-4, atol=1e-5)
    link.to_cpu()
    assert isinstance(link.h.array, numpy.ndarray)


def _lstm(helpers):
    link = lstm.LSTM(3, 4)
    helpers.fill(link)
    inp = helpers.inp
    ys = [link(inp((3, 3), 0)), link(inp((2, 3), 1)), link(inp((2, 3), 2))]
    return link, ys + [link.c, link.h]


def _lstm_set_state(helpers):
    link = lstm.LSTM(3, 4)
    helpers.fill(link)
    link.set_state(helpers.var((2, 4), 3), helpers.var((2, 4), 4))
    return link, [link(helpers.inp((2, 3), 0)), link.c]


def _stateless_lstm(helpers):
    link = lstm.StatelessLSTM(3, 4)
    helpers.fill(link)
    c, h = link(helpers.var((2, 4), 1), helpers.var((2, 4), 2),
                helpers.inp((2, 3)))
    c2, h2 = link(c, h, helpers.inp((2, 3), 7))
    return link, [c, h, c2, h2]


def _stateless_lstm_none(helpers):
    link = lstm.StatelessLSTM(3, 4)
    helpers.fill(link)
    return link, list(link(None, None, helpers.inp((2, 3))))


# Cases run against the numbers recorded from Chainer 7.8.1 (see
# conftest.py): name: function of the helpers, returning the link and its
# outputs.
CHAINER_7_8_CASES = {
    'LSTM': _lstm,
    'LSTM_set_state': _lstm_set_state,
    'StatelessLSTM': _stateless_lstm,
    'StatelessLSTM_none': _stateless_lstm_none,
}


@pytest.mark.parametrize('name', sorted(CHAINER_7_8_CASES))
def test_matches_chainer_7_8(chainer_7_8, name):
    chainer_7_8.check(name, CHAINER_7_8_CASES[name])
