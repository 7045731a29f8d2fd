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
