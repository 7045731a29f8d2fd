"""The optimizer update kernels against the NumPy code paths."""

import numpy
import pytest

import chainer
from chainer import optimizers
from chainer.optimizers import _elementwise
from chainer import testing
import chainerx_cpp

pytestmark = pytest.mark.skipif(
    not chainerx_cpp.is_available(),
    reason='the chainerx_cpp kernels are not built')

_OPTIMIZERS = {
    'sgd': lambda: optimizers.SGD(lr=0.1),
    'momentum_sgd': lambda: optimizers.MomentumSGD(lr=0.05, momentum=0.8),
    'adam': lambda: optimizers.Adam(),
    'adam_eta': lambda: optimizers.Adam(alpha=0.01, eta=0.5),
    'adamw': lambda: optimizers.AdamW(weight_decay_rate=0.1, eta=0.7),
    'amsgrad': lambda: optimizers.AMSGrad(alpha=0.01),
    'adabound': lambda: optimizers.AdaBound(alpha=0.05, final_lr=0.01),
    'amsbound': lambda: optimizers.AMSBound(alpha=0.05, final_lr=0.01),
}

# The kernel of each update rule: Adam's serves its variants.
_KERNELS = {
    'sgd': 'sgd_update',
    'momentum_sgd': 'momentum_sgd_update',
    'adam': 'adam_update',
    'adam_eta': 'adam_update',
    'adamw': 'adam_update',
    'amsgrad': 'adam_update',
    'adabound': 'adam_update',
    'amsbound': 'adam_update',
}


def _tol(dtype):
    if dtype == numpy.float32:
        return {'atol': 1e-6, 'rtol': 1e-5}
    return {'atol': 1e-14, 'rtol': 1e-12}


def _training(name, dtype, shape, steps=5):
    # A computation of the parameter and the state of its update rule
    # after some steps.
    def compute():
        rng = numpy.random.RandomState(0)
        link = chainer.Link()
        with link.init_scope():
            link.w = chainer.Parameter(
                numpy.asarray(rng.randn(*shape), dtype))
        optimizer = _OPTIMIZERS[name]()
        optimizer.setup(link)
        for step in range(steps):
            grad = numpy.asarray(rng.randn(*shape), dtype)
            if step == 2:
                grad *= 100  # a jump, so that AMSGrad's vhat matters
            link.w.grad = grad
            optimizer.update()
        state = link.w.update_rule.state
        return link.w.array, {key: state[key] for key in state}
    return compute


@pytest.mark.parametrize('name', sorted(_OPTIMIZERS))
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
# (1024, 1024) is large enough for several threads.
@pytest.mark.parametrize('shape', [(), (0,), (7,), (3, 4), (1024, 1024)])
def test_update(name, dtype, shape, in_both_modes):
    # One update of the kernel a step, but none of an empty parameter, nor
    # of a 0-d one, which is updated in float64 as Chainer 7.8 did on
    # NumPy 1 (see chainer.optimizers._elementwise.numpy1_scalars).
    steps = 5
    kernels = [_KERNELS[name]] * steps if shape and numpy.prod(shape) \
        else ()
    (expected, expected_state), (actual, actual_state) = in_both_modes(
        _training(name, dtype, shape, steps), kernels)
    assert actual.dtype == expected.dtype
    testing.assert_allclose(expected, actual, **_tol(dtype))
    assert sorted(actual_state) == sorted(expected_state)
    for key in expected_state:
        testing.assert_allclose(
            expected_state[key], actual_state[key], **_tol(dtype))


@pytest.mark.parametrize('name', ['sgd', 'adam'])
def test_float16_update(name, in_both_modes):
    # float16 is not a dtype of the kernels: the NumPy update runs.
    (expected, _), (actual, _) = in_both_modes(
        _training(name, numpy.float16, (3, 4)), ())
    numpy.testing.assert_array_equal(expected, actual)


def test_update_in_place_needs_contiguous_arrays():
    grad = numpy.ones((3, 4), numpy.float32)
    calls = []

    def update(*arrays):
        del calls[:]
        return _elementwise.update_in_place(calls.append, grad, *arrays)

    with chainer.using_config('use_chainerx_cpp', 'always'):
        assert update(grad.copy()) and calls
        assert update(grad.copy(), None) and calls
        assert not update(numpy.ones((4, 3), numpy.float32).T)
        assert not update(numpy.ones((3, 4, 1), numpy.float32))
        assert not update(grad.astype(numpy.float64))
        assert not calls
    with chainer.using_config('use_chainerx_cpp', 'never'):
        assert not update(grad.copy()) and not calls


def test_kernels_reject_bad_input():
    kernels = chainerx_cpp.get_kernels()
    p = numpy.zeros((3, 4), numpy.float32)
    with pytest.raises(ValueError):
        kernels.sgd_update(p, p[:2], 0.1)
    with pytest.raises(ValueError):
        kernels.sgd_update(p.T, p.T.copy(), 0.1)
    with pytest.raises(ValueError):
        kernels.momentum_sgd_update(p, p, p.astype(numpy.float64), 0.1, 0.9)
    with pytest.raises(ValueError):
        kernels.adam_update(p, p, p, p, p[:1], 1e-3, 0.9, 0.999, 1e-8, 1.0,
                            1.0, None)


@pytest.mark.parametrize('name', sorted(_OPTIMIZERS))
def test_dispatch(name, kernel_calls):
    with chainer.using_config('use_chainerx_cpp', 'always'):
        _training(name, numpy.float32, (3, 4), steps=2)()
    assert kernel_calls == [_KERNELS[name]] * 2
