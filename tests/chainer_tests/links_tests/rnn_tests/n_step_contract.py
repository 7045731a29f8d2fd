"""Behaviour shared by the n-step recurrent links (NStepRNNTanh,
NStepRNNReLU, NStepGRU, NStepLSTM and their bi-directional variants), all
built on links.rnn.n_step_rnn.NStepRNNBase.

The test module of each link module loads this module (it is no test
module itself) and subclasses ``NStepRNNContract`` with its ``cases``.
"""

import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer import testing
from chainer.testing import attr


LENGTHS = (2, 4, 1, 4)
N_LAYERS, IN_SIZE, OUT_SIZE = 2, 3, 2


def uniform_input(shape, seed):
    return numpy.random.RandomState(seed).uniform(
        -1, 1, shape).astype(numpy.float32)


def randomize(link, seed):
    rng = numpy.random.RandomState(seed)
    for param in link.params():
        param.array[...] = rng.uniform(-1, 1, param.shape)


class NStepRNNContract:
    """The tests every n-step link passes, on each of ``cases``."""

    # class, number of weights per layer and direction, bi-directional,
    # number of state arrays, function of the sorted inputs
    cases = []

    def pytest_generate_tests(self, metafunc):
        if 'case_spec' in metafunc.fixturenames:
            metafunc.parametrize('case_spec', self.cases,
                                 ids=[c[0].__name__ for c in self.cases])

    @pytest.fixture
    def case(self, case_spec):
        cls, n_weights, bi, n_cells, func = case_spec
        link = cls(N_LAYERS, IN_SIZE, OUT_SIZE, 0.0)
        randomize(link, 0)
        xs = [uniform_input((length, IN_SIZE), k)
              for k, length in enumerate(LENGTHS)]
        n_dir = 2 if bi else 1
        states = [uniform_input((N_LAYERS * n_dir, len(LENGTHS), OUT_SIZE),
                                10 + k)
                  for k in range(n_cells)]
        return link, n_weights, n_dir, n_cells, func, xs, states

    def test_attributes(self, case):
        link, n_weights, n_dir, n_cells, *_ = case
        assert link.n_weights == n_weights
        assert link.use_bi_direction == (n_dir == 2)
        assert link.n_cells == n_cells
        assert link.n_layers == N_LAYERS
        assert link.out_size == OUT_SIZE
        assert link.direction == n_dir
        assert link.dropout == 0.0
        assert len(link) == N_LAYERS * n_dir

    def test_param_layout(self, case):
        link, n_weights, n_dir, *_ = case
        expected = []
        for child in range(N_LAYERS * n_dir):
            w_in = IN_SIZE if child < n_dir else OUT_SIZE * n_dir
            for j in range(n_weights):
                width = w_in if j < n_weights // 2 else OUT_SIZE
                expected.append(('/%d/w%d' % (child, j), (OUT_SIZE, width)))
                expected.append(('/%d/b%d' % (child, j), (OUT_SIZE,)))
        assert sorted((n, p.shape) for n, p in link.namedparams()) == \
            sorted(expected)
        assert len(link.ws) == len(link.bs) == N_LAYERS * n_dir
        for child, ws, bs in zip(link, link.ws, link.bs):
            assert ws == [getattr(child, 'w%d' % j) for j in range(n_weights)]
            assert bs == [getattr(child, 'b%d' % j) for j in range(n_weights)]

    def test_against_function_on_sorted_inputs(self, case):
        link, _, _, n_cells, func, xs, states = case
        out = link(*states, xs)
        order = numpy.argsort([-len(x) for x in xs], kind='stable')
        sorted_states = [s[:, order] for s in states]
        expected = func(N_LAYERS, 0.0, *sorted_states, link.ws, link.bs,
                        F.transpose_sequence([xs[i] for i in order]))
        for hy, ref in zip(out[:-1], expected[:-1]):
            assert hy.shape == ref.shape
            testing.assert_allclose(hy.array[:, order], ref.array)
        ys = F.transpose_sequence(expected[-1])
        assert len(out[-1]) == len(xs)
        for k, i in enumerate(order):
            testing.assert_allclose(out[-1][i].array, ys[k].array)

    def test_none_states_are_zeros(self, case):
        link, _, _, n_cells, _, xs, states = case
        zeros = [numpy.zeros_like(s) for s in states]
        with_zeros = link(*zeros, xs)
        with_none = link(*([None] * n_cells), xs)
        for a, b in zip(with_zeros[:-1], with_none[:-1]):
            numpy.testing.assert_array_equal(a.array, b.array)
        for a, b in zip(with_zeros[-1], with_none[-1]):
            numpy.testing.assert_array_equal(a.array, b.array)

    def test_backward(self, case):
        link, _, _, _, _, xs, states = case
        states = [chainer.Variable(s) for s in states]
        xs = [chainer.Variable(x) for x in xs]
        out = link(*states, xs)
        loss = sum(F.sum(y * y) for y in out[-1]) + F.sum(out[0])
        link.cleargrads()
        loss.backward()
        assert all(numpy.isfinite(p.grad).all() for p in link.params())
        assert all(x.grad is not None for x in xs)
        assert states[0].grad is not None

    def test_copy_rebinds_weights(self, case):
        link = case[0]
        for mode in ('share', 'copy', 'init'):
            copied = link.copy(mode)
            for child, ws, bs in zip(copied, copied.ws, copied.bs):
                assert ws[0] is child.w0
                assert bs[-1] is getattr(child, 'b%d' % (copied.n_weights - 1))

    def test_init_hx(self, case):
        link, _, n_dir, *_ = case
        xs = [numpy.zeros((2, IN_SIZE), numpy.float64)] * 3
        hx = link.init_hx(xs)
        assert hx.shape == (N_LAYERS * n_dir, 3, OUT_SIZE)
        assert hx.dtype == numpy.float64
        numpy.testing.assert_array_equal(hx.array, 0)

    @attr.gpu
    def test_gpu_matches_cpu(self, case):
        link, _, _, _, _, xs, states = case
        expected = link(*states, xs)
        link.to_gpu()
        out = link(*[cuda.to_gpu(s) for s in states],
                   [cuda.to_gpu(x) for x in xs])
        for hy, e in zip(out[:-1], expected[:-1]):
            testing.assert_allclose(hy.array, e.array, rtol=1e-4, atol=1e-5)
        for y, e in zip(out[-1], expected[-1]):
            assert isinstance(y.array, cuda.ndarray)
            testing.assert_allclose(y.array, e.array, rtol=1e-4, atol=1e-5)
        hy = link(*([None] * link.n_cells), [cuda.to_gpu(x) for x in xs])[0]
        assert isinstance(hy.array, cuda.ndarray)
