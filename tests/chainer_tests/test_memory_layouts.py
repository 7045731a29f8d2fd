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
