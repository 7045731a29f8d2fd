import os
import pickle
import sys
import tempfile

import numpy
import pytest

import chainer
from chainer import functions as F


class Scale(chainer.Link):

    def __init__(self, value):
        super().__init__()
        with self.init_scope():
            self.w = chainer.Parameter(float(value), (1,))

    def forward(self, x):
        return x * F.broadcast_to(self.w, x.shape)


def double(x):
    return x * 2


def _x():
    return chainer.Variable(numpy.array([1.0, 2.0], numpy.float32))


def test_forward_in_order():
    seq = chainer.Sequential(Scale(3), double, lambda x: x + 1)
    numpy.testing.assert_allclose(seq(_x()).array, [7, 13])


def test_tuple_outputs_are_unpacked():
    seq = chainer.Sequential(lambda x: (x, x * 2), lambda a, b: a + b)
    numpy.testing.assert_allclose(seq(_x()).array, [3, 6])


def test_empty_forward():
    with pytest.raises(RuntimeError, match='does not have any layer'):
        chainer.Sequential()(_x())


def test_links_are_children_in_order():
    a, b = Scale(1), Scale(2)
    seq = chainer.Sequential(a, double, b)
    assert len(seq) == 3
    assert list(seq.children()) == [a, b]
    assert (a.name, b.name) == ('0', '1')
    assert [n for n, _ in seq.namedparams()] == ['/0/w', '/1/w']


def test_insert_between_links():
    a, b, c = Scale(1), Scale(2), Scale(3)
    seq = chainer.Sequential(a, double, b)
    seq.insert(2, c)
    assert list(seq.children()) == [a, c, b]
    assert [link.name for link in seq.children()] == ['0', '1', '2']
    with pytest.raises(IndexError, match='Index out of range'):
        seq.insert(10, double)


def test_remove_pop_clear():
    a = Scale(1)
    seq = chainer.Sequential(a, double, F.absolute)
    seq.remove(double)
    assert len(seq) == 2
    assert seq.pop() is F.absolute
    seq.remove(a)
    assert len(seq) == 0 and len(seq._children) == 0
    seq.append(double)
    seq.clear()
    assert len(seq) == 0


def test_layer_type_counting_and_removal():
    seq = chainer.Sequential(Scale(1), double, Scale(2), double)
    assert seq.count_by_layer_type('Scale') == 2
    assert seq.count_by_layer_type('double') == 2
    seq.remove_by_layer_type('double')
    assert len(seq) == 2
    assert seq.count(seq[0]) == 1
    assert seq.index(seq[1]) == 1


def test_setitem_delitem_contains():
    a, b = Scale(1), Scale(2)
    seq = chainer.Sequential(a, double)
    seq[0] = b
    assert seq[0] is b and list(seq.children()) == [b]
    assert b in seq and a not in seq
    del seq[0]
    assert len(seq._children) == 0


def test_add_and_iadd():
    s1 = chainer.Sequential(double)
    s2 = chainer.Sequential(Scale(1))
    s3 = s1 + s2
    assert len(s3) == 2
    s1 += s2
    assert len(s1) == 2
    with pytest.raises(ValueError):
        s1 + [double]


def test_flatten():
    inner = chainer.Sequential(Scale(1), double)
    seq = chainer.Sequential(inner, Scale(2))
    flat = seq.flatten()
    assert len(flat) == 3
    assert isinstance(flat[0], Scale)


def test_copy_modes():
    seq = chainer.Sequential(Scale(2), double)
    shared = seq.copy()
    assert shared[0] is not seq[0]
    assert shared[0].w.array is seq[0].w.array
    copied = seq.copy('copy')
    assert copied[0].w.array is not seq[0].w.array
    assert copied[1] is double


def test_copyparams():
    seq = chainer.Sequential(Scale(2), double)
    other = chainer.Sequential(Scale(5), double)
    seq.copyparams(other)
    numpy.testing.assert_array_equal(seq[0].w.array, [5])
    with pytest.raises(ValueError):
        seq.copyparams(chainer.ChainList(Scale(1)))


def test_str():
    seq = chainer.Sequential(Scale(1), double)
    text = str(seq)
    assert text.startswith('Sequential(\n  (0): Scale(),\n  (1): <function '
                           'double at')
    assert text.endswith(',\n)')
    assert str(chainer.Sequential()) == 'Sequential()'


def test_backward_through_sequential():
    seq = chainer.Sequential(Scale(3), double)
    # Parameters start with NaN gradients, as in the original.
    assert numpy.isnan(seq[0].w.grad).all()
    seq.cleargrads()
    x = _x()
    F.sum(seq(x)).backward()
    numpy.testing.assert_allclose(x.grad, [6, 6])
    numpy.testing.assert_allclose(seq[0].w.grad, [6])


def test_non_callable_layers_are_rejected():
    with pytest.raises(ValueError, match='should be callable'):
        chainer.Sequential(0)
    seq = chainer.Sequential(double)
    with pytest.raises(ValueError, match='should be callable'):
        seq.append('relu')
    with pytest.raises(ValueError, match='should be callable'):
        seq[0] = 1
    assert len(seq) == 1


def test_children_are_named_as_in_chainer():
    # Each link inserted after the first goes right after the first link
    # among the children.
    a, b, c, d = Scale(1), Scale(2), Scale(3), Scale(4)
    seq = chainer.Sequential(a, double, b, c, d)
    assert list(seq.children()) == [a, d, c, b]
    assert [link.name for link in (a, d, c, b)] == ['0', '1', '2', '3']
    numpy.testing.assert_allclose(seq(_x()).array, [48, 96])


def test_delitem_renames_following_children():
    a, b, c = Scale(1), Scale(2), Scale(3)
    seq = chainer.Sequential(a, b, c)
    del seq[0]
    assert list(seq.children()) == [c, b]
    assert (c.name, b.name) == ('0', '1')


def test_index_is_relative_to_start():
    seq = chainer.Sequential(double, F.relu, double)
    assert seq.index(double, 1) == 1


def test_clear_unregisters_every_other_child():
    links = [Scale(i) for i in range(4)]
    seq = chainer.Sequential(*links)
    children = list(seq.children())
    seq.clear()
    assert len(seq) == 0
    assert list(seq.children()) == children[1::2]


def test_reversed_and_reverse():
    a, b = Scale(1), Scale(2)
    seq = chainer.Sequential(a, double, b)
    assert list(reversed(seq)) == [b, double, a]
    seq.reverse()
    assert list(seq) == [b, double, a]


def test_pickle():
    seq = chainer.Sequential(Scale(3), double)
    copied = pickle.loads(pickle.dumps(seq))
    assert copied[1] is double
    numpy.testing.assert_array_equal(copied[0].w.array, [3])
    assert copied[0].name == '0'
    assert isinstance(seq.__reduce__(), tuple)
    seq.append(lambda x: x)
    with pytest.raises(ValueError, match='lambda'):
        pickle.dumps(seq)


def _fixture_path():
    return os.path.join(os.path.dirname(__file__), 'fixtures',
                        'sequential.npz')


def test_load_model_saved_by_chainer():
    # sequential.npz was written by make_sequential_fixture.py under
    # Chainer 7.8.1: a Sequential of four Linear layers.
    sys.path.insert(0, os.path.dirname(_fixture_path()))
    try:
        import make_sequential_fixture
    finally:
        sys.path.pop(0)
    model = make_sequential_fixture.build()
    chainer.serializers.load_npz(_fixture_path(), model)
    expected = numpy.load(_fixture_path())
    for index, layer in enumerate(model):
        if isinstance(layer, chainer.Link):
            numpy.testing.assert_array_equal(
                layer.W.array, expected['expected/{}/W'.format(index)])
            numpy.testing.assert_array_equal(
                layer.b.array, expected['expected/{}/b'.format(index)])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'model.npz')
        chainer.serializers.save_npz(path, model)
        saved = numpy.load(path)
        for key in saved:
            numpy.testing.assert_array_equal(saved[key], expected[key])
