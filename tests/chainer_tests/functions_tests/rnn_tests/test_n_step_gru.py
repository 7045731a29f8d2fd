import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer.testing import attr


BATCHES = {
    'sorted': (3, 3, 2, 1),
    'one-step': (2,),
    'growing': (1, 3, 2),
    'empty-step': (2, 1, 0),
}


def _call(case, arrays=None, dropout_ratio=0.0):
    hx, _, ws, bs, xs = case.unflatten(arrays or case.flat())
    f = F.n_step_bigru if case.use_bi_direction else F.n_step_gru
    return f(case.n_layers, dropout_ratio, hx, ws, bs, xs)


def _grads(outputs, seed):
    rng = numpy.random.RandomState(seed)
    hy, ys = outputs
    return [rng.uniform(-1, 1, y.shape) for y in (hy,) + ys]


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('batches', list(BATCHES))
@pytest.mark.parametrize('n_layers', [1, 2])
@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_forward(nstep, dtype, batches, n_layers, bi):
    case = nstep.NStepCase(6, False, n_layers, bi, BATCHES[batches], dtype)
    hy, ys = _call(case)
    nstep.check_outputs(hy, None, ys, case.reference(nstep.gru_step), dtype)


@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_forward_more_states_than_sequences(nstep, bi):
    case = nstep.NStepCase(6, False, 2, bi, (2, 1), numpy.float64,
                           state_batch=3)
    hy, ys = _call(case)
    nstep.check_outputs(hy, None, ys, case.reference(nstep.gru_step),
                        numpy.float64)
    numpy.testing.assert_array_equal(hy.array[:, 2:], case.hx[:, 2:])


@pytest.mark.parametrize('batches', ['sorted', 'growing'])
@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_backward(nstep, batches, bi):
    case = nstep.NStepCase(6, False, 2, bi, BATCHES[batches],
                           numpy.float64)

    def f(*arrays):
        hy, ys = _call(case, arrays)
        return (hy,) + ys
    gradient_check.check_backward(f, case.flat(), _grads(_call(case), 1),
                                  atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_double_backward(nstep, bi):
    case = nstep.NStepCase(6, False, 2, bi, (2, 1), numpy.float64,
                           n_units=2)
    inputs = case.flat()
    rng = numpy.random.RandomState(2)
    grad_grads = [rng.uniform(-1, 1, x.shape) for x in inputs]

    def f(*arrays):
        hy, ys = _call(case, arrays)
        return (hy,) + ys
    gradient_check.check_double_backward(
        f, inputs, _grads(_call(case), 1), grad_grads, atol=1e-4,
        rtol=1e-3)


def test_dropout_is_off_in_test_mode(nstep):
    case = nstep.NStepCase(6, False, 2, True, BATCHES['sorted'],
                           numpy.float32)
    with chainer.using_config('train', False):
        hy, ys = _call(case, dropout_ratio=0.9)
    nstep.check_outputs(hy, None, ys, case.reference(nstep.gru_step),
                        numpy.float32)


def test_dropout_between_layers_only(nstep):
    case = nstep.NStepCase(6, False, 2, False, BATCHES['sorted'],
                           numpy.float64)
    hy0, ys0 = _call(case)
    with chainer.using_config('train', True):
        numpy.random.seed(0)
        hy, ys = _call(case, dropout_ratio=0.5)
    numpy.testing.assert_allclose(hy.array[0], hy0.array[0])
    assert not numpy.allclose(hy.array[1], hy0.array[1])


def test_parameter_gradients_are_distinct_arrays(nstep):
    case = nstep.NStepCase(6, False, 1, True, BATCHES['sorted'],
                           numpy.float32)
    params = [chainer.Variable(a) for a in case.flat()[:-len(case.xs)]]
    hx, _, ws, bs, _ = case.unflatten(params + case.xs)
    hy, ys = F.n_step_bigru(1, 0.0, hx, ws, bs, case.xs)
    (F.sum(hy) + sum(F.sum(y) for y in ys)).backward()
    for i, p in enumerate(params):
        assert p.grad.shape == p.shape
        for q in params[i + 1:]:
            assert not numpy.shares_memory(p.grad, q.grad)


@pytest.mark.parametrize('kwargs, error, message', [
    ({'train': True}, ValueError, 'train argument is not supported'),
    ({'use_cudnn': True}, ValueError, 'use_cudnn argument is not supported'),
    ({'foo': 1}, TypeError, 'unexpected keyword argument'),
], ids=['train', 'use_cudnn', 'unknown'])
@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_invalid_kwargs(nstep, kwargs, error, message, bi):
    case = nstep.NStepCase(6, False, 1, bi, (2, 1), numpy.float32)
    f = F.n_step_bigru if bi else F.n_step_gru
    with pytest.raises(error, match=message):
        f(1, 0.0, case.hx, case.ws, case.bs, case.xs, **kwargs)


def test_inconsistent_input_size(nstep):
    case = nstep.NStepCase(6, False, 1, False, (2, 1), numpy.float32)
    xs = [x[:, :2] for x in case.xs]
    with pytest.raises(ValueError, match='Inconsistent input size'):
        F.n_step_gru(1, 0.0, case.hx, case.ws, case.bs, xs)


@attr.gpu
@pytest.mark.parametrize('bi', [False, True], ids=['uni', 'bi'])
def test_forward_backward_gpu(nstep, bi):
    case = nstep.NStepCase(6, False, 2, bi, BATCHES['sorted'], numpy.float32)
    expected = case.reference(nstep.gru_step)
    case.to_gpu()
    hx, _, ws, bs, xs = case.unflatten(
        [chainer.Variable(a) for a in case.flat()])
    f = F.n_step_bigru if bi else F.n_step_gru
    hy, ys = f(2, 0.0, hx, ws, bs, xs)
    nstep.check_outputs(hy, None, ys, expected, numpy.float32)
    (F.sum(hy) + sum(F.sum(y) for y in ys)).backward()
    assert all(x.grad is not None for x in xs)
