"""Sparse matrices in COO format, for :func:`chainer.functions.sparse_matmul`.
"""

import numpy

import chainer


def _get_array_module(*args):
    # Looked up at call time: chainer.backend sits above chainer.utils.
    return chainer.backend.get_array_module(*args)


def get_order(row, col):
    """Tells whether COO indices are sorted by row, by column or neither.

    Entries whose row and column are both ``-1`` are padding and are
    ignored. Batched indices (2-D arrays) are checked batch by batch.

    Args:
        row (:ref:`ndarray`): Row index of each entry.
        col (:ref:`ndarray`): Column index of each entry.

    Returns:
        str: ``'C'`` if the entries are sorted by row, then by column;
        ``'F'`` if they are sorted by column, then by row; ``'other'``
        otherwise.

    Raises:
        ValueError: If only one of the row and column of an entry is
            negative.
    """
    xp = _get_array_module(row, col)
    valid = row >= 0
    if bool(xp.any(valid != (col >= 0))):
        raise ValueError('invalid index combination of row and col.')
    # The valid entries, with the index of the matrix each belongs to.
    batch = xp.broadcast_to(
        xp.arange(row.shape[0])[:, None] if row.ndim == 2 else 0,
        row.shape)[valid]
    row = row[valid].astype(numpy.int64)
    col = col[valid].astype(numpy.int64)
    if row.size == 0:
        return 'C'
    span = int(xp.maximum(row.max(), col.max())) + 1
    same_matrix = batch[1:] == batch[:-1]

    def is_sorted(major, minor):
        key = major * span + minor
        return not bool(xp.any(same_matrix & (key[1:] < key[:-1])))

    if is_sorted(row, col):
        return 'C'
    if is_sorted(col, row):
        return 'F'
    return 'other'


class CooMatrix:

    """A sparse matrix, or a batch of them, in COO format.

    Args:
        data (:ref:`ndarray`): The values of the entries, of shape
            ``(nnz,)``, or ``(batch, nnz)`` for a batch of matrices.
        row (:ref:`ndarray`): The row indices of the entries, of the shape
            of ``data``.
        col (:ref:`ndarray`): The column indices of the entries, of the
            shape of ``data``.
        shape (tuple of int): The shape ``(rows, columns)`` of each dense
            matrix.
        order ('C', 'F', 'other' or None): Whether the entries are sorted
            by row (``'C'``), by column (``'F'``) or neither (``'other'``);
            ``None`` (default) finds out with :func:`get_order`. Functions
            such as :func:`~chainer.functions.sparse_matmul` may use it to
            run faster.
        requires_grad (bool): If ``True``, back-propagation computes the
            gradient of ``data``.

    Entries whose row and column are ``-1`` are padding, so that matrices
    of a batch can hold different numbers of entries. Entries that share a
    position are summed.

    Attributes:
        data (~chainer.Variable): The values of the entries.
        row (:ref:`ndarray`): The row indices.
        col (:ref:`ndarray`): The column indices.
        shape (tuple of int): The shape of each dense matrix.
        order (str): ``'C'``, ``'F'`` or ``'other'``.

    .. seealso:: :func:`~chainer.utils.to_coo` makes one from a dense
        array.

    """

    def __init__(self, data, row, col, shape, order=None,
                 requires_grad=False):
        if not isinstance(data, chainer.get_array_types()):
            raise TypeError(
                'numpy.ndarray or cupy.ndarray is expected as data. '
                'Actual: {}'.format(type(data)))
        if len(shape) != 2:
            raise ValueError('length of shape must be 2.')
        if row.shape != col.shape:
            raise ValueError('shape of row and col must be the same.')
        if order not in ('C', 'F', 'other', None):
            raise ValueError("order must be 'C', 'F', 'other' or None.")
        self.data = chainer.Variable(data, requires_grad=requires_grad)
        self.row = row
        self.col = col
        self.shape = shape
        self.order = get_order(row, col) if order is None else order

    def to_dense(self):
        """Returns the matrix, or the batch of matrices, as a dense array.

        Returns:
            :ref:`ndarray`: An array of shape ``shape``, or ``(batch,) +
            shape`` for a batch.
        """
        data = self.data.array
        xp = _get_array_module(data)
        n_rows, n_cols = self.shape
        batch = data.shape[:-1]
        n_batch = int(numpy.prod(batch))
        nnz = self.row.shape[-1]
        row = self.row.reshape(n_batch, nnz).astype(numpy.int64)
        col = self.col.reshape(n_batch, nnz).astype(numpy.int64)
        index = (xp.arange(n_batch)[:, None] * n_rows + row) * n_cols + col
        valid = (row >= 0) & (col >= 0)
        size = n_batch * n_rows * n_cols
        # bincount sums the entries that share a position.
        dense = xp.bincount(
            index[valid], weights=data.reshape(n_batch, nnz)[valid],
            minlength=size)
        return dense.astype(data.dtype, copy=False).reshape(
            batch + (n_rows, n_cols))


def to_coo(x, ldnz=None, requires_grad=False):
    """Converts a dense matrix, or a batch of them, to COO format.

    Args:
        x (:ref:`ndarray`): A 2-D array (one matrix) or a 3-D array (a
            batch of matrices).
        ldnz (int): The minimum length of the entry arrays. They hold
            ``max(nnz, ldnz)`` entries, where ``nnz`` is the largest number
            of non-zero elements of a matrix; the rest is padding (value
            zero, row and column ``-1``).
        requires_grad (bool): If ``True``, back-propagation computes the
            gradient of the values.

    Returns:
        ~chainer.utils.CooMatrix: The matrix or batch of matrices, with
        its entries in row-major order.

    .. admonition:: Example

        >>> x = np.array([[0, 2, 0], [-1, 0, 0]], np.float32)
        >>> sp = chainer.utils.to_coo(x)
        >>> sp.data
        variable([ 2., -1.])
        >>> sp.row, sp.col
        (array([0, 1], dtype=int32), array([1, 0], dtype=int32))
        >>> sp.shape
        (2, 3)

    """
    xp = _get_array_module(x)
    if x.ndim == 2:
        row, col = xp.nonzero(x)
        nnz = row.size
        size = nnz if ldnz is None or ldnz < nnz else ldnz
        data = xp.zeros(size, x.dtype)
        data[:nnz] = x[row, col]
        rows = xp.full(size, -1, numpy.int32)
        cols = xp.full(size, -1, numpy.int32)
        rows[:nnz] = row
        cols[:nnz] = col
    elif x.ndim == 3:
        n_batch = x.shape[0]
        batch, row, col = xp.nonzero(x)
        counts = xp.bincount(batch, minlength=n_batch)
        nnz = int(counts.max()) if n_batch else 0
        size = nnz if ldnz is None or ldnz < nnz else ldnz
        # Position of each entry within its matrix.
        starts = xp.cumsum(counts) - counts
        position = xp.arange(batch.size) - starts[batch]
        data = xp.zeros((n_batch, size), x.dtype)
        rows = xp.full((n_batch, size), -1, numpy.int32)
        cols = xp.full((n_batch, size), -1, numpy.int32)
        data[batch, position] = x[batch, row, col]
        rows[batch, position] = row
        cols[batch, position] = col
    else:
        raise ValueError('ndim of x must be 2 or 3.')
    return CooMatrix(data, rows, cols, x.shape[-2:], order='C',
                     requires_grad=requires_grad)
