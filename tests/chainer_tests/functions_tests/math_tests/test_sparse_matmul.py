import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.math import sparse_matmul as sparse_matmul_module
from chainer import testing
from chainer.utils import sparse
from chainer.utils import type_check


def _sparse_array(shape, dtype):
    x = numpy.random.uniform(-1, 1, shape)
    x[numpy.random.uniform(0, 1, shape) < 0.5] = 0
    return x.astype(dtype)


def _op(x, trans):
    return x.swapaxes(-1, -2) if trans else x


@pytest.fixture(params=['scipy', 'numpy'])
def cpu_kernel(request, monkeypatch):
    # The CPU product uses SciPy when it is installed, NumPy otherwise.
    if request.param == 'numpy':
        monkeypatch.setattr(sparse_matmul_module, '_scipy_sparse', False)
    elif not sparse_matmul_module._get_scipy_sparse():
        pytest.skip('SciPy is not installed')
    return request.param


@testing.parameterize(*testing.product({
    'sparse_side': ['a', 'b'],
    'transa': [False, True],
    'transb': [False, True],
    'batch': [(), (2,)],
    'padding': [False, True],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSparseMatMul(testing.FunctionTestCase):

    def setUp(self):
        m, k, n = 3, 4, 2
        self.a_shape = self.batch + ((k, m) if self.transa else (m, k))
        self.b_shape = self.batch + ((n, k) if self.transb else (k, n))
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}

    def generate_inputs(self):
        if self.sparse_side == 'a':
            a = _sparse_array(self.a_shape, self.dtype)
            b = numpy.random.uniform(-1, 1, self.b_shape).astype(self.dtype)
            sp_matrix = a
        else:
            a = numpy.random.uniform(-1, 1, self.a_shape).astype(self.dtype)
            b = _sparse_array(self.b_shape, self.dtype)
            sp_matrix = b
        # With padding, the entry arrays are longer than any matrix needs.
        n_rows, n_cols = sp_matrix.shape[-2:]
        ldnz = n_rows * n_cols + 2 if self.padding else None
        self.coo = sparse.to_coo(sp_matrix, ldnz=ldnz)
        sp_data = self.coo.data.array
        dense = b if self.sparse_side == 'a' else a
        return sp_data, dense

    def forward(self, inputs, device):
        sp_data, dense = inputs
        coo = sparse.CooMatrix(
            device.send(self.coo.data.array), device.send(self.coo.row),
            device.send(self.coo.col), self.coo.shape, order=self.coo.order)
        coo.data = sp_data
        if self.sparse_side == 'a':
            y = F.sparse_matmul(coo, dense, self.transa, self.transb)
        else:
            y = F.sparse_matmul(dense, coo, self.transa, self.transb)
        return y,

    def forward_expected(self, inputs):
        sp_data, dense = inputs
        sp_dense = self.coo.to_dense().astype(numpy.float64)
        dense = dense.astype(numpy.float64)
        if self.sparse_side == 'a':
            a, b = sp_dense, dense
        else:
            a, b = dense, sp_dense
        y = numpy.matmul(_op(a, self.transa), _op(b, self.transb))
        return y.astype(self.dtype),


@pytest.mark.parametrize('sparse_side', ['a', 'b'])
@pytest.mark.parametrize('batched', [False, True])
def test_cpu_kernels_agree(cpu_kernel, sparse_side, batched):
    rng = numpy.random.RandomState(0)
    batch = (3,) if batched else ()
    sp = rng.uniform(-1, 1, batch + (5, 6))
    sp[rng.uniform(0, 1, sp.shape) < 0.6] = 0
    dense = rng.uniform(-1, 1, batch + (6, 4))
    coo = sparse.to_coo(sp, ldnz=20)
    if sparse_side == 'a':
        y = F.sparse_matmul(coo, dense)
        expected = numpy.matmul(sp, dense)
    else:
        y = F.sparse_matmul(dense.swapaxes(-1, -2), coo, transb=True)
        expected = numpy.matmul(dense.swapaxes(-1, -2), sp.swapaxes(-1, -2))
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-12)


def test_unsorted_entries_and_duplicates(cpu_kernel):
    # Entries in any order; entries at the same position are summed.
    data = numpy.array([1., 2., 3., 4.])
    row = numpy.array([1, 0, 1, 1], numpy.int32)
    col = numpy.array([0, 1, 0, 1], numpy.int32)
    coo = sparse.CooMatrix(data, row, col, (2, 2))
    b = numpy.array([[1., 10.], [100., 1000.]])
    y = F.sparse_matmul(coo, b)
    numpy.testing.assert_allclose(
        y.array, [[200., 2000.], [404., 4040.]])


def test_gradient_reaches_sparse_values():
    a = numpy.array([[0., 2.], [1., 0.]], numpy.float32)
    coo = sparse.to_coo(a, requires_grad=True)
    b = chainer.Variable(numpy.array([[1., 2.], [3., 4.]], numpy.float32))
    y = F.sparse_matmul(coo, b)
    assert type(y.creator).__name__ == 'CooMatMul'
    y.grad = numpy.ones((2, 2), numpy.float32)
    y.backward()
    # Entries (0, 1) and (1, 0): gradient gy[r] . b[c]
    numpy.testing.assert_allclose(coo.data.grad, [7., 3.])
    numpy.testing.assert_allclose(b.grad, [[1., 1.], [2., 2.]])


def test_mixed_dtypes():
    coo = sparse.to_coo(numpy.eye(2, dtype=numpy.float32),
                        requires_grad=True)
    b = chainer.Variable(numpy.ones((2, 3), numpy.float64))
    y = F.sparse_matmul(coo, b)
    assert y.dtype == numpy.float64
    y.grad = numpy.ones((2, 3))
    y.backward()
    assert coo.data.grad.dtype == numpy.float32
    assert b.grad.dtype == numpy.float64


def test_unsupported_operands():
    coo = sparse.to_coo(numpy.eye(2, dtype=numpy.float32))
    dense = numpy.ones((2, 2), numpy.float32)
    with pytest.raises(ValueError, match='combination of type of inputs'):
        F.sparse_matmul(coo, coo)
    with pytest.raises(ValueError, match='combination of type of inputs'):
        F.sparse_matmul(dense, dense)


@pytest.mark.parametrize('sp_shape, dense_shape, transb', [
    ((2, 3), (2, 4), False),
    ((2, 3), (3, 4), True),
    ((2, 3), (3,), False),
    ((2, 2, 3), (3, 4), False),
    ((2, 2, 3), (3, 3, 4), False),
    ((2, 3), (2, 3, 4), False),
], ids=['inner', 'inner_trans', 'vector', 'batch_vs_single', 'batch_size',
        'single_vs_batch'])
def test_bad_shapes(sp_shape, dense_shape, transb):
    coo = sparse.to_coo(numpy.ones(sp_shape, numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.sparse_matmul(coo, numpy.ones(dense_shape, numpy.float32),
                        transb=transb)


def test_integer_dense():
    coo = sparse.to_coo(numpy.eye(2, dtype=numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.sparse_matmul(coo, numpy.ones((2, 2), numpy.int32))
