"""The update formulas of the optimizers, against NumPy re-statements and
against the numbers of Chainer 7.8.1 (fixtures/original_updates.npz)."""

import math
import os
import pickle
import warnings

import numpy
import pytest

import chainer
from chainer import optimizer
from chainer import optimizer_hooks
from chainer import optimizers as O
from chainer.serializers import npz

FIXTURE = os.path.join(
    os.path.dirname(__file__), 'fixtures', 'original_updates.npz')


# NumPy re-statements of the update rules, in float64. Each takes the
# parameter, the gradient, the state dictionary (filled at the first
# call), the hyperparameters and the step count t (from 1).


def ref_sgd(p, g, s, hp, t):
    p -= hp['lr'] * g


def ref_momentum_sgd(p, g, s, hp, t):
    v = s.setdefault('v', numpy.zeros_like(p))
    v[...] = hp['momentum'] * v - hp['lr'] * g
    p += v


def ref_corrected_momentum_sgd(p, g, s, hp, t):
    v = s.setdefault('v', numpy.zeros_like(p))
    v[...] = hp['momentum'] * v - g
    p += hp['lr'] * v


def ref_nesterov_ag(p, g, s, hp, t):
    v = s.setdefault('v', numpy.zeros_like(p))
    mu, lr = hp['momentum'], hp['lr']
    v[...] = mu * v - lr * g
    p += mu * mu * v - (1 + mu) * lr * g


def ref_ada_grad(p, g, s, hp, t):
    h = s.setdefault('h', numpy.zeros_like(p))
    h += g * g
    p -= hp['lr'] * g / (numpy.sqrt(h) + hp['eps'])


def ref_ada_delta(p, g, s, hp, t):
    msg = s.setdefault('msg', numpy.zeros_like(p))
    msdx = s.setdefault('msdx', numpy.zeros_like(p))
    rho, eps = hp['rho'], hp['eps']
    msg[...] = rho * msg + (1 - rho) * g * g
    dx = numpy.sqrt((msdx + eps) / (msg + eps)) * g
    msdx[...] = rho * msdx + (1 - rho) * dx * dx
    p -= dx


def ref_adam(p, g, s, hp, t):
    m = s.setdefault('m', numpy.zeros_like(p))
    v = s.setdefault('v', numpy.zeros_like(p))
    m += (1 - hp['beta1']) * (g - m)
    v += (1 - hp['beta2']) * (g * g - v)
    denom = v
    if hp.get('amsgrad'):
        vhat = s.setdefault('vhat', numpy.zeros_like(p))
        vhat[...] = numpy.maximum(vhat, v)
        denom = vhat
    alpha_t = hp['alpha'] * math.sqrt(1 - hp['beta2'] ** t) / (
        1 - hp['beta1'] ** t)
    step = alpha_t / (numpy.sqrt(denom) + hp['eps'])
    if hp.get('adabound'):
        final_lr = hp['final_lr']
        lower = final_lr * (1 - 1 / (hp['gamma'] * t + 1))
        upper = final_lr * (1 + 1 / (hp['gamma'] * t))
        step = numpy.clip(step, lower, upper)
    p -= hp['eta'] * (step * m + hp['weight_decay_rate'] * p)


def ref_rmsprop(p, g, s, hp, t):
    ms = s.setdefault('ms', numpy.zeros_like(p))
    ms[...] = hp['alpha'] * ms + (1 - hp['alpha']) * g * g
    if hp['eps_inside_sqrt']:
        denom = numpy.sqrt(ms + hp['eps'])
    else:
        denom = numpy.sqrt(ms) + hp['eps']
    p -= hp['lr'] * g / denom


def ref_rmsprop_graves(p, g, s, hp, t):
    n = s.setdefault('n', numpy.zeros_like(p))
    gm = s.setdefault('g', numpy.zeros_like(p))
    delta = s.setdefault('delta', numpy.zeros_like(p))
    a = hp['alpha']
    n[...] = a * n + (1 - a) * g * g
    gm[...] = a * gm + (1 - a) * g
    delta[...] = hp['momentum'] * delta - hp['lr'] * g / numpy.sqrt(
        n - gm * gm + hp['eps'])
    p += delta


def ref_smorms3(p, g, s, hp, t):
    mem = s.setdefault('mem', numpy.ones_like(p))
    gm = s.setdefault('g', numpy.zeros_like(p))
    g2 = s.setdefault('g2', numpy.zeros_like(p))
    r = 1 / (mem + 1)
    gm[...] = (1 - r) * gm + r * g
    g2[...] = (1 - r) * g2 + r * g * g
    x = gm * gm / (g2 + hp['eps'])
    p -= g * numpy.minimum(x, hp['lr']) / (numpy.sqrt(g2) + hp['eps'])
    mem[...] = 1 + mem * (1 - x)


def ref_msvag(p, g, s, hp, t):
    m = s.setdefault('m', numpy.zeros_like(p))
    v = s.setdefault('v', numpy.zeros_like(p))
    beta = hp['beta']
    bp = beta ** t
    rho = min(((1 - beta) ** 2) * (1 - bp ** 2)
              / (((1 - bp) ** 2) * (1 - beta ** 2)), 0.9999)
    m += (1 - beta) * (g - m)
    v += (1 - beta) * (g * g - v)
    mt = m / (1 - bp)
    vt = v / (1 - bp)
    s_ = (vt - mt * mt) / (1 - rho)
    with numpy.errstate(invalid='ignore'):
        factor = numpy.clip(mt * mt / (mt * mt + rho * s_), 0, 1)
    factor[numpy.isnan(factor)] = 0
    p -= hp['eta'] * (hp['lr'] * mt * factor + hp['weight_decay_rate'] * p)


# name: (constructor, reference, hyperparameters of the reference)
CASES = {
    'SGD': (lambda: O.SGD(lr=0.1), ref_sgd, {'lr': 0.1}),
    'MomentumSGD': (
        lambda: O.MomentumSGD(lr=0.1, momentum=0.8), ref_momentum_sgd,
        {'lr': 0.1, 'momentum': 0.8}),
    'CorrectedMomentumSGD': (
        lambda: O.CorrectedMomentumSGD(lr=0.1),
        ref_corrected_momentum_sgd, {'lr': 0.1, 'momentum': 0.9}),
    'NesterovAG': (
        lambda: O.NesterovAG(lr=0.1), ref_nesterov_ag,
        {'lr': 0.1, 'momentum': 0.9}),
    'AdaGrad': (
        lambda: O.AdaGrad(lr=0.1), ref_ada_grad, {'lr': 0.1, 'eps': 1e-8}),
    'AdaDelta': (
        lambda: O.AdaDelta(), ref_ada_delta, {'rho': 0.95, 'eps': 1e-6}),
    'Adam': (
        lambda: O.Adam(alpha=0.05), ref_adam,
        {'alpha': 0.05, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
         'eta': 1.0, 'weight_decay_rate': 0}),
    'AdamDecay': (
        lambda: O.Adam(alpha=0.05, weight_decay_rate=0.1, eta=0.5),
        ref_adam,
        {'alpha': 0.05, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
         'eta': 0.5, 'weight_decay_rate': 0.1}),
    'AdamW': (
        lambda: O.AdamW(weight_decay_rate=0.01), ref_adam,
        {'alpha': 0.001, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
         'eta': 1.0, 'weight_decay_rate': 0.01}),
    'AMSGrad': (
        lambda: O.AMSGrad(alpha=0.05), ref_adam,
        {'alpha': 0.05, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
         'eta': 1.0, 'weight_decay_rate': 0, 'amsgrad': True}),
    'AdaBound': (
        lambda: O.AdaBound(alpha=0.05), ref_adam,
        {'alpha': 0.05, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
         'eta': 1.0, 'weight_decay_rate': 0, 'adabound': True,
         'final_lr': 0.1, 'gamma': 1e-3}),
    'AMSBound': (
        lambda: O.AMSBound(alpha=0.05), ref_adam,
        {'alpha': 0.05, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
         'eta': 1.0, 'weight_decay_rate': 0, 'adabound': True,
         'amsgrad': True, 'final_lr': 0.1, 'gamma': 1e-3}),
    'MSVAG': (
        lambda: O.MSVAG(lr=0.1, weight_decay_rate=0.1), ref_msvag,
        {'lr': 0.1, 'beta': 0.9, 'eta': 1.0, 'weight_decay_rate': 0.1}),
    'RMSprop': (
        lambda: O.RMSprop(lr=0.1), ref_rmsprop,
        {'lr': 0.1, 'alpha': 0.99, 'eps': 1e-8, 'eps_inside_sqrt': False}),
    'RMSpropInside': (
        lambda: O.RMSprop(lr=0.1, eps_inside_sqrt=True), ref_rmsprop,
        {'lr': 0.1, 'alpha': 0.99, 'eps': 1e-8, 'eps_inside_sqrt': True}),
    'RMSpropGraves': (
        lambda: O.RMSpropGraves(lr=0.1), ref_rmsprop_graves,
        {'lr': 0.1, 'alpha': 0.95, 'momentum': 0.9, 'eps': 1e-4}),
    'SMORMS3': (
        lambda: O.SMORMS3(lr=0.1), ref_smorms3, {'lr': 0.1, 'eps': 1e-16}),
}
FLOAT16_CASES = ('SGD', 'MomentumSGD', 'Adam', 'AMSGrad', 'AdaBound')
TOLERANCE = {
    numpy.float16: {'rtol': 1e-2, 'atol': 1e-2},
    numpy.float32: {'rtol': 1e-5, 'atol': 1e-6},
    numpy.float64: {'rtol': 1e-12, 'atol': 1e-14},
}


def make_link(rng, dtype):
    link = chainer.Link()
    with link.init_scope():
        link.W = chainer.Parameter(rng.randn(3, 4).astype(dtype))
        link.b = chainer.Parameter(rng.randn(4).astype(dtype))
    return link


def train(make, dtype, steps=6, hooks=()):
    rng = numpy.random.RandomState(1)
    link = make_link(rng, dtype)
    opt = make().setup(link)
    for hook in hooks:
        opt.add_hook(hook)
    grads = []
    for _ in range(steps):
        gW = rng.randn(3, 4).astype(dtype)
        gb = rng.randn(4).astype(dtype)
        grads.append((gW, gb))
        link.W.grad = gW.copy()
        link.b.grad = gb.copy()
        opt.update()
    return link, opt, grads


def reference(name, dtype, steps=6, decay=None):
    _, ref, hp = CASES[name]
    rng = numpy.random.RandomState(1)
    initial = make_link(rng, dtype)
    params = [initial.W.array.astype(numpy.float64),
              initial.b.array.astype(numpy.float64)]
    states = [{}, {}]
    for t in range(1, steps + 1):
        grads = [rng.randn(3, 4).astype(dtype).astype(numpy.float64),
                 rng.randn(4).astype(dtype).astype(numpy.float64)]
        for p, g, s in zip(params, grads, states):
            if decay is not None:
                g = g + decay * p
            ref(p, g, s, hp, t)
    return params, states


def dtype_cases():
    for name in CASES:
        for dtype in (numpy.float32, numpy.float64):
            yield name, dtype
        if name in FLOAT16_CASES:
            yield name, numpy.float16


@pytest.mark.parametrize('name, dtype', list(dtype_cases()))
def test_update_matches_numpy_restatement(name, dtype):
    make, _, _ = CASES[name]
    link, opt, _ = train(make, dtype)
    params, states = reference(name, dtype)
    tol = TOLERANCE[dtype]
    if name == 'MSVAG' and dtype == numpy.float32:
        # Its variance estimate vt - mt ** 2 cancels digits.
        tol = {'rtol': 1e-3, 'atol': 1e-4}
    assert opt.t == 6
    assert link.W.dtype == dtype and link.b.dtype == dtype
    numpy.testing.assert_allclose(link.W.array, params[0], **tol)
    numpy.testing.assert_allclose(link.b.array, params[1], **tol)
    state = link.W.update_rule.state or {}
    assert sorted(state) == sorted(states[0])
    for key, value in states[0].items():
        assert state[key].dtype == dtype
        numpy.testing.assert_allclose(state[key], value, **tol)


@pytest.mark.parametrize('name', sorted(CASES))
def test_update_of_zero_dimensional_parameter(name):
    # NumPy returns scalars, not arrays, from ufuncs on 0-d arrays; the
    # updates must still work in place.
    make, ref, hp = CASES[name]
    link = chainer.Link()
    with link.init_scope():
        link.p = chainer.Parameter(numpy.array(0.5))
    opt = make().setup(link)
    expected = numpy.array([0.5])
    state = {}
    for t, g in enumerate((0.3, -0.2, 0.1), 1):
        link.p.grad = numpy.array(g)
        opt.update()
        ref(expected, numpy.array([g]), state, hp, t)
    assert link.p.array.shape == ()
    numpy.testing.assert_allclose(link.p.array, expected[0], rtol=1e-12)


@pytest.mark.parametrize('name', sorted(CASES))
def test_update_with_weight_decay_hook(name):
    make, _, _ = CASES[name]
    link, _, _ = train(
        make, numpy.float64, hooks=[optimizer_hooks.WeightDecay(0.05)])
    params, _ = reference(name, numpy.float64, decay=0.05)
    numpy.testing.assert_allclose(link.W.array, params[0], rtol=1e-12,
                                  atol=1e-14)
    numpy.testing.assert_allclose(link.b.array, params[1], rtol=1e-12,
                                  atol=1e-14)


@pytest.fixture(scope='module')
def original_updates():
    # {(dtype name, config name): flattened final weight and bias}
    with numpy.load(FIXTURE) as f:
        return {(dtype, name): row
                for dtype in ('float32', 'float16')
                for name, row in zip(f[dtype + '_names'], f[dtype])}


@pytest.mark.parametrize('name, dtype', [
    (name, dtype) for name, dtype in dtype_cases()
    if dtype != numpy.float64])
def test_update_matches_chainer_7_8(name, dtype, original_updates):
    make, _, _ = CASES[name]
    link, _, _ = train(make, dtype)
    actual = numpy.concatenate([link.W.array.ravel(), link.b.array])
    expected = original_updates[numpy.dtype(dtype).name, name]
    if name == 'MSVAG':
        # beta ** t here, a running product there: float64 rounding only.
        numpy.testing.assert_allclose(actual, expected, rtol=1e-6)
    else:
        numpy.testing.assert_array_equal(actual, expected)


DEFAULTS = {
    O.SGD: {'lr': 0.01},
    O.MomentumSGD: {'lr': 0.01, 'momentum': 0.9},
    O.CorrectedMomentumSGD: {'lr': 0.01, 'momentum': 0.9},
    O.NesterovAG: {'lr': 0.01, 'momentum': 0.9},
    O.AdaGrad: {'lr': 0.001, 'eps': 1e-8},
    O.AdaDelta: {'rho': 0.95, 'eps': 1e-6},
    O.Adam: {'alpha': 0.001, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8,
             'eta': 1.0, 'weight_decay_rate': 0, 'amsgrad': False,
             'adabound': False, 'final_lr': 0.1, 'gamma': 1e-3},
    O.AMSGrad: {'amsgrad': True, 'adabound': False},
    O.AdaBound: {'amsgrad': False, 'adabound': True},
    O.AMSBound: {'amsgrad': True, 'adabound': True},
    O.AdamW: {'weight_decay_rate': 0},
    O.MSVAG: {'lr': 0.1, 'beta': 0.9, 'eta': 1.0, 'weight_decay_rate': 0},
    O.RMSprop: {'lr': 0.01, 'alpha': 0.99, 'eps': 1e-8,
                'eps_inside_sqrt': False},
    O.RMSpropGraves: {'lr': 1e-4, 'alpha': 0.95, 'momentum': 0.9,
                      'eps': 1e-4},
    O.SMORMS3: {'lr': 0.001, 'eps': 1e-16},
}


@pytest.mark.parametrize('cls', list(DEFAULTS), ids=lambda c: c.__name__)
def test_defaults_and_proxies(cls):
    opt = cls()
    for key, value in DEFAULTS[cls].items():
        assert getattr(opt, key) == value
        assert getattr(opt.hyperparam, key) == value
    rule = opt.create_update_rule()
    assert isinstance(rule, optimizer.UpdateRule)
    assert rule.is_elementwise
    assert rule.hyperparam.parent is opt.hyperparam
    first = next(iter(DEFAULTS[cls]))
    if not isinstance(getattr(opt, first), bool):
        setattr(opt, first, 0.5)
        assert getattr(rule.hyperparam, first) == 0.5


def test_rule_hyperparameter_overrides_optimizer():
    link = make_link(numpy.random.RandomState(0), numpy.float32)
    opt = O.SGD(lr=0.1).setup(link)
    link.b.update_rule.hyperparam.lr = 0.
    before_b = link.b.array.copy()
    before_W = link.W.array.copy()
    link.W.grad = numpy.ones((3, 4), numpy.float32)
    link.b.grad = numpy.ones(4, numpy.float32)
    opt.update()
    numpy.testing.assert_array_equal(link.b.array, before_b)
    numpy.testing.assert_allclose(link.W.array, before_W - 0.1, rtol=1e-6)


def test_rules_work_without_an_optimizer():
    from chainer.optimizers import adam, momentum_sgd
    rule = momentum_sgd.MomentumSGDRule(lr=0.5, momentum=0.)
    param = chainer.Parameter(numpy.array([1., 2.], numpy.float32))
    param.grad = numpy.array([1., 1.], numpy.float32)
    rule.update(param)
    numpy.testing.assert_array_equal(param.array, [0.5, 1.5])
    assert adam.AdamRule().hyperparam.alpha == 0.001


def test_update_modifies_arrays_in_place():
    link, _, _ = train(lambda: O.Adam(), numpy.float32, steps=1)
    W = link.W.array
    m = link.W.update_rule.state['m']
    link.W.grad = numpy.ones((3, 4), numpy.float32)
    link.W.update()
    assert link.W.array is W and link.W.update_rule.state['m'] is m


def test_no_update_without_gradient():
    link = make_link(numpy.random.RandomState(0), numpy.float32)
    before = link.W.array.copy()
    for make, _, _ in CASES.values():
        rule = make().create_update_rule()
        link.W.update_rule = rule
        link.W.cleargrad()
        link.W.update()
        numpy.testing.assert_array_equal(link.W.array, before)


def test_adam_learning_rate_and_bounds():
    opt = O.AdaBound(alpha=0.01, final_lr=0.2, gamma=0.1)
    with pytest.raises(RuntimeError, match='learning rate'):
        opt.alpha_t
    link = make_link(numpy.random.RandomState(0), numpy.float32)
    opt.setup(link)
    link.W.grad = numpy.ones((3, 4), numpy.float32)
    link.b.grad = numpy.ones(4, numpy.float32)
    opt.update()
    opt.update()
    expected = 0.01 * math.sqrt(1 - 0.999 ** 2) / (1 - 0.9 ** 2)
    assert opt.alpha_t == pytest.approx(expected)
    rule = link.W.update_rule
    assert rule.alpha_t == pytest.approx(expected)
    with pytest.warns(DeprecationWarning):
        assert opt.lr == pytest.approx(expected)
    with pytest.warns(DeprecationWarning):
        assert rule.lr == pytest.approx(expected)
    lower, upper = rule.bounds
    assert lower == pytest.approx(0.2 * (1 - 1 / (0.1 * 2 + 1)))
    assert upper == pytest.approx(0.2 * (1 + 1 / (0.1 * 2)))
    # Changing alpha scales the final learning rate.
    opt.alpha = 0.02
    assert rule.bounds[0] == pytest.approx(2 * lower)
    with pytest.raises(RuntimeError, match='bounds'):
        O.AdaBound().create_update_rule().bounds


@pytest.mark.parametrize('make, message', [
    (lambda: O.Adam(eps=1e-10), 'eps of Adam'),
    (lambda: O.RMSprop(eps=1e-10), 'eps of RMSprop'),
])
def test_eps_too_small_for_float16(make, message):
    link = make_link(numpy.random.RandomState(0), numpy.float16)
    opt = make().setup(link)
    link.cleargrads()
    if 'Adam' in message:
        # Adam computes in float32 for float16 parameters: 1e-10 is fine.
        opt.update()
        opt.eps = 1e-50
    with pytest.raises(ValueError, match=message):
        opt.update()


def test_msvag_resumes_exactly():
    # The bias correction depends only on t, which is saved.
    full, _, _ = train(lambda: O.MSVAG(lr=0.1), numpy.float64, steps=4)
    half, opt, _ = train(lambda: O.MSVAG(lr=0.1), numpy.float64, steps=2)
    saved = {}
    half.serialize(npz.DictionarySerializer(saved, 'model/'))
    opt.serialize(npz.DictionarySerializer(saved, 'opt/'))
    rng = numpy.random.RandomState(1)
    resumed = make_link(rng, numpy.float64)
    opt2 = O.MSVAG(lr=0.1).setup(resumed)
    resumed.serialize(npz.NpzDeserializer(saved, 'model/'))
    opt2.serialize(npz.NpzDeserializer(saved, 'opt/'))
    for _ in range(2):
        rng.randn(3, 4), rng.randn(4)
    for _ in range(2):
        resumed.W.grad = rng.randn(3, 4)
        resumed.b.grad = rng.randn(4)
        opt2.update()
    numpy.testing.assert_array_equal(resumed.W.array, full.W.array)


def test_optimizer_pickles_with_its_target():
    link, opt, _ = train(lambda: O.Adam(alpha=0.01), numpy.float32, 2)
    clone = pickle.loads(pickle.dumps(opt))
    assert clone.t == 2 and clone.alpha == 0.01
    assert clone.target.W.update_rule.hyperparam.parent is clone.hyperparam
    for opt_, link_ in ((opt, link), (clone, clone.target)):
        link_.W.grad = numpy.ones((3, 4), numpy.float32)
        link_.b.grad = numpy.ones(4, numpy.float32)
        opt_.update()
    numpy.testing.assert_array_equal(clone.target.W.array, link.W.array)


def test_gpu_paths_are_separate_methods():
    # update_core dispatches by device; the CPU path never calls the GPU
    # one (which needs CuPy).
    class Rule(optimizer.UpdateRule):
        def update_core_cpu(self, param):
            param.array += 1

    param = chainer.Parameter(numpy.zeros(2, numpy.float32))
    param.grad = numpy.zeros(2, numpy.float32)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        Rule().update(param)
    numpy.testing.assert_array_equal(param.array, [1, 1])


@pytest.mark.gpu
@pytest.mark.parametrize('name', sorted(CASES))
def test_gpu_update_matches_cpu(name):
    make, _, _ = CASES[name]
    cpu_link, _, _ = train(make, numpy.float32)
    rng = numpy.random.RandomState(1)
    link = make_link(rng, numpy.float32)
    link.to_device('@cupy:0')
    opt = make().setup(link)
    for _ in range(6):
        link.W.grad = link.W.device.send(rng.randn(3, 4).astype('f'))
        link.b.grad = link.b.device.send(rng.randn(4).astype('f'))
        opt.update()
    numpy.testing.assert_allclose(
        chainer.backends.cuda.to_cpu(link.W.array), cpu_link.W.array,
        rtol=1e-5, atol=1e-6)
