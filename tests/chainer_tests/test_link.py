import collections.abc
import copy
import warnings

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import initializers


class Affine(chainer.Link):
    """A small linear link with a lazily initialized weight."""

    def __init__(self, in_size, out_size):
        super().__init__()
        self.out_size = out_size
        with self.init_scope():
            self.W = chainer.Parameter(initializers.Normal(1.0))
            self.b = chainer.Parameter(0.0, (out_size,))
        if in_size is not None:
            self.W.initialize((out_size, in_size))

    @property
    def printable_specs(self):
        yield 'out_size', self.out_size

    def forward(self, x):
        if self.W.array is None:
            self.W.initialize((self.out_size, x.shape[1]))
        return F.matmul(x, self.W, transb=True) + F.broadcast_to(
            self.b, (x.shape[0], self.out_size))


class Net(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = Affine(3, 4)
            self.l2 = Affine(None, 2)
            self.scale = chainer.Parameter(1.0, (1,))
        self.add_persistent('count', 0)
        self.add_persistent('stat', numpy.zeros(2, numpy.float32))

    def forward(self, x):
        return self.l2(abs(self.l1(x)))


@pytest.fixture
def net():
    numpy.random.seed(0)
    return Net()


def test_registration(net):
    assert net.l1.name == 'l1'
    assert net.scale.name == 'scale'
    assert net._params == {'scale'}
    assert net._persistent == {'count', 'stat'}
    assert net['l1'] is net.l1


def test_namedparams_and_links(net):
    names = [name for name, _ in net.namedparams()]
    assert names == ['/scale', '/l1/W', '/l1/b', '/l2/W', '/l2/b']
    init_names = [name for name, _ in net.namedparams(include_uninit=False)]
    assert '/l2/W' not in init_names
    assert [name for name, _ in net.namedlinks()] == ['/', '/l1', '/l2']
    assert [name for name, _ in net.namedlinks(skipself=True)] == [
        '/l1', '/l2']
    assert list(net.children()) == [net.l1, net.l2]
    assert list(net.links())[0] is net


def test_lazy_initialization_on_first_call(net):
    x = numpy.ones((5, 3), numpy.float32)
    y = net(x)
    assert y.shape == (5, 2)
    assert net.l2.W.shape == (2, 4)


def test_count_params_warns_for_uninitialized(net):
    with pytest.warns(UserWarning, match='/l2/W'):
        count = net.count_params()
    assert count == 1 + 12 + 4 + 2


def test_str(net):
    assert str(net) == ('Net(\n'
                        '  (l1): Affine(out_size=4),\n'
                        '  (l2): Affine(out_size=2),\n'
                        ')')
    assert str(chainer.Link()) == 'Link()'


def test_attribute_exists_errors(net):
    with pytest.raises(AttributeError, match='attribute exists'):
        net.add_param('scale', (1,))
    with pytest.raises(AttributeError, match='attribute exists'):
        net.add_persistent('count', 1)
    with pytest.raises(AttributeError, match='attribute exists'):
        net.add_link('l1', Affine(1, 1))
    with pytest.raises(TypeError, match='non-link'):
        net.add_link('other', object())
    with pytest.raises(AttributeError, match='non-existent'):
        net.register_persistent('nothing')


def test_init_not_called():
    class Bad(chainer.Chain):
        def __init__(self):
            with self.init_scope():
                self.l = Affine(2, 2)

    with pytest.raises(RuntimeError, match='has not been called'):
        Bad()


def test_add_param_and_persistent():
    link = chainer.Link()
    link.add_param('w', (2, 3))
    assert link.w.shape == (2, 3)
    assert numpy.isnan(link.w.array).all()
    link.add_param('v', 2, initializer=initializers.One())
    numpy.testing.assert_array_equal(link.v.array, [1, 1])
    link.x = 5
    link.register_persistent('x')
    assert link._persistent == {'x'}


def test_deprecated_kwargs_params():
    link = chainer.Link(w=(2, 2), v=((3,), numpy.float64))
    assert link.w.shape == (2, 2)
    assert link.v.dtype == numpy.float64


def test_delattr_unregisters(net):
    del net.scale
    assert 'scale' not in net._params
    del net.l2
    assert 'l2' not in net._children


def test_copy_share(net):
    net.l1.W.grad = numpy.ones((4, 3), numpy.float32)
    shared = net.copy()
    assert shared is not net
    assert shared.l1 is not net.l1
    assert shared.l1.W is not net.l1.W
    assert shared.l1.W.array is net.l1.W.array
    assert shared.l1.W.grad is None
    assert net.l1.W.grad is not None
    assert shared.name is None
    assert shared.l1.name == 'l1'


def test_copy_copy_and_init(net):
    copied = net.copy(mode='copy')
    assert copied.l1.W.array is not net.l1.W.array
    numpy.testing.assert_array_equal(copied.l1.W.array, net.l1.W.array)
    numpy.random.seed(1)
    fresh = net.copy(mode='init')
    assert not numpy.array_equal(fresh.l1.W.array, net.l1.W.array)
    with pytest.raises(ValueError, match='mode'):
        net.copy(mode='other')


def test_copyparams_and_addgrads(net):
    other = Net()
    other.l1.W.array[...] = 7
    other.stat[...] = 3
    other.count = 9
    net.copyparams(other)
    numpy.testing.assert_array_equal(net.l1.W.array, other.l1.W.array)
    numpy.testing.assert_array_equal(net.stat, [3, 3])
    assert net.count == 9
    net.cleargrads()
    other.cleargrads()
    other.l1.W.grad = numpy.ones((4, 3), numpy.float32)
    net.addgrads(other)
    numpy.testing.assert_array_equal(net.l1.W.grad, numpy.ones((4, 3)))


def test_cleargrads_and_zerograds(net):
    y = net(numpy.ones((2, 3), numpy.float32))
    F.sum(y).backward()
    assert net.l1.W.grad is not None
    net.cleargrads()
    assert all(p.grad is None for p in net.params())
    with pytest.warns(DeprecationWarning):
        net.zerograds()
    assert (net.l1.W.grad == 0).all()


def test_update_enabled(net):
    class Rule:
        enabled = True

    for param in net.params():
        param.update_rule = Rule()
    assert net.update_enabled
    net.disable_update()
    assert not net.update_enabled
    net.l1.enable_update()
    assert net.update_enabled


def test_repeat():
    base = Affine(2, 2)
    seq = base.repeat(3, mode='copy')
    assert isinstance(seq, chainer.Sequential)
    assert len(seq) == 3
    assert seq[0] is not base
    numpy.testing.assert_array_equal(seq[1].W.array, base.W.array)
    assert len(base.repeat(0)) == 0
    with pytest.raises(ValueError):
        base.repeat(2, mode='bad')


def test_device_properties(net):
    assert net.xp is numpy
    assert net.device.xp is numpy
    assert net._device_id is None
    assert net.to_cpu() is net
    assert net.to_device('@numpy') is net


@pytest.mark.gpu
def test_to_gpu_moves_params_and_persistents(net):
    import cupy
    net.to_gpu()
    assert isinstance(net.l1.W.array, cupy.ndarray)
    assert isinstance(net.stat, cupy.ndarray)
    assert net.xp is cupy
    net.l2.W.initialize((2, 4))
    assert isinstance(net.l2.W.array, cupy.ndarray)
    net.to_cpu()
    assert isinstance(net.stat, numpy.ndarray)


def test_uninitialized_param_follows_device():
    link = Affine(None, 3)
    link.to_device('@numpy')
    link.W.initialize((3, 2))
    assert isinstance(link.W.array, numpy.ndarray)


class Recorder(chainer.LinkHook):

    name = 'recorder'

    def __init__(self):
        self.calls = []

    def forward_preprocess(self, args):
        self.calls.append(
            ('pre', type(args.link).__name__, args.args[0].shape))

    def forward_postprocess(self, args):
        self.calls.append(('post', type(args.link).__name__,
                           args.out.shape))


def test_local_link_hook(net):
    hook = Recorder()
    assert net.l1.add_hook(hook) is net.l1
    with pytest.raises(KeyError):
        net.l1.add_hook(hook)
    net(numpy.ones((2, 3), numpy.float32))
    assert hook.calls == [('pre', 'Affine', (2, 3)), ('post', 'Affine',
                                                       (2, 4))]
    net.l1.delete_hook('recorder')
    with pytest.raises(KeyError):
        net.l1.delete_hook('recorder')
    with pytest.raises(TypeError):
        net.add_hook(object())


def test_global_link_hook(net):
    with Recorder() as hook:
        net(numpy.ones((2, 3), numpy.float32))
    assert [call[1] for call in hook.calls] == [
        'Net', 'Affine', 'Affine', 'Affine', 'Affine', 'Net']


def test_forward_missing():
    with pytest.raises(AttributeError):
        chainer.Link()()


def test_deepcopy_keeps_structure(net):
    copied = copy.deepcopy(net)
    assert [n for n, _ in copied.namedparams()] == [
        n for n, _ in net.namedparams()]


class TestChainList:

    def test_basic(self):
        a, b = Affine(2, 3), Affine(3, 1)
        chain = chainer.ChainList(a, b)
        assert len(chain) == 2
        assert chain[1] is b
        assert b.name == '1'
        assert list(chain) == [a, b]
        assert [n for n, _ in chain.namedparams()] == [
            '/0/W', '/0/b', '/1/W', '/1/b']
        assert [n for n, _ in chain.namedlinks(skipself=True)] == [
            '/0', '/1']

    def test_insert_renames(self):
        a, b, c = Affine(1, 1), Affine(1, 1), Affine(1, 1)
        chain = chainer.ChainList(a, b)
        chain.insert(0, c)
        assert [link.name for link in chain] == ['0', '1', '2']
        assert chain[0] is c

    def test_init_scope_refuses_links(self):
        chain = chainer.ChainList()
        with pytest.raises(TypeError):
            with chain.init_scope():
                chain.x = Affine(1, 1)

    def test_copy(self):
        chain = chainer.ChainList(Affine(2, 2))
        copied = chain.copy(mode='copy')
        assert copied[0] is not chain[0]
        assert copied[0].name == '0'

    def test_str(self):
        chain = chainer.ChainList(Affine(2, 2))
        assert str(chain) == 'ChainList(\n  (0): Affine(out_size=2),\n)'

    def test_is_mutable_sequence(self):
        a, b, c = Affine(1, 1), Affine(1, 1), Affine(1, 1)
        chain = chainer.ChainList(a, b)
        assert isinstance(chain, collections.abc.MutableSequence)
        assert a in chain and c not in chain
        assert chain.index(b) == 1
        assert chain.count(a) == 1
        chain.extend([c])
        assert list(chain) == [a, b, c]
        assert list(reversed(chain)) == [c, b, a]
        assert chain.pop(0) is a
        assert [link.name for link in chain] == ['0', '1']
        chain.remove(c)
        assert list(chain) == [b]
        chain += chainer.ChainList(a)
        assert list(chain) == [b, a] and a.name == '1'
        del chain[0]
        assert list(chain) == [a] and a.name == '0'

    def test_slices(self):
        links = [Affine(1, 1) for _ in range(4)]
        chain = chainer.ChainList(*links[:2])
        chain[0:1] = links[2:]
        assert list(chain) == [links[2], links[3], links[1]]
        assert [link.name for link in chain] == ['0', '1', '2']
        assert chain[1:] == [links[3], links[1]]
        del chain[:2]
        assert list(chain) == [links[1]] and links[1].name == '0'
        with pytest.raises(TypeError, match='integers or slices'):
            chain['0'] = links[0]

    def test_str_empty(self):
        assert str(chainer.ChainList()) == 'ChainList()'
        assert str(chainer.Chain()) == 'Chain()'
        nested = chainer.ChainList(chainer.ChainList(Affine(1, 2)))
        assert str(nested) == (
            'ChainList(\n'
            '  (0): ChainList(\n'
            '    (0): Affine(out_size=2),\n'
            '  ),\n'
            ')')

    def test_copy_shares_own_params(self):
        # The list's own parameters are shared whatever the mode; only the
        # children are copied with it.
        chain = chainer.ChainList(Affine(2, 2))
        with chain.init_scope():
            chain.p = chainer.Parameter(numpy.ones(2, numpy.float32))
        copied = chain.copy(mode='copy')
        assert copied.p.array is chain.p.array
        assert copied.name is None
        assert copied[0].W.array is not chain[0].W.array


def test_deep_copies_keep_the_name(net):
    for mode in ('copy', 'init'):
        assert net.l1.copy(mode).name == 'l1'
    assert net.l1.copy('share').name is None


def test_mixin_call_takes_precedence():
    class CallMixin:
        def __call__(self, x, scale=1):
            return ('mixin', x * scale)

    class Injected(chainer.Link, CallMixin):
        def forward(self, x):
            return ('forward', x)

    assert Injected()(2, scale=3) == ('mixin', 6)


def test_call_checks_init():
    class Forgetful(chainer.Link):
        def __init__(self):
            pass

        def forward(self, x):
            return x

    with pytest.raises(RuntimeError, match=r'^Link\.__init__\(\) has not'):
        Forgetful()(1)


def test_legacy_device_methods_warn(net):
    with pytest.warns(DeprecationWarning,
                      match=r"to_cpu is deprecated\. Please use "
                            r"to_device\('@numpy'\) instead\."):
        assert net.to_cpu() is net
    with pytest.warns(DeprecationWarning, match='Link._device_id'):
        assert net._device_id is None
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert net.to_device('@numpy') is net


@pytest.mark.parametrize('name', ['to_device', 'to_chx', 'from_chx'])
def test_final_device_methods(name):
    with pytest.raises(TypeError, match='is final'):
        type('Bad', (chainer.Link,), {name: lambda self, *args: self})


def test_overridden_legacy_method_is_called():
    with pytest.warns(DeprecationWarning, match="Overriding method 'to_cpu'"):
        class Child(chainer.Link):
            calls = 0

            def to_cpu(self):
                Child.calls += 1
                return super().to_cpu()

    parent = chainer.Chain()
    with parent.init_scope():
        parent.child = Child()
    parent.to_device('@numpy')
    assert Child.calls == 1
    with pytest.warns(DeprecationWarning):
        parent.to_cpu()
    assert Child.calls == 2


def test_copy_mode_error_message():
    message = (r"^The 'mode' argument should be either 'init','copy', or "
               r"'share'\. But deep was given\.$")
    with pytest.raises(ValueError, match=message):
        Affine(1, 1).copy('deep')
    with pytest.raises(ValueError, match=message):
        Affine(1, 1).repeat(2, 'deep')
    assert len(Affine(1, 1).repeat(0, 'deep')) == 0


def test_kwargs_params_shape_rule():
    # A sequence is a shape only when its entries are nonzero integers;
    # anything else is read as a (shape, dtype) pair.
    link = chainer.Link(a=(2, 3), b=((2,), 'd'), c=4, d=None)
    assert link.a.shape == (2, 3) and link.a.dtype == numpy.float32
    assert link.b.shape == (2,) and link.b.dtype == numpy.float64
    assert link.c.shape == (4,)
    assert link.d.array is None
    with pytest.raises(ValueError):
        chainer.Link(a='x')


def test_registration_before_init_fails():
    class Forgetful(chainer.Link):
        def __init__(self):
            pass

    link = Forgetful()
    with pytest.raises(AttributeError):
        link.add_persistent('x', 1)
    with pytest.raises(AttributeError, match='non-existent'):
        link.register_persistent('x')
    with pytest.raises(RuntimeError, match='has not been called'):
        link.add_param('x')
