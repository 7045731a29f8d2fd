import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer.testing import attr
from chainer.utils import sparse


def test_to_coo_matrix():
    x = numpy.array([[0, 2, 0], [-1, 0, 0]], numpy.float32)
    coo = sparse.to_coo(x)
    assert isinstance(coo.data, chainer.Variable)
    assert not coo.data.requires_grad
    numpy.testing.assert_array_equal(coo.data.array, [2, -1])
    assert coo.row.dtype == numpy.int32 and coo.col.dtype == numpy.int32
    numpy.testing.assert_array_equal(coo.row, [0, 1])
    numpy.testing.assert_array_equal(coo.col, [1, 0])
    assert coo.shape == (2, 3)
    assert coo.order == 'C'
    numpy.testing.assert_array_equal(coo.to_dense(), x)


def test_to_coo_padding():
    x = numpy.array([[0, 2, 0], [-1, 0, 0]], numpy.float32)
    coo = sparse.to_coo(x, ldnz=4, requires_grad=True)
    assert coo.data.requires_grad
    numpy.testing.assert_array_equal(coo.data.array, [2, -1, 0, 0])
    numpy.testing.assert_array_equal(coo.row, [0, 1, -1, -1])
    numpy.testing.assert_array_equal(coo.col, [1, 0, -1, -1])
    numpy.testing.assert_array_equal(coo.to_dense(), x)
    # ldnz below the number of entries has no effect.
    assert sparse.to_coo(x, ldnz=1).data.shape == (2,)


def test_to_coo_batch():
    x = numpy.array([
        [[0, 2, 0], [-1, 0, 0]],
        [[0, 0, 0], [0, 0, 0]],
        [[0, 0, 3], [4, 5, 0]],
    ], numpy.float32)
    coo = sparse.to_coo(x)
    numpy.testing.assert_array_equal(
        coo.data.array, [[2, -1, 0], [0, 0, 0], [3, 4, 5]])
    numpy.testing.assert_array_equal(
        coo.row, [[0, 1, -1], [-1, -1, -1], [0, 1, 1]])
    numpy.testing.assert_array_equal(
        coo.col, [[1, 0, -1], [-1, -1, -1], [2, 0, 1]])
    assert coo.shape == (2, 3)
    numpy.testing.assert_array_equal(coo.to_dense(), x)
    assert sparse.to_coo(x, ldnz=5).data.shape == (3, 5)


@pytest.mark.parametrize('shape', [(0, 3), (2, 2), (0, 2, 2), (2, 2, 2)],
                         ids=str)
def test_to_coo_all_zero(shape):
    coo = sparse.to_coo(numpy.zeros(shape, numpy.float32))
    assert coo.data.shape == shape[:-2] + (0,)
    numpy.testing.assert_array_equal(coo.to_dense(), numpy.zeros(shape))


@pytest.mark.parametrize('shape', [(3,), (2, 2, 2, 2)], ids=str)
def test_to_coo_bad_ndim(shape):
    with pytest.raises(ValueError, match='ndim of x must be 2 or 3'):
        sparse.to_coo(numpy.ones(shape, numpy.float32))


def test_coo_matrix_finds_order():
    data = numpy.ones(3, numpy.float32)
    assert sparse.CooMatrix(data, numpy.array([0, 1, 1]),
                            numpy.array([0, 0, 1]), (2, 2)).order == 'C'
    assert sparse.CooMatrix(data, numpy.array([1, 0, 1]),
                            numpy.array([0, 1, 1]), (2, 2)).order == 'F'
    assert sparse.CooMatrix(data, numpy.array([1, 0, 1]),
                            numpy.array([1, 0, 1]), (2, 2)).order == 'other'
    assert sparse.CooMatrix(data, numpy.array([1, 0, 1]),
                            numpy.array([1, 0, 1]), (2, 2),
                            order='C').order == 'C'


def test_to_dense_sums_duplicates_and_skips_padding():
    coo = sparse.CooMatrix(
        numpy.ones(4, numpy.float32), numpy.array([0, 0, 1, -1]),
        numpy.array([0, 0, 1, -1]), (2, 2))
    numpy.testing.assert_array_equal(coo.to_dense(), [[2, 0], [0, 1]])
    assert coo.to_dense().dtype == numpy.float32


def test_coo_matrix_errors():
    data = numpy.ones(3, numpy.float32)
    row = numpy.array([0, 1, 1])
    col = numpy.array([0, 0, 1])
    with pytest.raises(ValueError, match='order must be'):
        sparse.CooMatrix(data, row, col, (2, 2), order='X')
    with pytest.raises(ValueError, match='shape of row and col'):
        sparse.CooMatrix(data, row[:2], col, (2, 2))
    with pytest.raises(ValueError, match='length of shape must be 2'):
        sparse.CooMatrix(data, row, col, (2, 2, 2))
    with pytest.raises(TypeError):
        sparse.CooMatrix(chainer.Variable(data), row, col, (2, 2))


@pytest.mark.parametrize('row, col, order', [
    ([0, 1, 1], [1, 0, 1], 'C'),
    ([0, 0, 0], [1, 0, 1], 'other'),
    ([0, 0, 0], [0, 1, 1], 'C'),
    ([2, 1, 0], [0, 1, 2], 'F'),
    ([[0, 1], [1, 0]], [[0, 1], [0, 1]], 'F'),
    ([[0, 1], [1, 0]], [[1, 0], [1, 0]], 'other'),
    ([[0, 1], [0, 1]], [[1, 0], [1, 0]], 'C'),
    ([0, -1, 1], [0, -1, 1], 'C'),
    ([-1, 0, 1], [-1, 0, 1], 'C'),
    ([], [], 'C'),
], ids=['c', 'unsorted_columns', 'c_rows_tied', 'f', 'batch_f',
        'batch_other', 'batch_c', 'padding_middle', 'padding_first',
        'empty'])
def test_get_order(row, col, order):
    row = numpy.array(row, numpy.int32)
    col = numpy.array(col, numpy.int32)
    assert sparse.get_order(row, col) == order


def test_get_order_bad_padding():
    with pytest.raises(ValueError, match='invalid index combination'):
        sparse.get_order(numpy.array([1, 0, 2]), numpy.array([0, 1, -1]))


@attr.gpu
def test_gpu_round_trip():
    x = numpy.array([[[0, 2, 0], [-1, 0, 0]], [[0, 0, 3], [4, 5, 0]]],
                    numpy.float32)
    coo = sparse.to_coo(cuda.to_gpu(x), ldnz=4)
    assert isinstance(coo.data.array, cuda.ndarray)
    assert coo.order == 'C'
    numpy.testing.assert_array_equal(cuda.to_cpu(coo.to_dense()), x)
    expected = sparse.to_coo(x, ldnz=4)
    numpy.testing.assert_array_equal(cuda.to_cpu(coo.row), expected.row)
    numpy.testing.assert_array_equal(cuda.to_cpu(coo.col), expected.col)
