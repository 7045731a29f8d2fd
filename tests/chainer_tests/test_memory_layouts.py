import numpy
import pytest

import chainer
from chainer import memory_layouts


def test_semantic_shape_of_channel_last():
    x = numpy.zeros((2, 4, 5, 3), numpy.float32)
    assert memory_layouts.get_raw_shape(x) == (2, 4, 5, 3)
    assert memory_layouts.get_semantic_shape(x) == (2, 4, 5, 3)
    assert memory_layouts.get_semantic_shape(
        x, assumed_layout=memory_layouts.CUDNN_CHANNEL_LAST_X) == (2, 3, 4, 5)


def test_variable_has_the_standard_layout():
    v = chainer.Variable(numpy.zeros((2, 3, 4), numpy.float32))
    assert v.layout is None
    assert memory_layouts.get_raw_shape(v) == (2, 3, 4)


def test_transpose_array_round_trip():
    a = numpy.arange(24).reshape(1, 2, 3, 4)
    last = memory_layouts._transpose_array(
        a, None, memory_layouts.CUDNN_CHANNEL_LAST_W)
    assert last.shape == (1, 3, 4, 2)
    back = memory_layouts._transpose_array(
        last, memory_layouts.CUDNN_CHANNEL_LAST_W, None)
    numpy.testing.assert_array_equal(back, a)


def test_unknown_conversion():
    with pytest.raises(ValueError):
        memory_layouts._transpose_shape(
            (1, 2, 3), memory_layouts.CUDNN_CHANNEL_LAST_X,
            memory_layouts.CUDNN_CHANNEL_LAST_W)


def test_as_layout_forward_and_gradient():
    x = numpy.arange(24, dtype=numpy.float32).reshape(1, 2, 3, 4)
    y, = memory_layouts.AsLayout(
        memory_layouts.CUDNN_CHANNEL_LAST_X).apply((x,))
    numpy.testing.assert_array_equal(y.array, x.transpose(0, 2, 3, 1))
    chainer.gradient_check.check_backward(
        lambda v: memory_layouts.AsLayout(
            memory_layouts.CUDNN_CHANNEL_LAST_X).apply((v,))[0],
        x, numpy.ones((1, 3, 4, 2), numpy.float32), dtype=numpy.float64)


def test_inverse_axes():
    axes = memory_layouts._get_layout_transpose_axes(
        4, None, memory_layouts.CUDNN_CHANNEL_LAST_X)
    inverse = memory_layouts._get_layout_transpose_axes(
        4, None, memory_layouts.CUDNN_CHANNEL_LAST_X, inverse=True)
    assert axes == (0, 2, 3, 1)
    assert inverse == (0, 3, 1, 2)
