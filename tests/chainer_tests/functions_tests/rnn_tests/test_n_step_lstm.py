import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer.testing import attr


# Mini-batch sizes of the time steps: sorted sequences of different
# lengths, one step, and (allowed, though not the documented use) sizes
# that grow or drop to zero.
BATCHES = {
    'sorted': (3, 3, 2, 1),
    'one-step': (2,),
    'growing': (1, 3, 2),
    'empty-step': (2, 1, 0),
}


def _call(case, arrays=None, dropout_ratio=0.0):
    hx, cx, ws, bs, xs = case.unflatten(arrays or case.flat())
    f = F.n_step_bilstm if case.use_bi_direction else F.n_step_lstm
    return f(case.n_layers, dropout_ratio, hx, cx, ws, bs, xs)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('batches', list(BATCHES))
@pytest.mark.parametrize('n_layers', [1, 2])
@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_forward(nstep, dtype, batches, n_layers, bi):
    case = nstep.NStepCase(8, True, n_layers, bi, BATCHES[batches], dtype)
    hy, cy, ys = _call(case)
    nstep.check_outputs(hy, cy, ys, case.reference(nstep.lstm_step), dtype)


@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_forward_more_states_than_sequences(nstep, bi):
    # hx and cx may hold more rows than the first step: the rows of no
    # sequence are returned unchanged.
    case = nstep.NStepCase(8, True, 2, bi, (2, 1), numpy.float64,
                           state_batch=4)
    hy, cy, ys = _call(case)
    nstep.check_outputs(hy, cy, ys, case.reference(nstep.lstm_step),
                        numpy.float64)
    numpy.testing.assert_array_equal(hy.array[:, 2:], case.hx[:, 2:])
    numpy.testing.assert_array_equal(cy.array[:, 2:], case.cx[:, 2:])


@pytest.mark.parametrize('batches', ['sorted', 'growing'])
@pytest.mark.parametrize('n_layers', [1, 2])
@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_backward(nstep, batches, n_layers, bi):
    case = nstep.NStepCase(8, True, n_layers, bi, BATCHES[batches],
                           numpy.float64)
    outputs = _call(case)
    rng = numpy.random.RandomState(1)
    grads = [rng.uniform(-1, 1, y.shape) for y in outputs[:2]]
    grads += [rng.uniform(-1, 1, y.shape) for y in outputs[2]]

    def f(*arrays):
        hy, cy, ys = _call(case, arrays)
        return (hy, cy) + ys
    gradient_check.check_backward(f, case.flat(), grads, atol=1e-5,
                                  rtol=1e-4)


@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_double_backward(nstep, bi):
    case = nstep.NStepCase(8, True, 2, bi, (2, 1), numpy.float64,
                           n_units=2)
    inputs = case.flat()
    rng = numpy.random.RandomState(2)
    outputs = _call(case)
    grads = [rng.uniform(-1, 1, y.shape) for y in outputs[:2]]
    grads += [rng.uniform(-1, 1, y.shape) for y in outputs[2]]
    grad_grads = [rng.uniform(-1, 1, x.shape) for x in inputs]

    def f(*arrays):
        hy, cy, ys = _call(case, arrays)
        return (hy, cy) + ys
    gradient_check.check_double_backward(
        f, inputs, grads, grad_grads, atol=1e-4, rtol=1e-3)


def test_dropout_is_off_in_test_mode(nstep):
    case = nstep.NStepCase(8, True, 2, False, BATCHES['sorted'],
                           numpy.float32)
    with chainer.using_config('train', False):
        hy, cy, ys = _call(case, dropout_ratio=0.9)
    nstep.check_outputs(hy, cy, ys, case.reference(nstep.lstm_step),
                        numpy.float32)


@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_dropout_between_layers_only(nstep, bi):
    case = nstep.NStepCase(8, True, 2, bi, BATCHES['sorted'],
                           numpy.float64)
    hy0, cy0, ys0 = _call(case)
    with chainer.using_config('train', True):
        numpy.random.seed(0)
        hy, cy, ys = _call(case, dropout_ratio=0.5)
    layer0 = slice(0, 2 if bi else 1)
    # The first layer sees the inputs as they are ...
    numpy.testing.assert_allclose(hy.array[layer0], hy0.array[layer0])
    numpy.testing.assert_allclose(cy.array[layer0], cy0.array[layer0])
    # ... the second, its inputs with dropout.
    assert not numpy.allclose(hy.array, hy0.array)
    assert not numpy.allclose(ys[0].array, ys0[0].array)


def test_one_layer_has_no_dropout(nstep):
    case = nstep.NStepCase(8, True, 1, True, BATCHES['sorted'],
                           numpy.float64)
    with chainer.using_config('train', True):
        hy, cy, ys = _call(case, dropout_ratio=0.5)
    nstep.check_outputs(hy, cy, ys, case.reference(nstep.lstm_step),
                        numpy.float64)


def test_variables_and_grads(nstep):
    case = nstep.NStepCase(8, True, 2, True, BATCHES['sorted'],
                           numpy.float32)
    hx, cx, ws, bs, xs = case.unflatten(
        [chainer.Variable(a) for a in case.flat()])
    hy, cy, ys = F.n_step_bilstm(2, 0.0, hx, cx, ws, bs, xs)
    (F.sum(hy) + F.sum(cy) + sum(F.sum(y) for y in ys)).backward()
    params = [hx, cx] + [w for ws_i in ws for w in ws_i] + [
        b for bs_i in bs for b in bs_i]
    for v in params + xs:
        assert v.grad is not None
        assert v.grad.shape == v.shape
    # Optimizer hooks update gradients in place: no two parameters may
    # share one gradient array.
    for i, p in enumerate(params):
        for q in params[i + 1:]:
            assert not numpy.shares_memory(p.grad, q.grad)


@pytest.mark.parametrize('kwargs, error, message', [
    ({'train': True}, ValueError, 'train argument is not supported'),
    ({'use_cudnn': True}, ValueError, 'use_cudnn argument is not supported'),
    ({'foo': 1}, TypeError, 'unexpected keyword argument'),
], ids=['train', 'use_cudnn', 'unknown'])
@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_invalid_kwargs(nstep, kwargs, error, message, bi):
    case = nstep.NStepCase(8, True, 1, bi, (2, 1), numpy.float32)
    f = F.n_step_bilstm if bi else F.n_step_lstm
    with pytest.raises(error, match=message):
        f(1, 0.0, case.hx, case.cx, case.ws, case.bs, case.xs, **kwargs)


def test_inconsistent_input_size(nstep):
    case = nstep.NStepCase(8, True, 1, False, (2, 1), numpy.float32)
    xs = [x[:, :2] for x in case.xs]
    with pytest.raises(ValueError, match='Inconsistent input size'):
        F.n_step_lstm(1, 0.0, case.hx, case.cx, case.ws, case.bs, xs)


def test_invalid_dropout_ratio(nstep):
    case = nstep.NStepCase(8, True, 2, False, (2, 1), numpy.float32)
    with pytest.raises(ValueError):
        _call(case, dropout_ratio=1.0)


@attr.gpu
@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_forward_backward_gpu(nstep, bi):
    case = nstep.NStepCase(8, True, 2, bi, BATCHES['sorted'], numpy.float32)
    expected = case.reference(nstep.lstm_step)
    case.to_gpu()
    hx, cx, ws, bs, xs = case.unflatten(
        [chainer.Variable(a) for a in case.flat()])
    f = F.n_step_bilstm if bi else F.n_step_lstm
    hy, cy, ys = f(2, 0.0, hx, cx, ws, bs, xs)
    nstep.check_outputs(hy, cy, ys, expected, numpy.float32)
    (F.sum(hy) + F.sum(cy) + sum(F.sum(y) for y in ys)).backward()
    assert all(x.grad is not None for x in xs)
