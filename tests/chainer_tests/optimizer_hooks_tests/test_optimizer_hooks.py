import numpy
import pytest

import chainer
from chainer import optimizer_hooks
from chainer import optimizers
from chainer.optimizer_hooks import gradient_noise


def make_link(dtype=numpy.float32, seed=0):
    rng = numpy.random.RandomState(seed)
    link = chainer.Link()
    with link.init_scope():
        link.W = chainer.Parameter(rng.uniform(-1, 1, (3, 4)).astype(dtype))
        link.b = chainer.Parameter(rng.uniform(-1, 1, (4,)).astype(dtype))
        link.lazy = chainer.Parameter()
    # As in the original, an uninitialized parameter has no readable
    # gradient until it is cleared.
    link.lazy.cleargrad()
    link.W.grad = rng.uniform(-1, 1, (3, 4)).astype(dtype)
    link.b.grad = rng.uniform(-1, 1, (4,)).astype(dtype)
    return link


def apply_hook(hook, link, lr=0.):
    """Runs one SGD update with the hook and returns the gradients seen."""
    opt = optimizers.SGD(lr=lr).setup(link)
    opt.add_hook(hook)
    seen = {}

    def record(rule, param):
        seen[param.name] = param.grad.copy()

    for param in link.params(False):
        param.update_rule.add_hook(record, name='record')
    opt.update()
    return seen


@pytest.mark.parametrize('cls, args, each', [
    (optimizer_hooks.WeightDecay, (0.1,), True),
    (optimizer_hooks.Lasso, (0.1,), True),
    (optimizer_hooks.GradientClipping, (1.,), False),
    (optimizer_hooks.GradientHardClipping, (-1., 1.), True),
    (optimizer_hooks.GradientNoise, (0.1,), True),
    (optimizer_hooks.GradientLARS, (), True),
])
def test_attributes(cls, args, each):
    hook = cls(*args)
    assert hook.name == cls.__name__
    assert hook.timing == 'pre'
    assert getattr(hook, 'call_for_each_param', False) is each


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_weight_decay(dtype):
    link = make_link(dtype)
    expected = {p.name: p.grad + dtype(0.2) * p.array
                for p in link.params(False)}
    seen = apply_hook(optimizer_hooks.WeightDecay(0.2), link)
    for name, grad in expected.items():
        numpy.testing.assert_allclose(seen[name], grad, rtol=1e-6)


def test_weight_decay_scales_with_loss_scale():
    link = make_link()
    link.W._loss_scale = 4.
    expected = link.W.grad + numpy.float32(0.8) * link.W.array
    optimizer_hooks.WeightDecay(0.2)(link.W.update_rule, link.W)
    numpy.testing.assert_allclose(link.W.grad, expected, rtol=1e-6)


def test_lasso():
    link = make_link()
    link.W.array[0, 0] = 0.
    expected = {p.name: p.grad + 0.1 * numpy.sign(p.array)
                for p in link.params(False)}
    seen = apply_hook(optimizer_hooks.Lasso(0.1), link)
    for name, grad in expected.items():
        numpy.testing.assert_allclose(seen[name], grad, rtol=1e-6)
    assert seen['W'][0, 0] == link.W.grad[0, 0]


@pytest.mark.parametrize('threshold', [0.5, 100.])
def test_gradient_clipping(threshold):
    link = make_link(numpy.float64)
    grads = {p.name: p.grad.copy() for p in link.params(False)}
    norm = numpy.sqrt(sum((g ** 2).sum() for g in grads.values()))
    seen = apply_hook(optimizer_hooks.GradientClipping(threshold), link)
    rate = min(1., threshold / norm)
    for name, grad in grads.items():
        numpy.testing.assert_allclose(seen[name], grad * rate, rtol=1e-12)
    if threshold < norm:
        clipped = numpy.sqrt(sum((g ** 2).sum() for g in seen.values()))
        assert clipped == pytest.approx(threshold)


def test_gradient_clipping_of_zero_gradients():
    link = make_link()
    link.cleargrads()
    seen = apply_hook(optimizer_hooks.GradientClipping(1.), link)
    numpy.testing.assert_array_equal(seen['W'], 0)


def test_gradient_hard_clipping():
    link = make_link()
    expected = {p.name: numpy.clip(p.grad, -0.3, 0.2)
                for p in link.params(False)}
    seen = apply_hook(optimizer_hooks.GradientHardClipping(-0.3, 0.2), link)
    for name, grad in expected.items():
        numpy.testing.assert_array_equal(seen[name], grad)


@pytest.mark.parametrize('threshold', [1e-2, 1e3])
def test_gradient_lars(threshold):
    link = make_link(numpy.float64)
    wd, eps = 0.01, 1e-9
    expected = {}
    for p in link.params(False):
        p_norm = numpy.linalg.norm(p.array)
        g_norm = numpy.linalg.norm(p.grad)
        rate = p_norm / (eps + g_norm + wd * p_norm) \
            if p_norm > threshold else 1.
        expected[p.name] = (p.grad + wd * p.array) * rate
    seen = apply_hook(
        optimizer_hooks.GradientLARS(threshold=threshold, weight_decay=wd,
                                     eps=eps), link)
    for name, grad in expected.items():
        numpy.testing.assert_allclose(seen[name], grad, rtol=1e-12)


def test_gradient_noise_with_custom_function():
    calls = []

    def noise(xp, shape, dtype, hook, opt):
        calls.append((shape, dtype, hook.eta, opt.t))
        return xp.full(shape, 0.5, dtype)

    link = make_link()
    before = {p.name: p.grad.copy() for p in link.params(False)}
    seen = apply_hook(optimizer_hooks.GradientNoise(0.3, noise), link)
    for name, grad in before.items():
        numpy.testing.assert_allclose(seen[name], grad + 0.5, rtol=1e-6)
    assert sorted(calls) == [((3, 4), numpy.float32, 0.3, 0),
                             ((4,), numpy.float32, 0.3, 0)]


def test_exponential_decay_noise():
    class Rule:
        t = 3

    class Hook:
        eta = 0.2

    numpy.random.seed(7)
    noise = gradient_noise.exponential_decay_noise(
        numpy, (1000,), numpy.float32, Hook(), Rule())
    numpy.random.seed(7)
    std = numpy.sqrt(0.2 / (1 + 3) ** 0.55)
    expected = numpy.random.normal(0, std, (1000,)).astype(numpy.float32)
    assert noise.dtype == numpy.float32
    numpy.testing.assert_array_equal(noise, expected)
    assert noise.std() == pytest.approx(std, rel=0.1)


def test_hooks_change_the_update():
    link = make_link()
    expected = link.W.array - 0.1 * numpy.clip(link.W.grad, -0.1, 0.1)
    opt = optimizers.SGD(lr=0.1).setup(link)
    opt.add_hook(optimizer_hooks.GradientHardClipping(-0.1, 0.1))
    opt.update()
    numpy.testing.assert_allclose(link.W.array, expected, rtol=1e-6)


@pytest.mark.parametrize('hook', [
    optimizer_hooks.WeightDecay(0.1), optimizer_hooks.Lasso(0.1),
    optimizer_hooks.GradientHardClipping(-1, 1),
    optimizer_hooks.GradientNoise(0.1), optimizer_hooks.GradientLARS()],
    ids=lambda h: h.name)
def test_hooks_skip_parameters_without_arrays(hook):
    param = chainer.Parameter()
    param.cleargrad()
    hook(None, param)
    assert param.array is None and param.grad is None
