import numpy
import pytest

from chainer import functions as F
from chainer.links.rnn import tree_lstm
from chainer import testing


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _matmul(lin, x):
    y = x.dot(lin.W.array.T)
    return y if lin.b is None else y + lin.b.array


def _randomize(link, seed):
    rng = numpy.random.RandomState(seed)
    for param in link.params():
        param.array[...] = rng.uniform(-1, 1, param.shape)


def _input(shape, seed):
    return numpy.random.RandomState(seed).uniform(
        -1, 1, shape).astype(numpy.float32)


def _child_sum(link, cs, hs, x):
    # NumPy Child-Sum TreeLSTM (Tai et al., eq. 2-8).
    n = link.state_size
    wx = _matmul(link.W_x, x)
    a, i, o, f_x = (wx[:, k * n:(k + 1) * n] for k in range(4))
    if hs:
        aio = _matmul(link.W_h_aio, sum(hs))
        a, i, o = a + aio[:, :n], i + aio[:, n:2 * n], o + aio[:, 2 * n:]
    c = numpy.tanh(a) * _sigmoid(i)
    for c_k, h_k in zip(cs, hs):
        c = c + _sigmoid(f_x + _matmul(link.W_h_f, h_k)) * c_k
    return c, _sigmoid(o) * numpy.tanh(c)


def _nary(link, cs, hs, x):
    # NumPy N-ary TreeLSTM with one forget gate per child.
    n = link.state_size
    z = _matmul(link.W_x, x)
    for k, h in enumerate(hs, start=1):
        z = z + _matmul(getattr(link, 'W_h%d' % k), h)
    a, i, o = (z[:, k * n:(k + 1) * n] for k in range(3))
    c = numpy.tanh(a) * _sigmoid(i)
    for k, c_k in enumerate(cs):
        c = c + _sigmoid(z[:, (3 + k) * n:(4 + k) * n]) * c_k
    return c, _sigmoid(o) * numpy.tanh(c)


class TestChildSumTreeLSTM:

    def setup_method(self):
        self.link = tree_lstm.ChildSumTreeLSTM(3, 4)
        _randomize(self.link, 0)
        self.x = _input((2, 3), 1)
        self.cs = [_input((2, 4), 2 + k) for k in range(3)]
        self.hs = [_input((2, 4), 5 + k) for k in range(3)]

    def test_params(self):
        assert sorted((n, p.shape) for n, p in self.link.namedparams()) == [
            ('/W_h_aio/W', (12, 4)), ('/W_h_f/W', (4, 4)),
            ('/W_x/W', (16, 3)), ('/W_x/b', (16,))]
        assert self.link.in_size == 3 and self.link.state_size == 4

    @pytest.mark.parametrize('n_children', [0, 1, 3])
    def test_against_numpy(self, n_children):
        cs, hs = self.cs[:n_children], self.hs[:n_children]
        c, h = self.link(*cs, *hs, self.x)
        c_ref, h_ref = _child_sum(self.link, cs, hs, self.x)
        testing.assert_allclose(c.array, c_ref, rtol=1e-5, atol=1e-6)
        testing.assert_allclose(h.array, h_ref, rtol=1e-5, atol=1e-6)

    def test_order_of_children_does_not_matter(self):
        c1, h1 = self.link(*self.cs, *self.hs, self.x)
        c2, h2 = self.link(*self.cs[::-1], *self.hs[::-1], self.x)
        testing.assert_allclose(c1.array, c2.array)
        testing.assert_allclose(h1.array, h2.array)

    def test_missing_values_are_zeros(self):
        zeros = numpy.zeros((2, 4), numpy.float32)
        c, h = self.link(self.cs[0], None, None, self.hs[1], None)
        c_ref, h_ref = _child_sum(
            self.link, [self.cs[0], zeros], [zeros, self.hs[1]],
            numpy.zeros((2, 3), numpy.float32))
        testing.assert_allclose(c.array, c_ref, rtol=1e-5, atol=1e-6)
        testing.assert_allclose(h.array, h_ref, rtol=1e-5, atol=1e-6)

    def test_all_none(self):
        with pytest.raises(ValueError, match='All inputs'):
            self.link(None, None, None)

    def test_backward(self):
        c, h = self.link(*self.cs[:2], *self.hs[:2], self.x)
        self.link.cleargrads()
        F.sum(c * h).backward()
        for param in self.link.params():
            assert numpy.abs(param.grad).sum() > 0


class TestNaryTreeLSTM:

    def setup_method(self):
        self.link = tree_lstm.NaryTreeLSTM(3, 4, n_ary=3)
        _randomize(self.link, 0)
        self.x = _input((2, 3), 1)
        self.cs = [_input((2, 4), 2 + k) for k in range(3)]
        self.hs = [_input((2, 4), 5 + k) for k in range(3)]

    def test_params(self):
        assert sorted((n, p.shape) for n, p in self.link.namedparams()) == [
            ('/W_h1/W', (24, 4)), ('/W_h2/W', (24, 4)), ('/W_h3/W', (24, 4)),
            ('/W_x/W', (24, 3)), ('/W_x/b', (24,))]
        assert self.link.n_ary == 3

    def test_default_n_ary(self):
        link = tree_lstm.NaryTreeLSTM(3, 4)
        assert link.n_ary == 2
        assert not hasattr(link, 'W_h3')

    def test_against_numpy(self):
        c, h = self.link(*self.cs, *self.hs, self.x)
        c_ref, h_ref = _nary(self.link, self.cs, self.hs, self.x)
        testing.assert_allclose(c.array, c_ref, rtol=1e-5, atol=1e-6)
        testing.assert_allclose(h.array, h_ref, rtol=1e-5, atol=1e-6)

    def test_order_of_children_matters(self):
        h1 = self.link(*self.cs, *self.hs, self.x)[1].array
        h2 = self.link(*self.cs[::-1], *self.hs[::-1], self.x)[1].array
        assert not numpy.allclose(h1, h2)

    def test_missing_values_are_zeros(self):
        zeros = numpy.zeros((2, 4), numpy.float32)
        c, h = self.link(None, self.cs[1], None, self.hs[0], None, None,
                         self.x)
        c_ref, h_ref = _nary(self.link, [zeros, self.cs[1], zeros],
                             [self.hs[0], zeros, zeros], self.x)
        testing.assert_allclose(c.array, c_ref, rtol=1e-5, atol=1e-6)
        testing.assert_allclose(h.array, h_ref, rtol=1e-5, atol=1e-6)

    def test_wrong_number_of_arguments(self):
        with pytest.raises(AssertionError):
            self.link(self.cs[0], self.hs[0], self.x)

    def test_bad_n_ary(self):
        with pytest.raises(AssertionError):
            tree_lstm.NaryTreeLSTM(3, 4, n_ary=0)


def _tree(helpers, link):
    helpers.fill(link)
    inp = helpers.inp
    n = link.n_ary if hasattr(link, 'n_ary') else 0
    c1, h1 = link(*([None] * (2 * n)), inp((2, 3), 1))
    pad = [None] * (n - 2) if n else []
    c2, h2 = link(c1, None, *pad, h1, None, *pad, inp((2, 3), 2))
    c3, h3 = link(c1, c2, *pad, h1, h2, *pad, None)
    return link, [c1, h1, c2, h2, c3, h3]


# Cases run against the numbers recorded from Chainer 7.8.1 (see
# conftest.py): name: function of the helpers, returning the link and its
# outputs.
CHAINER_7_8_CASES = {
    'ChildSumTreeLSTM':
        lambda helpers: _tree(helpers, tree_lstm.ChildSumTreeLSTM(3, 4)),
    'NaryTreeLSTM':
        lambda helpers: _tree(helpers, tree_lstm.NaryTreeLSTM(3, 4, 3)),
}


@pytest.mark.parametrize('name', sorted(CHAINER_7_8_CASES))
def test_matches_chainer_7_8(chainer_7_8, name):
    chainer_7_8.check(name, CHAINER_7_8_CASES[name])
