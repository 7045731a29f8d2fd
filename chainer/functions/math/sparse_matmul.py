import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.functions import _numerics
from chainer.utils import sparse
from chainer.utils import type_check


_scipy_sparse = None


def _get_scipy_sparse():
    # SciPy is optional and slow to import: look for it on first use.
    global _scipy_sparse
    if _scipy_sparse is None:
        try:
            from scipy import sparse as scipy_sparse
        except ImportError:
            scipy_sparse = False
        _scipy_sparse = scipy_sparse
    return _scipy_sparse


def _compute_dtype(dtype):
    # Sparse kernels have no half precision.
    return numpy.float32 if dtype == numpy.float16 else dtype


def _spmm(data, row, col, n_rows, dense, dtype):
    """Rows of a sparse matrix times a dense one: ``C[row] += data * B[col]``.

    ``data``, ``row`` and ``col`` are 1-D and hold no padding.
    """
    xp = backend.get_array_module(data, dense)
    ctype = _compute_dtype(dtype)
    data = data.astype(ctype, copy=False)
    dense = dense.astype(ctype, copy=False)
    n_out = dense.shape[1]
    if xp is not numpy:
        c = xp.zeros((n_rows, n_out), ctype)
        _numerics.add_at(c, row, data[:, None] * dense[col])
        return c.astype(dtype, copy=False)
    scipy_sparse = _get_scipy_sparse()
    if scipy_sparse:
        matrix = scipy_sparse.csr_matrix(
            (data, (row, col)), shape=(n_rows, dense.shape[0]))
        return numpy.asarray(matrix @ dense).astype(dtype, copy=False)
    # NumPy only: sum the products of the entries of each row.
    c = numpy.zeros((n_rows, n_out), ctype)
    if data.size:
        if numpy.any(row[1:] < row[:-1]):
            order = numpy.argsort(row, kind='stable')
            row, col, data = row[order], col[order], data[order]
        products = data[:, None] * dense[col]
        starts = numpy.flatnonzero(numpy.r_[True, row[1:] != row[:-1]])
        c[row[starts]] = numpy.add.reduceat(products, starts, axis=0)
    return c.astype(dtype, copy=False)


def _batch_indices(row, col, n_rows, n_cols):
    # Flattens a batch of matrices into one block-diagonal matrix.
    xp = backend.get_array_module(row)
    if row.ndim == 1:
        return row, col
    offsets = xp.arange(row.shape[0])[:, None]
    return (row + offsets * n_rows).ravel(), (col + offsets * n_cols).ravel()


def _coo_matmul(data, row, col, shape, dense, transa, transb, transc,
                dtype):
    """``op(S) @ op(D)`` (transposed if ``transc``) for a COO matrix ``S``.

    Batched when ``data`` is 2-D (and ``dense`` 3-D).
    """
    n_rows, n_cols = shape
    if transa:
        row, col = col, row
        n_rows, n_cols = n_cols, n_rows
    if transb:
        dense = dense.swapaxes(-1, -2)
    valid = (row >= 0).ravel()
    batch = data.shape[:-1]
    n_batch = data.shape[0] if batch else 1
    flat_row, flat_col = _batch_indices(row, col, n_rows, n_cols)
    flat_data = data.ravel()
    if not valid.all():
        flat_row = flat_row[valid]
        flat_col = flat_col[valid]
        flat_data = flat_data[valid]
    n_out = dense.shape[-1]
    c = _spmm(flat_data, flat_row, flat_col, n_batch * n_rows,
              dense.reshape(n_batch * n_cols, n_out), dtype)
    c = c.reshape(batch + (n_rows, n_out))
    if transc:
        c = c.swapaxes(-1, -2)
    return c


def _coo_matmul_gradsp(a, b, row, col, shape, transa, transb, transc,
                       dtype):
    """Entries of ``op(a) @ op(b)`` (or of its transpose if ``transc``) at
    the positions of a COO matrix of shape ``shape``.

    Batched when ``row`` is 2-D (and ``a`` and ``b`` 3-D).
    """
    xp = backend.get_array_module(a, b)
    n_rows, n_cols = shape
    if transc:
        row, col = col, row
        n_rows, n_cols = n_cols, n_rows
    # g[k] = sum_j x[row[k], j] * y[col[k], j]
    x = a.swapaxes(-1, -2) if transa else a
    y = b if transb else b.swapaxes(-1, -2)
    valid = row >= 0
    row = xp.where(valid, row, 0)
    col = xp.where(valid, col, 0)
    flat_row, flat_col = _batch_indices(row, col, n_rows, n_cols)
    inner = x.shape[-1]
    x = x.reshape(-1, inner)
    y = y.reshape(-1, inner)
    ctype = numpy.result_type(_compute_dtype(x.dtype),
                              _compute_dtype(y.dtype))
    g = xp.einsum('ij,ij->i', x[flat_row].astype(ctype, copy=False),
                  y[flat_col].astype(ctype, copy=False))
    g = g.reshape(row.shape) * valid
    return g.astype(dtype, copy=False)


class CooMatMul(function_node.FunctionNode):

    """Product of a sparse COO matrix and a dense one.

    The inputs are the values of the sparse entries ``sp`` and the dense
    matrix ``dn``; the output is ``op(S) @ op(dn)``, or its transpose if
    ``transc``, where ``op`` transposes a matrix if its flag is set.

    Args:
        sp_row (:ref:`ndarray`): Row indices of the sparse entries.
        sp_col (:ref:`ndarray`): Column indices of the sparse entries.
        sp_shape (tuple of int): The shape of the sparse matrix.
        sp_order (str): ``'C'``, ``'F'`` or ``'other'``; see
            :class:`~chainer.utils.CooMatrix`.
        transa (bool): Transpose the sparse matrix.
        transb (bool): Transpose the dense matrix.
        transc (bool): Transpose the product.
        dtype: The output dtype; that of ``sp`` and ``dn`` combined if
            ``None``.
    """

    def __init__(self, sp_row, sp_col, sp_shape, sp_order='other',
                 transa=False, transb=False, transc=False, dtype=None):
        if sp_row.ndim != sp_col.ndim:
            raise ValueError('ndim of sp_row and sp_col must be the same.')
        if sp_row.ndim != 1 and sp_row.ndim != 2:
            raise ValueError('ndim of sp_row and sp_col must be one or two.')
        for i in range(sp_row.ndim):
            if sp_row.shape[i] != sp_col.shape[i]:
                raise ValueError(
                    'shape of sp_row and sp_col must be the same.')
        if len(sp_shape) != 2:
            raise ValueError('len(sp_shape) must be two.')
        self.sp_row = sp_row
        self.sp_col = sp_col
        self.sp_shape = sp_shape
        self.sp_order = sp_order
        self.transa = transa
        self.transb = transb
        self.transc = transc
        self.dtype = dtype

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('sp', 'dn'))
        sp_type, dn_type = in_types
        type_check.expect(
            sp_type.dtype.kind == 'f',
            dn_type.dtype.kind == 'f',
            sp_type.ndim >= 1,
            sp_type.ndim <= 2,
            sp_type.ndim == dn_type.ndim - 1,
        )
        type_check.expect(sp_type.shape[-1] == self.sp_row.shape[-1])
        inner = self.sp_shape[0] if self.transa else self.sp_shape[1]
        if self.transb:
            type_check.expect(dn_type.shape[-1] == inner)
        else:
            type_check.expect(dn_type.shape[-2] == inner)
        if self.sp_row.ndim == 2:
            type_check.expect(
                sp_type.ndim == 2,
                sp_type.shape[0] == self.sp_row.shape[0],
                dn_type.shape[0] == self.sp_row.shape[0],
            )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        sp, dn = inputs
        dtype = self.dtype
        if dtype is None:
            dtype = numpy.result_type(sp.dtype, dn.dtype)
        c = _coo_matmul(sp, self.sp_row, self.sp_col, self.sp_shape, dn,
                        self.transa, self.transb, self.transc, dtype)
        return c,

    def backward(self, indexes, grad_outputs):
        sp, dn = self.get_retained_inputs()
        gc, = grad_outputs
        ret = []
        if 0 in indexes:
            # The gradient of an entry (r, c) of op(S) @ op(D) is
            # (gC' @ op(D)^T)[r, c], with gC' the gradient of the product.
            if self.transa:
                node = CooMatMulGradSP(
                    self.sp_row, self.sp_col, self.sp_shape, self.sp_order,
                    self.transb, not self.transc, False, dtype=sp.dtype)
                g_sp, = node.apply((dn, gc))
            else:
                node = CooMatMulGradSP(
                    self.sp_row, self.sp_col, self.sp_shape, self.sp_order,
                    self.transc, not self.transb, False, dtype=sp.dtype)
                g_sp, = node.apply((gc, dn))
            ret.append(g_sp)
        if 1 in indexes:
            node = CooMatMul(
                self.sp_row, self.sp_col, self.sp_shape, self.sp_order,
                not self.transa, self.transc, self.transb, dtype=dn.dtype)
            g_dn, = node.apply((sp, gc))
            ret.append(g_dn)
        return ret


class CooMatMulGradSP(function_node.FunctionNode):

    """Entries of a product of two dense matrices at sparse positions.

    The output holds the entries of ``op(a) @ op(b)`` (of its transpose if
    ``transc``) at the positions ``(sp_row, sp_col)``: the gradient of the
    values of a sparse matrix in :class:`CooMatMul`.

    Args:
        sp_row (:ref:`ndarray`): Row indices of the sparse entries.
        sp_col (:ref:`ndarray`): Column indices of the sparse entries.
        sp_shape (tuple of int): The shape of the sparse matrix.
        sp_order (str): ``'C'``, ``'F'`` or ``'other'``.
        transa (bool): Transpose ``a``.
        transb (bool): Transpose ``b``.
        transc (bool): Read the entries from the transposed product.
        dtype: The output dtype; that of ``a`` and ``b`` combined if
            ``None``.
    """

    def __init__(self, sp_row, sp_col, sp_shape, sp_order='other',
                 transa=False, transb=False, transc=False, dtype=None):
        self.sp_row = sp_row
        self.sp_col = sp_col
        self.sp_shape = sp_shape
        self.sp_order = sp_order
        self.transa = transa
        self.transb = transb
        self.transc = transc
        self.dtype = dtype

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            b_type.dtype.kind == 'f',
            a_type.ndim == self.sp_row.ndim + 1,
            b_type.ndim == self.sp_row.ndim + 1,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        a, b = inputs
        dtype = self.dtype
        if dtype is None:
            dtype = numpy.result_type(a.dtype, b.dtype)
        g = _coo_matmul_gradsp(a, b, self.sp_row, self.sp_col,
                               self.sp_shape, self.transa, self.transb,
                               self.transc, dtype)
        return g,

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        gg, = grad_outputs
        # The gradient of the product is the sparse matrix of gg (or its
        # transpose); multiply it by the other factor.
        transc = self.transc
        ret = []
        if 0 in indexes:
            node = CooMatMul(
                self.sp_row, self.sp_col, self.sp_shape, self.sp_order,
                transc, not self.transb, self.transa, dtype=a.dtype)
            ga, = node.apply((gg, b))
            ret.append(ga)
        if 1 in indexes:
            node = CooMatMul(
                self.sp_row, self.sp_col, self.sp_shape, self.sp_order,
                not transc, self.transa, not self.transb, dtype=b.dtype)
            gb, = node.apply((gg, a))
            ret.append(gb)
        return ret


def sparse_matmul(a, b, transa=False, transb=False):
    """Batched product of a sparse matrix and a dense one.

    One of ``a`` and ``b`` is a sparse :class:`~chainer.utils.CooMatrix`,
    the other a dense matrix:

    1. ``C = op(A) @ op(B)`` with ``A`` sparse and ``B`` dense;
    2. ``C = op(A) @ op(B)`` with ``A`` dense and ``B`` sparse;

    where ``op`` transposes a matrix if its flag is set. A batch of sparse
    matrices goes with a batch of dense ones, of the same length.

    Args:
        a (~chainer.Variable, :ref:`ndarray` or ~chainer.utils.CooMatrix):
            The left operand.
        b (~chainer.Variable, :ref:`ndarray` or ~chainer.utils.CooMatrix):
            The right operand.
        transa (bool): Whether to use the transpose of every matrix of ``a``.
        transb (bool): Whether to use the transpose of every matrix of ``b``.

    Returns:
        ~chainer.Variable: The product; its gradient reaches the dense
        operand and the values (``data``) of the sparse one.

    .. admonition:: Example

        >>> a = chainer.utils.to_coo(
        ...     np.array([[0., 2.], [1., 0.]], np.float32))
        >>> b = np.array([[1., 2., 3.], [4., 5., 6.]], np.float32)
        >>> F.sparse_matmul(a, b).array
        array([[ 8., 10., 12.],
               [ 1.,  2.,  3.]], dtype=float32)

    .. seealso:: :func:`~chainer.utils.to_coo` makes a sparse matrix from a
        dense array; the ``order`` of a :class:`~chainer.utils.CooMatrix`
        is a hint that may speed the product up.

    """
    dense_types = (chainer.Variable,) + chainer.get_array_types()
    if isinstance(a, sparse.CooMatrix) and isinstance(b, dense_types):
        node = CooMatMul(a.row, a.col, a.shape, a.order,
                         transa=transa, transb=transb, transc=False)
        return node.apply((a.data, b))[0]
    if isinstance(a, dense_types) and isinstance(b, sparse.CooMatrix):
        # A @ B = (B^T @ A^T)^T
        node = CooMatMul(b.row, b.col, b.shape, b.order,
                         transa=not transb, transb=not transa, transc=True)
        return node.apply((b.data, a))[0]
    raise ValueError(
        'This combination of type of inputs is not supported.\n'
        '    a: {}\n    b: {}\n'.format(type(a), type(b)))
