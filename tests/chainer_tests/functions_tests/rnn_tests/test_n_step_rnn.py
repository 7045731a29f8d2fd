import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.rnn import n_step_rnn
from chainer import gradient_check
from chainer.testing import attr


BATCHES = {
    'sorted': (3, 3, 2, 1),
    'one-step': (2,),
    'growing': (1, 3, 2),
    'empty-step': (2, 1, 0),
}


def _call(case, activation, arrays=None, dropout_ratio=0.0):
    hx, _, ws, bs, xs = case.unflatten(arrays or case.flat())
    f = F.n_step_birnn if case.use_bi_direction else F.n_step_rnn
    return f(case.n_layers, dropout_ratio, hx, ws, bs, xs,
             activation=activation)


def _grads(outputs, seed):
    rng = numpy.random.RandomState(seed)
    hy, ys = outputs
    return [rng.uniform(-1, 1, y.shape) for y in (hy,) + ys]


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('batches', list(BATCHES))
@pytest.mark.parametrize('n_layers', [1, 2])
@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
@pytest.mark.parametrize('activation', ['tanh', 'relu'])
def test_forward(nstep, dtype, batches, n_layers, bi, activation):
    case = nstep.NStepCase(2, False, n_layers, bi, BATCHES[batches], dtype)
    hy, ys = _call(case, activation)
    nstep.check_outputs(hy, None, ys,
                        case.reference(nstep.rnn_step(activation)), dtype)


def test_default_activation_is_tanh(nstep):
    case = nstep.NStepCase(2, False, 2, False, BATCHES['sorted'],
                           numpy.float64)
    hx, _, ws, bs, xs = case.unflatten(case.flat())
    hy, ys = F.n_step_rnn(2, 0.0, hx, ws, bs, xs)
    nstep.check_outputs(hy, None, ys, case.reference(nstep.rnn_step('tanh')),
                        numpy.float64)


@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
@pytest.mark.parametrize('activation', ['tanh', 'relu'])
def test_backward(nstep, bi, activation):
    case = nstep.NStepCase(2, False, 2, bi, BATCHES['sorted'],
                           numpy.float64)

    def f(*arrays):
        hy, ys = _call(case, activation, arrays)
        return (hy,) + ys
    gradient_check.check_backward(
        f, case.flat(), _grads(_call(case, activation), 1), atol=1e-5,
        rtol=1e-4)


@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_double_backward(nstep, bi):
    case = nstep.NStepCase(2, False, 2, bi, (2, 1), numpy.float64,
                           n_units=2)
    inputs = case.flat()
    rng = numpy.random.RandomState(2)
    grad_grads = [rng.uniform(-1, 1, x.shape) for x in inputs]

    def f(*arrays):
        hy, ys = _call(case, 'tanh', arrays)
        return (hy,) + ys
    gradient_check.check_double_backward(
        f, inputs, _grads(_call(case, 'tanh'), 1), grad_grads, atol=1e-4,
        rtol=1e-3)


def test_dropout_is_off_in_test_mode(nstep):
    case = nstep.NStepCase(2, False, 2, True, BATCHES['sorted'],
                           numpy.float32)
    with chainer.using_config('train', False):
        hy, ys = _call(case, 'tanh', dropout_ratio=0.9)
    nstep.check_outputs(hy, None, ys, case.reference(nstep.rnn_step('tanh')),
                        numpy.float32)


def test_dropout_between_layers_only(nstep):
    case = nstep.NStepCase(2, False, 2, False, BATCHES['sorted'],
                           numpy.float64)
    hy0, ys0 = _call(case, 'tanh')
    with chainer.using_config('train', True):
        numpy.random.seed(0)
        hy, ys = _call(case, 'tanh', dropout_ratio=0.5)
    numpy.testing.assert_allclose(hy.array[0], hy0.array[0])
    assert not numpy.allclose(hy.array[1], hy0.array[1])


@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_impl_with_a_step_function(nstep, bi):
    # n_step_rnn_impl runs any cell given as f(x, h, c, w, b) -> (h, c),
    # with h and c cut to the mini-batch of each step.
    case = nstep.NStepCase(2, False, 2, bi, BATCHES['growing'],
                           numpy.float64)
    cx = case.hx * 0.5
    shapes = []

    def f(x, h, c, w, b):
        shapes.append((x.shape[0], h.shape[0], c.shape[0]))
        h_new = F.tanh(F.linear(x, w[0], b[0]) + F.linear(h, w[1], b[1]))
        return h_new, c * 2

    hy, cy, ys = n_step_rnn.n_step_rnn_impl(
        f, 2, 0.0, case.hx, cx, case.ws, case.bs, case.xs, bi)
    assert all(n == m == k for n, m, k in shapes)
    nstep.check_outputs(hy, None, ys, case.reference(nstep.rnn_step('tanh')),
                        numpy.float64)
    # Each state row is doubled once per step of its sequence.
    n_steps = (numpy.arange(3)[:, None] < numpy.array([1, 3, 2])).sum(1)
    numpy.testing.assert_allclose(
        cy.array, cx * (2.0 ** n_steps)[None, :, None])


@pytest.mark.parametrize('kwargs, error, message', [
    ({'train': True}, ValueError, 'train argument is not supported'),
    ({'use_cudnn': True}, ValueError, 'use_cudnn argument is not supported'),
    ({'foo': 1}, TypeError, 'unexpected keyword argument'),
    ({'activation': 'sigmoid'}, ValueError,
     r'Invalid activation: "sigmoid"\. Please select from \[tanh,relu\]'),
], ids=['train', 'use_cudnn', 'unknown', 'activation'])
@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_invalid_kwargs(nstep, kwargs, error, message, bi):
    case = nstep.NStepCase(2, False, 1, bi, (2, 1), numpy.float32)
    f = F.n_step_birnn if bi else F.n_step_rnn
    with pytest.raises(error, match=message):
        f(1, 0.0, case.hx, case.ws, case.bs, case.xs, **kwargs)


def test_inconsistent_input_size(nstep):
    case = nstep.NStepCase(2, False, 1, False, (2, 1), numpy.float32)
    xs = [x[:, :2] for x in case.xs]
    with pytest.raises(ValueError, match='Inconsistent input size'):
        F.n_step_rnn(1, 0.0, case.hx, case.ws, case.bs, xs)


@attr.gpu
@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
@pytest.mark.parametrize('activation', ['tanh', 'relu'])
def test_forward_backward_gpu(nstep, bi, activation):
    case = nstep.NStepCase(2, False, 2, bi, BATCHES['sorted'], numpy.float32)
    expected = case.reference(nstep.rnn_step(activation))
    case.to_gpu()
    hx, _, ws, bs, xs = case.unflatten(
        [chainer.Variable(a) for a in case.flat()])
    f = F.n_step_birnn if bi else F.n_step_rnn
    hy, ys = f(2, 0.0, hx, ws, bs, xs, activation=activation)
    nstep.check_outputs(hy, None, ys, expected, numpy.float32)
    (F.sum(hy) + sum(F.sum(y) for y in ys)).backward()
    assert all(x.grad is not None for x in xs)
