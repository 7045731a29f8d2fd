"""Training on two MPI ranks against the same training in one process."""

import os
import shutil
import tempfile

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
import chainer.testing
from chainer import training
from chainer.training import extensions
import chainermn


@pytest.fixture
def comm():
    communicator = chainermn.create_communicator('naive')
    yield communicator
    communicator.finalize()


class MLP(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 6)
            self.l2 = L.Linear(6, 3)

    def forward(self, x):
        return self.l2(F.tanh(self.l1(x)))


def _data(n=16, seed=0):
    rng = numpy.random.RandomState(seed)
    x = rng.uniform(-1, 1, (n, 4)).astype(numpy.float32)
    t = rng.randint(0, 3, n).astype(numpy.int32)
    return x, t


def _model(seed):
    numpy.random.seed(seed)
    return L.Classifier(MLP())


@pytest.mark.parametrize('communicator_name', ['naive', 'flat',
                                               'non_cuda_aware'])
@pytest.mark.parametrize('optimizer', [
    lambda: chainer.optimizers.SGD(lr=0.5),
    lambda: chainer.optimizers.MomentumSGD(lr=0.2),
    lambda: chainer.optimizers.Adam(alpha=0.05),
], ids=['SGD', 'MomentumSGD', 'Adam'])
def test_data_parallel_equals_one_process(communicator_name, optimizer):
    comm = chainermn.create_communicator(communicator_name)
    x, t = _data()
    # Different initial weights on the two ranks: the first update
    # broadcasts rank 0's.
    model = _model(seed=comm.rank)
    opt = chainermn.create_multi_node_optimizer(optimizer(), comm)
    opt.setup(model)
    reference = _model(seed=0)
    ref_opt = optimizer()
    ref_opt.setup(reference)

    local = slice(comm.rank * 4, comm.rank * 4 + 4)
    opt.update()  # the first call broadcasts the parameters
    for step in range(5):
        batch = slice(step * 2 % 8, step * 2 % 8 + 8)
        xb, tb = x[batch], t[batch]
        opt.update(model, xb[local], tb[local])
        ref_opt.update(reference, xb, tb)

    for (name, p), (_, q) in zip(sorted(model.namedparams()),
                                 sorted(reference.namedparams())):
        numpy.testing.assert_allclose(p.array, q.array, atol=1e-5,
                                        rtol=1e-4, err_msg=name)
    comm.finalize()


def test_double_buffering_needs_pure_nccl(comm):
    with pytest.raises(ValueError):
        chainermn.create_multi_node_optimizer(
            chainer.optimizers.SGD(), comm, double_buffering=True)


class _TanhLinear(chainer.Chain):

    def __init__(self, linear):
        super().__init__()
        with self.init_scope():
            self.linear = linear

    def forward(self, h):
        return self.linear(F.tanh(h))


class _Lower(chainermn.MultiNodeChainList):

    def __init__(self, comm, l1):
        super().__init__(comm)
        self.add_link(l1, rank_in=None, rank_out=1)


class _Upper(chainermn.MultiNodeChainList):

    def __init__(self, comm, l2):
        super().__init__(comm)
        self.add_link(l2, rank_in=0, rank_out=None)


def test_model_parallel_gradients_equal_one_process(comm):
    x, t = _data(n=5)
    numpy.random.seed(3)
    whole = MLP()
    loss = F.softmax_cross_entropy(whole(x), t)
    whole.cleargrads()
    loss.backward()

    if comm.rank == 0:
        part = whole.l1.copy(mode='copy')
        model = _Lower(comm, part)
        model.cleargrads()
        delegate = model(x)
        delegate.backward()
        reference = whole.l1
    else:
        part = whole.l2.copy(mode='copy')
        model = _Upper(comm, _TanhLinear(part))
        model.cleargrads()
        y = model()
        model_loss = F.softmax_cross_entropy(y, t)
        model_loss.backward()
        chainer.testing.assert_allclose(model_loss.array, loss.array)
        reference = whole.l2
    for (name, p), (_, q) in zip(sorted(part.namedparams()),
                                 sorted(reference.namedparams())):
        numpy.testing.assert_allclose(p.grad, q.grad, atol=1e-6,
                                        err_msg=name)


def test_send_recv_functions_backprop(comm):
    x = chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    if comm.rank == 0:
        delegate = chainermn.functions.send(x * 2, comm, rank=1)
        delegate.backward()
        # d(sum(y ** 2)) / dx with y = 2x is 8x.
        chainer.testing.assert_allclose(x.grad, 8 * x.array)
    else:
        y = chainermn.functions.recv(comm, rank=0)
        F.sum(y ** 2).backward()


def test_allgather_function_gradient(comm):
    x = chainer.Variable(numpy.full((2,), comm.rank + 1., numpy.float32))
    ys = chainermn.functions.allgather(comm, x)
    # Each rank weights rank r's value by (r + 1) * (own rank + 1).
    loss = sum(F.sum(y) * (r + 1) * (comm.rank + 1)
               for r, y in enumerate(ys))
    loss.backward()
    # Gradient for rank r: (r + 1) * sum over ranks of (rank + 1) = 3(r+1).
    chainer.testing.assert_allclose(
        x.grad, numpy.full((2,), 3. * (comm.rank + 1)))


@pytest.mark.parametrize('force_equal_length', [True, False])
@pytest.mark.parametrize('n', [10, 11])
def test_scatter_dataset(comm, force_equal_length, n):
    data = numpy.arange(n) if comm.rank == 0 else None
    sub = chainermn.scatter_dataset(data, comm, shuffle=True, seed=3,
                                    force_equal_length=force_equal_length)
    mine = sorted(int(sub[i]) for i in range(len(sub)))
    everyone = comm.allgather_obj(mine) if hasattr(comm, 'allgather_obj') \
        else comm.mpi_comm.allgather(mine)
    merged = sum(everyone, [])
    assert set(merged) == set(range(n))
    lengths = [len(m) for m in everyone]
    if force_equal_length:
        assert lengths[0] == lengths[1] == -(-n // 2)
    else:
        assert len(merged) == n
        assert abs(lengths[0] - lengths[1]) <= 1


def test_create_empty_dataset():
    assert chainermn.datasets.create_empty_dataset(range(3)) == [(), (), ()]


def test_multi_node_evaluator_averages(comm):
    model = L.Classifier(MLP())
    comm.bcast_data(model)
    x, t = _data(n=8)
    dataset = chainer.datasets.TupleDataset(x, t)
    local = chainermn.scatter_dataset(dataset if comm.rank == 0 else None,
                                      comm)
    it = chainer.iterators.SerialIterator(local, 4, repeat=False,
                                          shuffle=False)
    evaluator = chainermn.create_multi_node_evaluator(
        extensions.Evaluator(it, model), comm)
    reporter = chainer.Reporter()
    reporter.add_observer('main', model)
    with reporter:
        result = evaluator.evaluate()
    with chainer.using_config('train', False):
        expected = float(model(x, t).array)
    chainer.testing.assert_allclose(result['main/loss'], expected,
                                    rtol=1e-5)


def test_synchronized_iterator_same_order(comm):
    data = list(range(20))
    it = chainermn.iterators.create_synchronized_iterator(
        chainer.iterators.SerialIterator(data, 5, shuffle=True), comm)
    batches = [it.next() for _ in range(6)]
    assert comm.mpi_comm.allgather(batches)[0] == batches


def test_multi_node_iterator_broadcasts(comm):
    x, t = _data(n=9)
    dataset = chainer.datasets.TupleDataset(x, t)
    it = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator(dataset, 4, shuffle=True), comm)
    for _ in range(3):
        batch = it.next()
        xs = numpy.stack([b[0] for b in batch])
        got = comm.mpi_comm.allgather(xs)
        numpy.testing.assert_array_equal(got[0], got[1])
    assert it.epoch == 1


def test_multi_node_batch_normalization_equals_global(comm):
    numpy.random.seed(0)
    x = numpy.random.normal(size=(8, 3)).astype(numpy.float32)
    gy = numpy.random.normal(size=(8, 3)).astype(numpy.float32)
    local = slice(comm.rank * 4, comm.rank * 4 + 4)
    mnbn = chainermn.links.MultiNodeBatchNormalization(3, comm)
    bn = L.BatchNormalization(3)
    xv = chainer.Variable(x[local])
    y = mnbn(xv)
    y.grad = gy[local]
    y.backward()
    xr = chainer.Variable(x)
    yr = bn(xr)
    yr.grad = gy
    yr.backward()
    chainer.testing.assert_allclose(y.array, yr.array[local], atol=1e-5)
    chainer.testing.assert_allclose(xv.grad, xr.grad[local],
                                    atol=1e-4, rtol=1e-4)
    chainer.testing.assert_allclose(mnbn.avg_mean, bn.avg_mean, atol=1e-6)
    # The moving variance starts at zero (ones in BatchNormalization) and
    # its unbiased correction uses the local batch size, as Chainer does.
    chainer.testing.assert_allclose(
        mnbn.avg_var, 0.1 * x.var(axis=0) * 4 / 3, atol=1e-5, rtol=1e-4)


def test_allreduce_persistent(comm):
    model = L.BatchNormalization(2)
    model.avg_mean[...] = comm.rank * 2
    chainermn.extensions.AllreducePersistent(model, comm)()
    chainer.testing.assert_allclose(model.avg_mean, numpy.ones(2))


def _trainer(comm, out, stop, resume):
    x, t = _data(n=32)
    dataset = chainer.datasets.TupleDataset(x, t)
    local = chainermn.scatter_dataset(dataset if comm.rank == 0 else None,
                                      comm, shuffle=True, seed=0)
    model = _model(seed=comm.rank)
    opt = chainermn.create_multi_node_optimizer(
        chainer.optimizers.MomentumSGD(lr=0.1), comm)
    opt.setup(model)
    it = chainer.iterators.SerialIterator(local, 4, shuffle=True)
    updater = training.StandardUpdater(it, opt)
    trainer = training.Trainer(updater, (stop, 'iteration'), out=out)
    snapshot = extensions.snapshot(
        filename='snapshot_iter_{.updater.iteration}', autoload=resume)
    trainer.extend(chainermn.extensions.multi_node_snapshot(
        comm, snapshot, [0]), trigger=(2, 'iteration'))
    if comm.rank == 0:
        trainer.extend(extensions.LogReport(trigger=(1, 'iteration')))
    return trainer, model


def test_multi_node_snapshot_resume(comm):
    out = tempfile.mkdtemp() if comm.rank == 0 else None
    out = comm.bcast_obj(out)
    try:
        numpy.random.seed(1)
        whole, whole_model = _trainer(comm, os.path.join(out, 'a'), 6, False)
        whole.run()

        numpy.random.seed(1)
        first, _ = _trainer(comm, os.path.join(out, 'b'), 4, False)
        first.run()
        comm.mpi_comm.barrier()
        resumed, resumed_model = _trainer(comm, os.path.join(out, 'b'), 6,
                                          True)
        seen = []
        resumed.extend(lambda trainer: seen.append(trainer.updater.iteration),
                       trigger=(1, 'iteration'))
        resumed.run()
        assert seen == [5, 6]
        for (name, p), (_, q) in zip(sorted(resumed_model.namedparams()),
                                     sorted(whole_model.namedparams())):
            numpy.testing.assert_allclose(p.array, q.array, atol=1e-6,
                                            err_msg=name)
        if comm.rank == 0:
            # The same log as the uninterrupted run (but for the times).
            def losses(trainer):
                log = trainer.get_extension('LogReport').log
                return [(e['iteration'], e['main/loss']) for e in log]
            assert [i for i, _ in losses(resumed)] == list(range(1, 7))
            numpy.testing.assert_allclose(
                [v for _, v in losses(resumed)],
                [v for _, v in losses(whole)], rtol=1e-5)
            files = sorted(os.listdir(os.path.join(out, 'b')))
            assert 'snapshot_iter_4.0' in files
            assert 'snapshot_iter_4.1' in files
    finally:
        comm.mpi_comm.barrier()
        if comm.rank == 0:
            shutil.rmtree(out, ignore_errors=True)
