"""Communicator operations on NumPy arrays, run as two MPI ranks."""

import warnings

import numpy
import pytest

import chainer
import chainer.links as L
import chainer.testing
import chainermn
from chainermn.communicators import _communication_utility

CPU_COMMUNICATORS = ['naive', 'flat', 'non_cuda_aware']
DTYPES = [numpy.int32, numpy.int64, numpy.float16, numpy.float32,
          numpy.float64]


@pytest.fixture(params=CPU_COMMUNICATORS)
def comm(request):
    communicator = chainermn.create_communicator(request.param)
    assert communicator.size == 2
    yield communicator
    communicator.finalize()


@pytest.fixture
def naive():
    communicator = chainermn.create_communicator('naive')
    yield communicator
    communicator.finalize()


def _values(rank, shape, dtype):
    size = int(numpy.prod(shape))
    return (numpy.arange(size) + 10 * rank).reshape(shape).astype(dtype)


def test_ranks_and_sizes(comm):
    assert comm.rank == comm.mpi_comm.rank
    # Both ranks run on this machine.
    assert comm.intra_size == 2
    assert comm.intra_rank == comm.rank
    assert comm.inter_size == 1
    assert comm.inter_rank == 0
    assert comm.get_config('batched_copy') is True


@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('shape', [(), (5,), (3, 4)])
def test_send_recv(naive, dtype, shape):
    if naive.rank == 0:
        naive.send(_values(0, shape, dtype), dest=1, tag=3)
    else:
        y = naive.recv(source=0, tag=3)
        assert y.dtype == dtype
        assert y.shape == shape
        numpy.testing.assert_array_equal(y, _values(0, shape, dtype))


def test_send_recv_tuple_and_non_contiguous(naive):
    x = numpy.arange(24, dtype=numpy.float32).reshape(4, 6)[:, ::2]
    xs = (x, numpy.ones((2, 2), numpy.float32))
    if naive.rank == 0:
        naive.send(x, dest=1, tag=0)
        naive.send(xs, dest=1, tag=1)
    else:
        numpy.testing.assert_array_equal(naive.recv(0, 0), x)
        ys = naive.recv(0, 1)
        assert isinstance(ys, tuple) and len(ys) == 2
        for a, b in zip(xs, ys):
            numpy.testing.assert_array_equal(a, b)


def test_send_unsupported_dtype(naive):
    with pytest.raises(TypeError, match='does not support dtype'):
        naive.send(numpy.zeros(3, numpy.uint8), dest=1 - naive.rank, tag=0)


def test_send_mixed_dtypes_in_tuple(naive):
    with pytest.raises(TypeError):
        naive.send((numpy.zeros(2, numpy.float32),
                    numpy.zeros(2, numpy.float64)),
                   dest=1 - naive.rank, tag=0)


@pytest.mark.parametrize('dtype', DTYPES)
def test_bcast(naive, dtype):
    x = _values(0, (2, 3), dtype)
    y = naive.bcast(x if naive.rank == 0 else None, root=0)
    if naive.rank == 0:
        assert y is x
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y, x)


def test_bcast_tuple_raises(naive):
    if naive.rank == 0:
        with pytest.raises(TypeError):
            naive.bcast((numpy.zeros(2, numpy.float32),))


@pytest.mark.parametrize('dtype', DTYPES)
def test_gather_different_shapes(naive, dtype):
    x = _values(naive.rank, (naive.rank + 1, 2), dtype)
    ys = naive.gather(x, root=1)
    if naive.rank == 1:
        assert len(ys) == 2
        for r, y in enumerate(ys):
            numpy.testing.assert_array_equal(y, _values(r, (r + 1, 2), dtype))
    else:
        assert ys is None


@pytest.mark.parametrize('dtype', DTYPES)
def test_allgather(naive, dtype):
    ys = naive.allgather(_values(naive.rank, (3,), dtype))
    assert len(ys) == 2
    for r, y in enumerate(ys):
        assert y.dtype == dtype
        numpy.testing.assert_array_equal(y, _values(r, (3,), dtype))


@pytest.mark.parametrize('dtype', DTYPES)
def test_alltoall(naive, dtype):
    xs = tuple(_values(naive.rank * 2 + dest, (dest + 1,), dtype)
               for dest in range(2))
    ys = naive.alltoall(xs)
    for source, y in enumerate(ys):
        numpy.testing.assert_array_equal(
            y, _values(source * 2 + naive.rank, (naive.rank + 1,), dtype))


def test_alltoall_wrong_length(naive):
    with pytest.raises(ValueError):
        naive.alltoall((numpy.zeros(1, numpy.float32),))


@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('as_tuple', [True, False])
def test_scatter(naive, dtype, as_tuple):
    xs = _values(0, (2, 3), dtype)
    if as_tuple:
        xs = (xs[0], xs[1])
    y = naive.scatter(xs if naive.rank == 0 else None, root=0)
    numpy.testing.assert_array_equal(y, _values(0, (2, 3), dtype)[naive.rank])


def test_scatter_wrong_length(naive):
    if naive.rank == 0:
        with pytest.raises(ValueError):
            naive.scatter(numpy.zeros((3, 2), numpy.float32))


@pytest.mark.parametrize('dtype', DTYPES)
def test_allreduce(naive, dtype):
    x = _values(naive.rank, (4,), dtype)
    y = naive.allreduce(x)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(
        y, (_values(0, (4,), dtype).astype(numpy.float64)
            + _values(1, (4,), dtype)).astype(dtype))
    numpy.testing.assert_array_equal(x, _values(naive.rank, (4,), dtype))


def test_objects(naive):
    if naive.rank == 0:
        naive.send_obj({'a': [1, 2]}, dest=1, tag=5)
    else:
        assert naive.recv_obj(source=0, tag=5) == {'a': [1, 2]}
    assert naive.gather_obj(naive.rank * 3, root=0) == (
        [0, 3] if naive.rank == 0 else None)
    assert naive.allreduce_obj(naive.rank + 1) == 3
    obj = ('x' * 10, list(range(10)))
    assert naive.bcast_obj(obj if naive.rank == 0 else None) == obj


def test_bcast_obj_in_chunks(naive):
    # A 1 MB array in chunks of 1000 bytes: many Bcast calls, one object.
    obj = numpy.arange(131072, dtype=numpy.float64)
    got = naive.bcast_obj(obj if naive.rank == 0 else None,
                          max_buf_len=1000)
    numpy.testing.assert_array_equal(got, obj)


def test_chunked_bcast_obj_limits(naive):
    with pytest.raises(AssertionError):
        _communication_utility.chunked_bcast_obj(
            [1], naive.mpi_comm, max_buf_len=0)
    with pytest.raises(AssertionError):
        _communication_utility.chunked_bcast_obj(
            [1], naive.mpi_comm, max_buf_len=_communication_utility.INT_MAX)


class _Model(chainer.Chain):

    def __init__(self, dtype_a=numpy.float32, dtype_b=numpy.float32):
        super().__init__()
        with self.init_scope():
            self.a = L.Linear(2, 3, initialW=chainer.initializers.Normal(
                dtype=dtype_a), initial_bias=chainer.initializers.Zero(
                    dtype=dtype_a))
            self.b = L.Linear(3, 4, initialW=chainer.initializers.Normal(
                dtype=dtype_b), initial_bias=chainer.initializers.Zero(
                    dtype=dtype_b))
            self.c = L.Linear(None, 5)


@pytest.mark.parametrize('dtype_b', [numpy.float32, numpy.float16,
                                     numpy.float64])
def test_multi_node_mean_grad(comm, dtype_b):
    model = _Model(dtype_b=dtype_b)
    for i, (_, param) in enumerate(sorted(model.namedparams())):
        if param.array is not None:
            param.grad = param.xp.full_like(param.array,
                                            comm.rank * 4 + i)
    comm.multi_node_mean_grad(model)
    for i, (_, param) in enumerate(sorted(model.namedparams())):
        if param.array is not None:
            assert param.grad.dtype == param.dtype
            chainer.testing.assert_allclose(
                param.grad, numpy.full(param.shape, 2 + i, numpy.float64))
    assert model.c.W.array is None


def test_multi_node_mean_grad_zero_fill(comm):
    model = _Model()
    model.cleargrads()
    model.a.W.grad = numpy.full((3, 2), comm.rank + 1, numpy.float32)
    if comm.rank == 0:
        model.b.W.grad = numpy.full((4, 3), 4, numpy.float32)
    comm.multi_node_mean_grad(model, zero_fill=True)
    chainer.testing.assert_allclose(model.a.W.grad, numpy.full((3, 2), 1.5))
    chainer.testing.assert_allclose(model.b.W.grad, numpy.full((4, 3), 2.))
    chainer.testing.assert_allclose(model.a.b.grad, numpy.zeros(3))


def test_multi_node_mean_grad_debug_detects_nan(comm):
    model = _Model()
    for param in model.params():
        if param.array is not None:
            param.grad = param.xp.zeros_like(param.array)
    model.a.b.grad[0] = numpy.nan
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match='diverged'):
            comm.multi_node_mean_grad(model)


def test_allreduce_grad_is_deprecated(naive):
    model = _Model()
    for param in model.params():
        if param.array is not None:
            param.grad = param.xp.full_like(param.array, naive.rank)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        naive.allreduce_grad(model)
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)
    chainer.testing.assert_allclose(model.a.W.grad, numpy.full((3, 2), .5))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_bcast_data(comm, dtype):
    model = _Model(dtype_a=dtype)
    model.a.W.array[...] = comm.rank + 1
    model.b.b.array[...] = comm.rank + 7
    comm.bcast_data(model)
    assert model.a.W.dtype == dtype
    chainer.testing.assert_allclose(model.a.W.array, numpy.ones((3, 2)))
    chainer.testing.assert_allclose(model.b.b.array, numpy.full(4, 7.))


def test_split(naive):
    sub = naive.split(color=naive.rank, key=0)
    assert type(sub) is type(naive)
    assert sub.size == 1 and sub.rank == 0
    assert sub.allreduce(numpy.ones(2, numpy.float32)).tolist() == [1, 1]


def test_dummy_communicator_does_not_communicate():
    comm = chainermn.create_communicator('dummy')
    model = _Model()
    for param in model.params():
        if param.array is not None:
            param.grad = param.xp.full_like(param.array, comm.rank)
    comm.multi_node_mean_grad(model)
    chainer.testing.assert_allclose(model.a.W.grad,
                                    numpy.full((3, 2), comm.rank))


def test_config():
    comm = chainermn.create_communicator('naive', batched_copy=False)
    assert comm.get_config('batched_copy') is False
    comm.set_config('batched_copy')
    assert comm.batched_copy is True
    with pytest.raises(ValueError):
        comm.set_config('no such config')


@pytest.mark.parametrize('name', ['unknown', 'hierarchical',
                                  'two_dimensional', 'single_node'])
def test_unrecognized_communicator(name):
    with pytest.raises(ValueError, match='Unrecognized communicator'):
        chainermn.create_communicator(name)


def test_allreduce_grad_dtype_only_for_pure_nccl():
    with pytest.raises(ValueError, match='pure_nccl'):
        chainermn.create_communicator('naive',
                                      allreduce_grad_dtype=numpy.float16)


def test_unexpected_keyword():
    with pytest.raises(TypeError):
        chainermn.create_communicator('naive', no_such_option=1)


def test_pure_nccl_without_nccl():
    from chainermn import nccl
    if nccl._available:
        pytest.skip('NCCL is available here')
    with pytest.raises(RuntimeError, match='NCCL is not available'):
        chainermn.create_communicator('pure_nccl')
    with pytest.raises(RuntimeError, match='NCCL is not available'):
        chainermn.create_communicator()


@pytest.mark.parametrize('chunk_size', [1, 5, 7, 1 << 22])
@pytest.mark.parametrize('name', ['flat', 'non_cuda_aware'])
def test_flat_windows_cross_arrays(name, chunk_size):
    comm = chainermn.create_communicator(name)
    comm.chunk_size = chunk_size
    model = _Model(dtype_b=numpy.float16)
    model.c.W.initialize((5, 3))
    expected = {}
    for i, (path, param) in enumerate(sorted(model.namedparams())):
        values = numpy.arange(param.size).reshape(param.shape) + i
        param.grad = (values * (comm.rank + 1)).astype(param.dtype)
        expected[path] = values * 1.5
    # A non-contiguous gradient is written back too.
    model.a.W.grad = numpy.asfortranarray(model.a.W.grad)
    comm.multi_node_mean_grad(model)
    for path, param in sorted(model.namedparams()):
        chainer.testing.assert_allclose(param.grad, expected[path],
                                        rtol=1e-3)
