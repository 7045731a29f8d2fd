import numpy
import pytest

import chainer
from chainer.links.connection import embed_id


def test_forward_looks_rows_up():
    link = embed_id.EmbedID(5, 3, ignore_label=-1)
    x = numpy.array([[0, 4], [-1, 2]], numpy.int32)
    y = link(x)
    assert y.shape == (2, 2, 3)
    numpy.testing.assert_array_equal(y.array[0, 0], link.W.array[0])
    numpy.testing.assert_array_equal(y.array[0, 1], link.W.array[4])
    numpy.testing.assert_array_equal(y.array[1, 0], numpy.zeros(3))


def test_default_initializer_is_unit_normal():
    numpy.random.seed(0)
    link = embed_id.EmbedID(200, 50)
    assert link.W.shape == (200, 50) and link.W.dtype == numpy.float32
    numpy.testing.assert_allclose(link.W.array.std(), 1.0, rtol=0.05)


def test_gradient_scatters_into_rows():
    link = embed_id.EmbedID(4, 2, initialW=numpy.ones((4, 2), 'f'),
                            ignore_label=3)
    # As in the original, a new parameter's gradient is NaN-filled.
    assert numpy.isnan(link.W.grad).all()
    link.cleargrads()
    y = link(numpy.array([1, 1, 3, 0], numpy.int32))
    y.grad = numpy.arange(8, dtype=numpy.float32).reshape(4, 2)
    y.backward()
    numpy.testing.assert_array_equal(
        link.W.grad, [[6, 7], [2, 4], [0, 0], [0, 0]])


def test_from_params():
    W = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    link = embed_id.EmbedID.from_params(chainer.Variable(W), ignore_label=0)
    assert link.ignore_label == 0
    numpy.testing.assert_array_equal(link.W.array, W)
    assert str(link) == 'EmbedID()'


def test_out_of_range_id():
    link = embed_id.EmbedID(3, 2)
    with pytest.raises(IndexError):
        link(numpy.array([3], numpy.int32))
    with chainer.using_config('debug', True), pytest.raises(ValueError):
        link(numpy.array([3], numpy.int32))
