"""Memory layouts: what Chainer 7.8.1 does with NumPy arrays.

The expected shapes, values and messages are those the original gives for
the same calls (probed with Chainer 7.8.1 and NumPy 1.26).
"""

import subprocess
import sys

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import memory_layouts
from chainer import testing

LAST_X = memory_layouts.CUDNN_CHANNEL_LAST_X
LAST_W = memory_layouts.CUDNN_CHANNEL_LAST_W


def _nhwc(seed=0):
    # A batch of 2 images of 3 channels, 4 x 5, stored channel last.
    return numpy.random.RandomState(seed).randn(2, 4, 5, 3).astype(
        numpy.float32)


def test_layout_names():
    assert memory_layouts.CUDNN_CHANNEL_FIRST_X is None
    assert memory_layouts.CUDNN_CHANNEL_FIRST_W is None
    assert LAST_X == 'CUDNN_CHANNEL_LAST_X'
    assert LAST_W == 'CUDNN_CHANNEL_LAST_W'


def test_transpose_axes():
    axes = memory_layouts._get_layout_transpose_axes
    assert axes(4, None, LAST_X) == (0, 2, 3, 1)
    assert axes(4, None, LAST_X, inverse=True) == (0, 3, 1, 2)
    assert axes(5, LAST_W, None) == (0, 4, 1, 2, 3)
    assert axes(3, LAST_X, None) == (0, 2, 1)
    assert axes(4, LAST_X, LAST_X) is None


@pytest.mark.parametrize('ndim, src, dst', [
    (2, None, LAST_X),
    (2, LAST_W, None),
    (4, LAST_X, LAST_W),
])
def test_transpose_axes_refused(ndim, src, dst):
    # Chainer asserts: fewer than three axes, or two channel-last layouts.
    with pytest.raises(AssertionError):
        memory_layouts._get_layout_transpose_axes(ndim, src, dst)


def test_unknown_layout():
    with pytest.raises(
            ValueError, match="Unknown layout conversion: from 'a' to 'b'"):
        memory_layouts._transpose_shape((1, 2, 3), 'a', 'b')


def test_transpose_array_round_trip():
    a = numpy.arange(24).reshape(1, 2, 3, 4)
    last = memory_layouts._transpose_array(a, None, LAST_W)
    assert last.shape == (1, 3, 4, 2)
    numpy.testing.assert_array_equal(
        memory_layouts._transpose_array(last, LAST_W, None), a)


def test_raw_and_semantic_shapes():
    x = _nhwc()
    v = chainer.Variable(x, layout=LAST_X)
    assert memory_layouts.get_raw_shape(x) == (2, 4, 5, 3)
    assert memory_layouts.get_raw_shape(v) == (2, 4, 5, 3)
    assert memory_layouts.get_semantic_shape(x) == (2, 4, 5, 3)
    assert memory_layouts.get_semantic_shape(
        x, assumed_layout=LAST_X) == (2, 3, 4, 5)
    assert memory_layouts.get_semantic_shape(v) == (2, 3, 4, 5)
    assert memory_layouts.get_semantic_shape(
        v, assumed_layout=LAST_X) == (2, 3, 4, 5)
    with pytest.raises(AssertionError):
        memory_layouts.get_semantic_shape(v, assumed_layout=None)


def test_as_layout_forward(core):
    x = numpy.arange(120, dtype=numpy.float32).reshape(2, 3, 4, 5)
    y = chainer.Variable(x).as_layout(LAST_X)
    assert y.layout == LAST_X
    assert y.shape == (2, 3, 4, 5)
    numpy.testing.assert_array_equal(y.raw_array, x.transpose(0, 2, 3, 1))
    node = y.creator
    assert type(node) is memory_layouts.AsLayout
    assert node.label == 'AsLayout'
    assert node.axes == (0, 2, 3, 1)
    assert node.in_layout is None and node.out_layout == LAST_X
    assert node.input_layouts == (None,)
    assert node.output_layouts == (LAST_X,)

    z = y.as_layout(None)
    assert z.layout is None
    numpy.testing.assert_array_equal(z.array, x)
    assert z.creator.input_layouts == (LAST_X,)
    assert z.creator.output_layouts == (None,)
    assert y.as_layout(LAST_X) is y


def test_as_layout_refused():
    v = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    with pytest.raises(AssertionError):
        v.as_layout(LAST_X)
    w = chainer.Variable(_nhwc(), layout=LAST_X)
    with pytest.raises(AssertionError):
        w.as_layout(LAST_W)
    with pytest.raises(ValueError, match='Unknown layout conversion'):
        chainer.Variable(numpy.zeros((2, 3, 4), numpy.float32)).as_layout(
            'foo')


def test_as_layout_gradient_is_checked_numerically(core):
    x = numpy.random.RandomState(1).randn(2, 3, 4, 2)

    def f(v):
        return v.as_layout(LAST_X).as_layout(None)

    gy = numpy.random.RandomState(2).randn(2, 3, 4, 2)
    gradient_check.check_backward(f, x, gy, dtype=numpy.float64)


def test_elementwise_functions_keep_the_layout(core):
    x = _nhwc()
    v = chainer.Variable(x, layout=LAST_X)
    for y in (F.relu(v), v + v, v * 2, v - v):
        assert y.layout == LAST_X
        assert y.shape == (2, 3, 4, 5)
        assert y.raw_array.shape == (2, 4, 5, 3)
    numpy.testing.assert_array_equal(F.relu(v).raw_array, numpy.maximum(x, 0))


def test_other_functions_refuse_a_nonstandard_layout(core):
    v = chainer.Variable(_nhwc(), layout=LAST_X)
    for f, name in ((F.sum, 'Sum'), (lambda a: a.T, 'Transpose')):
        with pytest.raises(RuntimeError) as e:
            f(v)
        assert str(e.value) == (
            'Inputs with non-standard layouts were given to a function '
            'without explicit `check_layout_forward` implementation.\n'
            'Function: {}\nInput layouts: CUDNN_CHANNEL_LAST_X\n'.format(
                name))


def test_mixed_layouts(core):
    v = chainer.Variable(_nhwc(), layout=LAST_X)
    # The semantic shapes differ from the raw ones: the type check says so
    # first, as in Chainer.
    with pytest.raises(chainer.utils.type_check.InvalidType):
        v + chainer.Variable(_nhwc())
    w = chainer.Variable(numpy.zeros((2, 3, 4, 5), numpy.float32))
    with pytest.raises(RuntimeError) as e:
        v + w
    assert str(e.value) == (
        'Inputs with mixed memory layouts were given to an elementwise '
        'function.\nFunction: _ + _\n'
        'Input layouts: CUDNN_CHANNEL_LAST_X, None\n')


def test_backward_through_layouts(core):
    # A variable of a non-standard layout used several times: its
    # gradients are summed in its layout. (Chainer 7.8.1 raised in ReLU's
    # gradient, which did not accept the layout; see the migration guide.)
    x = numpy.random.RandomState(3).randn(2, 3, 4, 5).astype(numpy.float32)
    w = chainer.Variable(x.copy())
    y = w.as_layout(LAST_X)
    z = (F.relu(y) * y + y).as_layout(None)
    F.sum(z * z).backward()

    expected = chainer.Variable(x.copy())
    zz = F.relu(expected) * expected + expected
    F.sum(zz * zz).backward()
    numpy.testing.assert_allclose(w.grad, expected.grad, rtol=1e-6)


def test_constant_operands_through_layouts(core):
    # x * c, x + c and c - x keep the layout of x, forward and backward,
    # also where the compiled core computes them itself (the second time,
    # once their constants are kept).
    x = numpy.random.RandomState(5).randn(2, 3, 4, 5).astype(numpy.float32)
    for _ in range(2):
        w = chainer.Variable(x.copy())
        y = w.as_layout(LAST_X)
        h = 1.5 - (y * 0.75 + 0.25)
        assert h.layout == LAST_X
        numpy.testing.assert_allclose(
            h.raw_array, 1.5 - (x.transpose(0, 2, 3, 1) * 0.75 + 0.25))
        F.sum(h.as_layout(None) * h.as_layout(None)).backward()
        numpy.testing.assert_allclose(
            w.grad, -1.5 * (1.5 - (x * 0.75 + 0.25)), rtol=1e-6)


def test_retained_gradient_keeps_the_layout(core):
    # Chainer 7.8.1 raised when it retained the gradient of such a
    # variable (it read the gradient's array directly).
    x = numpy.random.RandomState(4).randn(2, 3, 4, 5).astype(numpy.float32)
    w = chainer.Variable(x)
    y = w.as_layout(LAST_X)
    F.sum(y.as_layout(None) * 2).backward(retain_grad=True)
    assert y.grad_var.layout == LAST_X
    assert y.grad_var.raw_array.shape == (2, 4, 5, 3)
    with pytest.raises(RuntimeError):
        y.grad
    numpy.testing.assert_array_equal(w.grad, numpy.full_like(x, 2))


def test_first_layout_of_a_process_comes_from_a_function():
    # In a fresh process, the first non-standard layout is one a function
    # declares for its output (both cores learn it during forward).
    code = (
        'import numpy, chainer\n'
        'from chainer import memory_layouts as ml\n'
        'assert not chainer.variable._layouts_in_use\n'
        'x = chainer.Variable(numpy.zeros((1, 2, 3, 4), numpy.float32))\n'
        'y = x.as_layout(ml.CUDNN_CHANNEL_LAST_X)\n'
        'assert y.layout == ml.CUDNN_CHANNEL_LAST_X, y.layout\n'
        'assert y.node.shape == (1, 2, 3, 4), y.node.shape\n'
        'assert y.raw_array.shape == (1, 3, 4, 2)\n')
    subprocess.run([sys.executable, '-c', code], check=True)


def test_as_layout_refuses_chainerx():
    with pytest.raises(RuntimeError, match='not supported for chainerx'):
        memory_layouts.AsLayout(LAST_X).forward_chainerx(
            (numpy.zeros((1, 2, 3)),))


testing.run_module(__name__, __file__)
