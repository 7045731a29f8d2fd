import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer.links.rnn import n_step_gru
from chainer.links.rnn import n_step_lstm
from chainer.links.rnn import n_step_rnn
from chainer import testing
from chainer.testing import attr


# class, number of weights per layer and direction, bi-directional,
# number of state arrays, function of the sorted inputs
CLASSES = [
    (n_step_rnn.NStepRNNTanh, 2, False, 1,
     lambda *a: F.n_step_rnn(*a, activation='tanh')),
    (n_step_rnn.NStepRNNReLU, 2, False, 1,
     lambda *a: F.n_step_rnn(*a, activation='relu')),
    (n_step_rnn.NStepBiRNNTanh, 2, True, 1,
     lambda *a: F.n_step_birnn(*a, activation='tanh')),
    (n_step_rnn.NStepBiRNNReLU, 2, True, 1,
     lambda *a: F.n_step_birnn(*a, activation='relu')),
    (n_step_gru.NStepGRU, 6, False, 1, F.n_step_gru),
    (n_step_gru.NStepBiGRU, 6, True, 1, F.n_step_bigru),
    (n_step_lstm.NStepLSTM, 8, False, 2, F.n_step_lstm),
    (n_step_lstm.NStepBiLSTM, 8, True, 2, F.n_step_bilstm),
]
IDS = [c[0].__name__ for c in CLASSES]
LENGTHS = (2, 4, 1, 4)
N_LAYERS, IN_SIZE, OUT_SIZE = 2, 3, 2


def _input(shape, seed):
    return numpy.random.RandomState(seed).uniform(
        -1, 1, shape).astype(numpy.float32)


def _randomize(link, seed):
    rng = numpy.random.RandomState(seed)
    for param in link.params():
        param.array[...] = rng.uniform(-1, 1, param.shape)


@pytest.fixture(params=CLASSES, ids=IDS)
def case(request):
    cls, n_weights, bi, n_cells, func = request.param
    link = cls(N_LAYERS, IN_SIZE, OUT_SIZE, 0.0)
    _randomize(link, 0)
    xs = [_input((length, IN_SIZE), k) for k, length in enumerate(LENGTHS)]
    n_dir = 2 if bi else 1
    states = [_input((N_LAYERS * n_dir, len(LENGTHS), OUT_SIZE), 10 + k)
              for k in range(n_cells)]
    return link, n_weights, n_dir, n_cells, func, xs, states


def test_attributes(case):
    link, n_weights, n_dir, n_cells, *_ = case
    assert link.n_weights == n_weights
    assert link.use_bi_direction == (n_dir == 2)
    assert link.n_cells == n_cells
    assert link.n_layers == N_LAYERS
    assert link.out_size == OUT_SIZE
    assert link.direction == n_dir
    assert link.dropout == 0.0
    assert len(link) == N_LAYERS * n_dir


def test_param_layout(case):
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


def test_against_function_on_sorted_inputs(case):
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


def test_none_states_are_zeros(case):
    link, _, _, n_cells, _, xs, states = case
    zeros = [numpy.zeros_like(s) for s in states]
    with_zeros = link(*zeros, xs)
    with_none = link(*([None] * n_cells), xs)
    for a, b in zip(with_zeros[:-1], with_none[:-1]):
        numpy.testing.assert_array_equal(a.array, b.array)
    for a, b in zip(with_zeros[-1], with_none[-1]):
        numpy.testing.assert_array_equal(a.array, b.array)


def test_backward(case):
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


def test_copy_rebinds_weights(case):
    link = case[0]
    for mode in ('share', 'copy', 'init'):
        copied = link.copy(mode)
        for child, ws, bs in zip(copied, copied.ws, copied.bs):
            assert ws[0] is child.w0
            assert bs[-1] is getattr(child, 'b%d' % (copied.n_weights - 1))


def test_init_hx(case):
    link, _, n_dir, *_ = case
    xs = [numpy.zeros((2, IN_SIZE), numpy.float64)] * 3
    hx = link.init_hx(xs)
    assert hx.shape == (N_LAYERS * n_dir, 3, OUT_SIZE)
    assert hx.dtype == numpy.float64
    numpy.testing.assert_array_equal(hx.array, 0)


def _elman(link, hx, xs, activation):
    # Per-sequence NumPy reference of the stacked (bi-)RNN.
    n_dir = link.direction
    hy = numpy.empty_like(hx)
    ys = []
    for s, x in enumerate(xs):
        layer_in = x
        for layer in range(link.n_layers):
            outs = []
            for d in range(n_dir):
                k = layer * n_dir + d
                w0, w1 = (w.array for w in link.ws[k])
                b0, b1 = (b.array for b in link.bs[k])
                h = hx[k, s]
                seq = layer_in if d == 0 else layer_in[::-1]
                out = []
                for x_t in seq:
                    h = activation(w0.dot(x_t) + b0 + w1.dot(h) + b1)
                    out.append(h)
                hy[k, s] = h
                out = numpy.array(out)
                outs.append(out if d == 0 else out[::-1])
            layer_in = numpy.concatenate(outs, axis=1)
        ys.append(layer_in)
    return hy, ys


@pytest.mark.parametrize('cls,activation', [
    (n_step_rnn.NStepRNNTanh, numpy.tanh),
    (n_step_rnn.NStepRNNReLU, lambda x: numpy.maximum(x, 0)),
    (n_step_rnn.NStepBiRNNTanh, numpy.tanh),
    (n_step_rnn.NStepBiRNNReLU, lambda x: numpy.maximum(x, 0)),
])
def test_elman_against_numpy(cls, activation):
    link = cls(N_LAYERS, IN_SIZE, OUT_SIZE, 0.0)
    _randomize(link, 1)
    xs = [_input((length, IN_SIZE), k) for k, length in enumerate(LENGTHS)]
    hx = _input((N_LAYERS * link.direction, len(xs), OUT_SIZE), 3)
    hy, ys = link(hx, xs)
    hy_ref, ys_ref = _elman(link, hx, xs, activation)
    testing.assert_allclose(hy.array, hy_ref, rtol=1e-5, atol=1e-6)
    for y, y_ref in zip(ys, ys_ref):
        testing.assert_allclose(y.array, y_ref, rtol=1e-5, atol=1e-6)


def test_default_initialization():
    numpy.random.seed(0)
    link = n_step_lstm.NStepLSTM(1, 3, 2, 0.5)
    for b in link.bs[0]:
        numpy.testing.assert_array_equal(b.array, 0)
    # The first weight drawn from LeCunNormal, as Chainer 7.8.1 does.
    numpy.testing.assert_allclose(
        link.ws[0][0].array,
        [[1.0184761, 0.23103087, 0.5650746],
         [1.2937803, 1.0782351, -0.56423163]], rtol=1e-6)


def test_initializers():
    link = n_step_gru.NStepBiGRU(2, 3, 2, 0.0, initialW=0.5,
                                 initial_bias=-1.0)
    for ws, bs in zip(link.ws, link.bs):
        for w, b in zip(ws, bs):
            numpy.testing.assert_array_equal(w.array, 0.5)
            numpy.testing.assert_array_equal(b.array, -1)


@pytest.mark.parametrize('name', ['use_cudnn', 'use_bi_direction',
                                  'activation'])
def test_retired_constructor_arguments(name):
    with pytest.raises(ValueError, match='not supported anymore'):
        n_step_rnn.NStepRNNTanh(1, 3, 2, 0.0, **{name: True})


def test_unknown_constructor_argument():
    with pytest.raises(TypeError):
        n_step_lstm.NStepLSTM(1, 3, 2, 0.0, foo=1)


def test_retired_train_argument():
    link = n_step_lstm.NStepLSTM(1, 3, 2, 0.0)
    with pytest.raises(ValueError, match='train argument'):
        link(None, None, [numpy.zeros((1, 3), numpy.float32)], train=True)


def test_dropout_in_train_mode():
    link = n_step_lstm.NStepLSTM(2, 3, 4, 0.5)
    xs = [_input((3, 3), 0)]
    with chainer.using_config('train', False):
        a = link(None, None, xs)[2][0].array
        b = link(None, None, xs)[2][0].array
    numpy.testing.assert_array_equal(a, b)
    numpy.random.seed(1)
    c = link(None, None, xs)[2][0].array
    assert not numpy.allclose(a, c)


def test_argsort_and_permutate_list():
    xs = [[0] * 2, [0] * 5, [0] * 2, [0] * 3]
    indices = n_step_rnn.argsort_list_descent(xs)
    assert indices.dtype == numpy.int32
    assert indices.tolist() == [1, 3, 0, 2]
    items = ['a', 'b', 'c', 'd']
    moved = n_step_rnn.permutate_list(items, indices, inv=False)
    assert moved == ['b', 'd', 'a', 'c']
    assert n_step_rnn.permutate_list(moved, indices, inv=True) == items


@attr.gpu
def test_gpu_matches_cpu(case):
    link, _, _, _, _, xs, states = case
    expected = link(*states, xs)
    link.to_gpu()
    out = link(*[cuda.to_gpu(s) for s in states], [cuda.to_gpu(x) for x in xs])
    for hy, e in zip(out[:-1], expected[:-1]):
        testing.assert_allclose(hy.array, e.array, rtol=1e-4, atol=1e-5)
    for y, e in zip(out[-1], expected[-1]):
        assert isinstance(y.array, cuda.ndarray)
        testing.assert_allclose(y.array, e.array, rtol=1e-4, atol=1e-5)
    hy = link(*([None] * link.n_cells), [cuda.to_gpu(x) for x in xs])[0]
    assert isinstance(hy.array, cuda.ndarray)


# Cases run against the numbers recorded from Chainer 7.8.1 (see
# conftest.py): name: function of the helpers, returning the link and its
# outputs.
CHAINER_7_8_CASES = {}
for _cls in (n_step_rnn.NStepRNNTanh, n_step_rnn.NStepRNNReLU,
             n_step_rnn.NStepBiRNNTanh, n_step_rnn.NStepBiRNNReLU):
    CHAINER_7_8_CASES[_cls.__name__] = (
        lambda helpers, cls=_cls: helpers.n_step(cls, True))
    CHAINER_7_8_CASES[_cls.__name__ + '_none'] = (
        lambda helpers, cls=_cls: helpers.n_step(cls, False))


@pytest.mark.parametrize('name', sorted(CHAINER_7_8_CASES))
def test_matches_chainer_7_8(chainer_7_8, name):
    chainer_7_8.check(name, CHAINER_7_8_CASES[name])
