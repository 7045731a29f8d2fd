"""Tests of the bounds checks of index arrays shared by the indexing ops."""
import numpy
import pytest

from chainer.functions.array import _index
from chainer.testing import attr


@pytest.mark.parametrize('index, ignore_label, expected', [
    ([0, 2, 1], None, None),
    ([0, 3, -1], None, 3),
    ([-1, 0], None, -1),
    ([[0, 1], [5, 0]], None, 5),
    ([-1, 0, 2], -1, None),
    ([-1, -2, 2], -1, -2),
    ([7, 0], 7, None),
    ([], None, None),
], ids=str)
def test_first_out_of_range(index, ignore_label, expected):
    index = numpy.array(index, numpy.int32)
    assert _index.first_out_of_range(index, 3, ignore_label) == expected


_BOOL = numpy.array([[True, False, True], [False, False, True]])


@pytest.mark.parametrize('slices', [
    (numpy.array([1, -2]),), (slice(None), numpy.array([2, -3])),
    (Ellipsis, numpy.array([3, -4])), (None, 0, numpy.array([2])),
    (_BOOL, numpy.array([3])), ([1, 0], [0, 0], [2, 0]),
    (0, slice(0, 1), numpy.array(-1)), (True, numpy.array([1])),
    (1, Ellipsis, numpy.array([3])), ([[0, 1]],), (Ellipsis,),
], ids=str)
def test_array_indices_in_bounds(slices):
    x = numpy.zeros((2, 3, 4))
    x[slices]
    _index.check_array_indices(x.shape, slices)


@pytest.mark.parametrize('slices', [
    (numpy.array([2]),), (numpy.array([-3]),),
    (slice(None), numpy.array([3])), (Ellipsis, numpy.array([4])),
    (None, 0, numpy.array([3])), (_BOOL, numpy.array([4])),
    ([1, 0], [0, 3], [2, 0]), (0, slice(0, 1), numpy.array(-5)),
    (True, numpy.array([2])), (1, Ellipsis, numpy.array([4])),
    ([[0, 2]],),
], ids=str)
def test_array_indices_out_of_bounds(slices):
    # The same index errors as NumPy's, which CuPy would not raise.
    x = numpy.zeros((2, 3, 4))
    with pytest.raises(IndexError):
        x[slices]
    with pytest.raises(IndexError, match='out of bounds for axis'):
        _index.check_array_indices(x.shape, slices)


@attr.gpu
@pytest.mark.parametrize('op', ['get_item', 'scatter_add'])
def test_gpu_index_out_of_bounds(op):
    from chainer.backends import cuda
    from chainer import functions as F
    x = cuda.cupy.zeros((2, 3), numpy.float32)
    index = cuda.cupy.array([0, 2], numpy.int32)
    with pytest.raises(IndexError):
        if op == 'get_item':
            F.get_item(x, index)
        else:
            F.scatter_add(x, index, cuda.cupy.ones((2, 3), numpy.float32))

