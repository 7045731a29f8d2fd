import copy
import pickle
import warnings

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import initializers
from chainer import optimizer
from chainer import optimizer_hooks
from chainer import optimizers
from chainer.serializers import npz


class Affine(chainer.Link):
    """y = x W^T + b, from fixed initial arrays."""

    def __init__(self, in_size, out_size, seed=0, dtype=numpy.float32):
        super().__init__()
        rng = numpy.random.RandomState(seed)
        with self.init_scope():
            self.W = chainer.Parameter(
                rng.uniform(-1, 1, (out_size, in_size)).astype(dtype))
            self.b = chainer.Parameter(numpy.zeros(out_size, dtype))

    def forward(self, x):
        return F.linear(x, self.W, self.b)


class Net(chainer.Chain):

    def __init__(self, dtype=numpy.float32):
        super().__init__()
        with self.init_scope():
            self.l1 = Affine(3, 4, 1, dtype)
            self.l2 = Affine(4, 2, 2, dtype)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def make_loss(model, x):
    def lossfun():
        return F.sum(model(x) ** 2)
    return lossfun


class CountingRule(optimizer.UpdateRule):
    """param -= lr * grad, with a state counting the updates."""

    def __init__(self, parent_hyperparam=None):
        super().__init__(parent_hyperparam)
        self.seen = []

    def init_state(self, param):
        self.state['count'] = numpy.zeros((), numpy.int64)
        self.state['acc'] = numpy.zeros_like(param.array)

    def update_core_cpu(self, param):
        if param.grad is None:
            return
        self.seen.append(param.grad.copy())
        self.state['count'] += 1
        self.state['acc'] += param.grad
        param.array -= self.hyperparam.lr * param.grad


class Plain(optimizer.GradientMethod):

    lr = optimizer.HyperparameterProxy('lr')

    def __init__(self, lr=0.1):
        super().__init__()
        self.hyperparam.lr = lr

    def create_update_rule(self):
        return CountingRule(self.hyperparam)


def param_with_grad(array, grad):
    param = chainer.Parameter(numpy.array(array))
    param.grad = numpy.array(grad, dtype=param.dtype)
    return param


# Hyperparameter --------------------------------------------------------


def test_hyperparameter_falls_back_to_parent():
    parent = optimizer.Hyperparameter()
    parent.lr = 0.1
    parent.momentum = 0.9
    child = optimizer.Hyperparameter(parent)
    child.lr = 0.01
    assert child.parent is parent
    assert child.lr == 0.01
    assert child.momentum == 0.9
    parent.momentum = 0.5
    assert child.momentum == 0.5
    assert child.get_dict() == {'lr': 0.01, 'momentum': 0.5}
    assert repr(child) == 'Hyperparameter(lr=0.01, momentum=0.5)'
    with pytest.raises(AttributeError):
        child.missing
    # The root's error is that of reading the entry from ``None``.
    with pytest.raises(AttributeError, match="'NoneType' object has no "
                       "attribute 'missing'"):
        parent.missing


def test_optimizer_class_attributes():
    assert optimizer.Optimizer._pre_update_hooks is None
    assert optimizer.Optimizer._post_update_hooks is None
    assert optimizer.Optimizer._loss_scale_max == 65504


def test_hyperparameter_copies_and_pickles():
    parent = optimizer.Hyperparameter()
    parent.lr = 0.1
    child = optimizer.Hyperparameter(parent)
    child.eps = 1e-3
    for clone in (copy.deepcopy(child), pickle.loads(pickle.dumps(child))):
        assert clone.get_dict() == {'lr': 0.1, 'eps': 1e-3}
        assert clone.parent is not parent


def test_hyperparameter_proxy():
    opt = Plain(lr=0.3)
    assert opt.lr == 0.3
    opt.lr = 0.2
    assert opt.hyperparam.lr == 0.2
    assert isinstance(Plain.lr, optimizer.HyperparameterProxy)
    assert 'lr' in Plain.lr.__doc__


# UpdateRule ------------------------------------------------------------


def test_update_rule_makes_state_at_first_update():
    hp = optimizer.Hyperparameter()
    hp.lr = 0.5
    rule = CountingRule(hp)
    param = param_with_grad([1., 2.], [2., 4.])
    assert rule.state is None and rule.t == 0
    rule.update(param)
    rule.update(param)
    assert rule.t == 2
    assert int(rule.state['count']) == 2
    numpy.testing.assert_array_equal(param.array, [-1., -2.])
    numpy.testing.assert_array_equal(rule.state['acc'], [4., 8.])


def test_disabled_rule_does_nothing():
    rule = CountingRule(optimizer.Hyperparameter())
    rule.hyperparam.lr = 1.
    rule.enabled = False
    param = param_with_grad([1.], [1.])
    rule.update(param)
    assert rule.t == 0 and rule.state is None
    numpy.testing.assert_array_equal(param.array, [1.])


def test_update_rule_base_methods_are_abstract():
    rule = optimizer.UpdateRule()
    with pytest.raises(NotImplementedError):
        rule.update(param_with_grad([1.], [1.]))
    with pytest.raises(NotImplementedError):
        rule.update_core_gpu(None)


def test_update_rule_hooks_order_and_timing():
    calls = []

    def pre(rule, param):
        calls.append(('pre', param.array.copy()))

    class Post:
        timing = 'post'

        def __call__(self, rule, param):
            calls.append(('post', param.array.copy()))

    rule = CountingRule(optimizer.Hyperparameter())
    rule.hyperparam.lr = 1.
    rule.add_hook(pre)
    rule.add_hook(Post(), name='after')
    param = param_with_grad([5.], [1.])
    rule.update(param)
    assert [c[0] for c in calls] == ['pre', 'post']
    assert calls[0][1][0] == 5. and calls[1][1][0] == 4.
    rule.remove_hook('after')
    rule.remove_hook('pre')
    with pytest.raises(KeyError):
        rule.remove_hook('pre')


def test_update_rule_hook_errors():
    rule = optimizer.UpdateRule()

    def hook(rule, param):
        pass

    with pytest.raises(TypeError):
        rule.add_hook(1, name='x')
    with pytest.raises(ValueError):
        rule.add_hook(hook, timing='later')
    rule.add_hook(hook)
    with pytest.raises(KeyError):
        rule.add_hook(hook, timing='post')

    class Nameless:
        def __call__(self, rule, param):
            pass

    with pytest.raises(ValueError, match='name of the hook'):
        rule.add_hook(Nameless())


def test_update_rule_divides_gradient_by_loss_scale():
    rule = CountingRule(optimizer.Hyperparameter())
    rule.hyperparam.lr = 1.
    param = param_with_grad([1., 1.], [8., 16.])
    param._loss_scale = 8.
    rule.update(param)
    numpy.testing.assert_array_equal(rule.seen[0], [1., 2.])
    numpy.testing.assert_array_equal(param.array, [0., -1.])


def test_fp32_update_of_float16_parameter():
    hp = optimizer.Hyperparameter()
    hp.lr = 1e-4
    rule = CountingRule(hp)
    rule.use_fp32_update()
    data = numpy.array([1., 2., 3.], numpy.float16)
    param = chainer.Parameter(data.copy())
    array = param.array
    master = data.astype(numpy.float32)
    for _ in range(3):
        grad = numpy.array([1., -1., 0.5], numpy.float16)
        param.grad = grad
        rule.update(param)
        master -= numpy.float32(1e-4) * grad.astype(numpy.float32)
        assert rule.seen[-1].dtype == numpy.float32
    # The float32 copy keeps steps far below float16's resolution at 1.
    fp32 = rule._fp32_param
    numpy.testing.assert_allclose(fp32.array, master, rtol=1e-6)
    assert fp32.grad is None
    # As in the original, the array is replaced by the cast copy.
    assert param.dtype == numpy.float16 and param.array is not array
    numpy.testing.assert_array_equal(param.array, master.astype(numpy.float16))
    assert rule.state['acc'].dtype == numpy.float32

    plain = CountingRule(hp)
    param16 = chainer.Parameter(data.copy())
    for _ in range(3):
        param16.grad = numpy.array([1., -1., 0.5], numpy.float16)
        plain.update(param16)
    # Without the float32 copy, the tiny steps are lost in rounding.
    numpy.testing.assert_array_equal(param16.array, data)


def test_fp32_update_of_uninitialized_parameter():
    rule = CountingRule(optimizer.Hyperparameter())
    rule.hyperparam.lr = 0.5
    rule.use_fp32_update()
    param = chainer.Parameter(initializers.Zero(numpy.float16))
    param.cleargrad()
    # As in the original, the float32 copy of an uninitialized parameter
    # has no gradient to read yet.
    with pytest.raises(RuntimeError, match='Variable.grad'):
        rule.update(param)
    assert rule.state is None and param.array is None
    param.initialize((2,))
    param.grad = numpy.ones(2, numpy.float16)
    rule.update(param)
    numpy.testing.assert_array_equal(param.array, [-0.5, -0.5])
    assert param.array.dtype == numpy.float16


def test_update_rule_serialize_round_trip():
    hp = optimizer.Hyperparameter()
    hp.lr = 0.1
    rule = CountingRule(hp)
    rule.update(param_with_grad([1., 2.], [1., 1.]))
    saved = {}
    rule.serialize(npz.DictionarySerializer(saved))
    assert sorted(saved) == ['acc', 'count', 't']

    fresh = CountingRule(hp)
    fresh.serialize(npz.NpzDeserializer(saved))
    assert fresh.t == 1
    numpy.testing.assert_array_equal(fresh.state['acc'], [1., 1.])
    assert int(fresh.state['count']) == 1


def test_update_rule_absent_state_raises_unless_disabled():
    data = {'t': numpy.asarray(3)}
    rule = CountingRule(optimizer.Hyperparameter())
    with pytest.raises(KeyError, match='count'):
        rule.serialize(npz.NpzDeserializer(data))
    assert rule.state is None
    rule = CountingRule(optimizer.Hyperparameter())
    rule.enabled = False
    rule.serialize(npz.NpzDeserializer(data))
    assert rule.t == 3 and rule.state is None


def test_update_rule_init_state_fills_the_rule_own_state_on_load():
    # init_state runs on a copy that shares the new state dictionary, so
    # an init_state writing through the original rule works too.
    rule = optimizer.UpdateRule()

    def init_state(param):
        rule.state['a'] = 0
        rule.state['b'] = numpy.zeros(3, numpy.float32)

    rule.init_state = init_state
    data = {'t': numpy.asarray(5), 'a': numpy.asarray(1),
            'b': numpy.arange(3, dtype=numpy.float32)}
    rule.serialize(npz.NpzDeserializer(data))
    assert rule.t == 5 and int(rule.state['a']) == 1
    numpy.testing.assert_array_equal(rule.state['b'], [0., 1., 2.])


def test_fp32_update_of_parameter_without_dtype():
    def initializer(array):
        raise AssertionError('never called')

    param = chainer.Parameter(initializer)
    rule = optimizer.UpdateRule()
    seen = []
    rule.update_core = seen.append
    rule.use_fp32_update()
    rule.update(param)
    assert seen == [param] and param.array is None
    with pytest.raises(RuntimeError):
        param.dtype


def test_update_core_chainerx_is_never_reached():
    rule = optimizer.UpdateRule()
    with pytest.raises(RuntimeError):
        rule.update_core_chainerx(param_with_grad([1.], [1.]))


def test_update_rule_partial_state_raises_unless_disabled():
    data = {'t': numpy.asarray(1), 'acc': numpy.zeros(2)}
    rule = CountingRule(optimizer.Hyperparameter())
    with pytest.raises(KeyError, match='count'):
        rule.serialize(npz.NpzDeserializer(data))
    rule = CountingRule(optimizer.Hyperparameter())
    rule.enabled = False
    rule.serialize(npz.NpzDeserializer(data))
    assert rule.state is None


def test_update_rule_state_saved_as_none():
    data = {'t': numpy.asarray(1), 'acc': numpy.asarray(None),
            'count': numpy.asarray(None)}
    rule = CountingRule(optimizer.Hyperparameter())
    rule.serialize(npz.NpzDeserializer(data))
    assert rule.state is None


def test_no_update_without_gradient():
    # Each optimizer's update rule leaves a parameter without a gradient
    # as it is.
    param = chainer.Parameter(
        numpy.random.RandomState(0).randn(3, 4).astype(numpy.float32))
    before = param.array.copy()
    gradient_methods = sorted(
        (cls for cls in vars(optimizers).values()
         if isinstance(cls, type)
         and issubclass(cls, optimizer.GradientMethod)),
        key=lambda cls: cls.__name__)
    assert len(gradient_methods) == 15
    for cls in gradient_methods:
        param.update_rule = cls().create_update_rule()
        param.cleargrad()
        param.update()
        numpy.testing.assert_array_equal(param.array, before)


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


# Optimizer -------------------------------------------------------------


def test_setup_returns_self_and_sets_rules():
    model = Net()
    opt = Plain()
    assert opt.setup(model) is opt
    assert opt.target is model
    for param in model.params():
        assert isinstance(param.update_rule, CountingRule)
        assert param.update_rule.hyperparam.parent is opt.hyperparam
    with pytest.raises(TypeError):
        Plain().setup(object())


def test_create_update_rule_is_abstract():
    with pytest.raises(NotImplementedError):
        optimizer.GradientMethod().setup(Net())
    with pytest.raises(NotImplementedError):
        optimizer.Optimizer().update()


def test_new_epoch():
    opt = Plain().setup(Net())
    opt.new_epoch()
    assert opt.epoch == 1
    with pytest.raises(RuntimeError, match='use_auto_new_epoch'):
        opt.new_epoch(auto=True)
    opt.use_auto_new_epoch = True
    opt.new_epoch(auto=True)
    assert opt.epoch == 2
    with pytest.raises(RuntimeError, match='duplicated new_epoch'):
        opt.new_epoch()


def test_hooks_need_setup():
    opt = Plain()
    with pytest.raises(RuntimeError, match='not set up'):
        opt.add_hook(lambda o: None, name='h')
    with pytest.raises(RuntimeError):
        opt.call_hooks()


def test_update_with_loss_function_matches_manual_sgd():
    x = numpy.random.RandomState(5).uniform(-1, 1, (6, 3)).astype('f')
    model = Net()
    reference = Net()
    opt = optimizers.SGD(lr=0.05).setup(model)
    for _ in range(3):
        opt.update(make_loss(model, x))
        reference.cleargrads()
        make_loss(reference, x)().backward()
        for p in reference.params():
            p.array -= numpy.float32(0.05) * p.grad
    assert opt.t == 3
    for p, q in zip(model.params(), reference.params()):
        numpy.testing.assert_allclose(p.array, q.array, rtol=1e-6)


def test_update_allocates_cleared_gradients():
    model = Net()
    opt = Plain().setup(model)
    model.cleargrads()
    opt.update()
    for param in model.params():
        numpy.testing.assert_array_equal(param.grad, 0)
        assert int(param.update_rule.state['count']) == 1


def test_optimizer_hooks_order_timing_and_each_param():
    model = Net()
    opt = Plain(lr=0.).setup(model)
    model.cleargrads()
    calls = []

    def once(o):
        assert o is opt
        calls.append('once')

    class EachParam:
        call_for_each_param = True
        timing = 'post'

        def __call__(self, rule, param):
            assert rule is param.update_rule
            assert param.grad is not None
            calls.append('each')

    opt.add_hook(once)
    opt.add_hook(EachParam(), name='each')
    opt.update()
    assert calls == ['once'] + ['each'] * 4
    opt.remove_hook('once')
    calls.clear()
    opt.update()
    assert calls == ['each'] * 4


def test_hook_with_invalid_timing_falls_back_to_pre():
    class Odd:
        timing = 'sometime'

        def __call__(self, opt):
            pass

    opt = Plain().setup(Net())
    with pytest.warns(UserWarning, match='defaulting timing'):
        opt.add_hook(Odd(), name='odd')
    assert 'odd' in opt._hookable._pre_update_hooks


def test_hook_that_clears_grads_is_followed_by_reallocation():
    model = Net()
    opt = Plain().setup(model)
    model.cleargrads()
    opt.add_hook(lambda o: o.target.cleargrads(), name='clear')
    opt.update()
    for param in model.params():
        numpy.testing.assert_array_equal(param.update_rule.seen[0], 0)


def test_optimizer_serialize_keys_and_values():
    model = Net()
    opt = optimizers.MomentumSGD().setup(model)
    model.cleargrads()
    opt.update()
    opt.new_epoch()
    saved = {}
    opt.serialize(npz.DictionarySerializer(saved))
    assert sorted(saved) == sorted(
        ['t', 'epoch'] + ['{}/{}/{}'.format(link, p, key)
                          for link in ('l1', 'l2') for p in ('W', 'b')
                          for key in ('t', 'v')])
    assert int(saved['t']) == 1 and int(saved['epoch']) == 1

    model2 = Net()
    opt2 = optimizers.MomentumSGD().setup(model2)
    opt2.serialize(npz.NpzDeserializer(saved))
    assert opt2.t == 1 and opt2.epoch == 1
    assert model2.l1.W.update_rule.t == 1
    numpy.testing.assert_array_equal(
        model2.l1.W.update_rule.state['v'], saved['l1/W/v'])


def test_use_cleargrads_is_deprecated_and_zerograds_path_works():
    model = Net()
    opt = optimizers.SGD(lr=0.1).setup(model)
    with pytest.warns(DeprecationWarning):
        opt.use_cleargrads(False)
    x = numpy.ones((2, 3), 'f')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        opt.update(make_loss(model, x))
    assert opt.t == 1


def test_use_fp32_update_before_and_after_setup():
    model = Net(numpy.float16)
    opt = optimizers.SGD(lr=1e-4)
    opt.use_fp32_update()
    opt.setup(model)
    assert all(p.update_rule._use_fp32_update for p in model.params())
    other = optimizers.SGD().setup(Net(numpy.float16))
    other.use_fp32_update()
    assert all(p.update_rule._use_fp32_update
               for p in other.target.params())
    model.cleargrads()
    for p in model.params():
        p.grad = numpy.full(p.shape, 1., numpy.float16)
    before = model.l1.W.array.astype(numpy.float32)
    for _ in range(2):
        opt.update()
    master = model.l1.W.update_rule._fp32_param.array
    numpy.testing.assert_allclose(master, before - 2e-4, rtol=1e-6)


# Loss scaling ----------------------------------------------------------


def test_static_loss_scaling_gives_the_unscaled_update():
    x = numpy.random.RandomState(1).uniform(-1, 1, (4, 3)).astype('f')
    scaled, plain = Net(), Net()
    opt_s = optimizers.SGD(lr=0.1).setup(scaled)
    opt_s.set_loss_scale(128.)
    opt_p = optimizers.SGD(lr=0.1).setup(plain)
    opt_s.update(make_loss(scaled, x))
    opt_p.update(make_loss(plain, x))
    assert opt_s._loss_scale == 128.
    for p, q in zip(scaled.params(), plain.params()):
        numpy.testing.assert_allclose(p.array, q.array, rtol=1e-6)
    with pytest.raises(ValueError, match='positive'):
        opt_s.loss_scaling(scale=0)
    with pytest.raises(ValueError, match='interval'):
        opt_s.loss_scaling(interval=0)


def test_dynamic_loss_scaling():
    model = Net()
    opt = Plain(lr=0.1).setup(model)
    opt.loss_scaling(interval=2)
    assert opt._loss_scale == 1.0
    model.cleargrads()

    def fill(value):
        for p in model.params():
            p.grad = numpy.full(p.shape, value, p.dtype)

    fill(1.)
    opt.update()
    opt.update()
    assert opt._loss_scale == 4.0
    before = model.l1.W.array.copy()
    fill(numpy.inf)
    with pytest.warns(UserWarning, match='Non finite'):
        opt.update()
    assert opt._loss_scale == 2.0
    assert opt.t == 3
    numpy.testing.assert_array_equal(model.l1.W.array, before)
    assert len(model.l1.W.update_rule.seen) == 2
    fill(1.)
    opt.update()
    assert opt._loss_scale == pytest.approx(2.0 * 2 ** 0.5)
    opt._loss_scale = 60000.
    opt.update()
    assert opt._loss_scale == 65504
    fill(numpy.nan)
    opt._loss_scale = 1.5
    with pytest.warns(UserWarning):
        opt.update()
    assert opt._loss_scale == 1


# Deprecated aliases ----------------------------------------------------


@pytest.mark.parametrize('name, args', [
    ('WeightDecay', (0.1,)), ('Lasso', (0.1,)),
    ('GradientClipping', (1.,)), ('GradientNoise', (0.1,)),
    ('GradientHardClipping', (-1., 1.)),
])
def test_deprecated_hook_aliases(name, args):
    with pytest.warns(DeprecationWarning,
                      match='chainer.optimizer_hooks.' + name):
        hook = getattr(optimizer, name)(*args)
    assert isinstance(hook, getattr(optimizer_hooks, name))
    assert hook.name == name
