"""One rank raises while the others wait in a collective operation.

Run as ``mpiexec -n 2 python fail_on_one_rank.py CASE FAILING_RANK
[direct]``: every rank creates a communicator (with
:func:`chainermn.create_communicator`, or by calling the communicator class
itself with ``direct``), then the rank ``FAILING_RANK`` raises
``RuntimeError('failure on rank N')`` where the other ranks enter the
collective operation ``CASE`` (one of :data:`CASES`). Where the operation
has a root, the failing rank is the root, so that the others have to wait
for it. ``test_global_except_hook.py`` checks that the job ends.
"""

import sys
import tempfile

import numpy

import chainer
import chainer.links as L
import chainermn


def _fail(comm):
    raise RuntimeError('failure on rank {}'.format(comm.rank))


def scatter_dataset(comm, failing_rank):
    # The examples' pattern: the root loads the dataset (here, it fails to).
    dataset = _fail(comm) if comm.rank == failing_rank else None
    chainermn.scatter_dataset(dataset, comm, root=failing_rank,
                              shuffle=True)


def bcast_obj(comm, failing_rank):
    obj = _fail(comm) if comm.rank == failing_rank else None
    comm.bcast_obj(obj, root=failing_rank)


def allreduce(comm, failing_rank):
    if comm.rank == failing_rank:
        _fail(comm)
    comm.allreduce(numpy.ones(3, numpy.float32))


def optimizer(comm, failing_rank):
    model = L.Linear(3, 2)
    opt = chainermn.create_multi_node_optimizer(
        chainer.optimizers.SGD(), comm)
    opt.setup(model)
    x = numpy.ones((2, 3), numpy.float32)

    def lossfun():
        return chainer.functions.sum(model(x))

    opt.update(lossfun)  # broadcasts rank 0's parameters
    if comm.rank == failing_rank:
        # A loss that cannot be computed on this rank only.
        opt.update(lambda: _fail(comm))
    opt.update(lossfun)  # averages the gradients


def evaluator(comm, failing_rank):
    class Model(chainer.Chain):

        def forward(self, x):
            if comm.rank == failing_rank:
                _fail(comm)
            chainer.report({'loss': chainer.functions.sum(x)}, self)
            return x

    iterator = chainer.iterators.SerialIterator(
        numpy.ones((4, 3), numpy.float32), 2, repeat=False, shuffle=False)
    evaluator = chainermn.create_multi_node_evaluator(
        chainer.training.extensions.Evaluator(iterator, Model()), comm)
    evaluator()


def checkpoint(comm, failing_rank):
    checkpointer = chainermn.create_multi_node_checkpointer('run', comm)
    if comm.rank == failing_rank:
        _fail(comm)
    with tempfile.TemporaryDirectory() as path:
        checkpointer.maybe_load(None, path=path)


CASES = {f.__name__: f for f in (scatter_dataset, bcast_obj, allreduce,
                                 optimizer, evaluator, checkpoint)}


def main(case, failing_rank, direct=False):
    if direct:
        from chainermn.communicators import naive_communicator
        from mpi4py import MPI
        comm = naive_communicator.NaiveCommunicator(MPI.COMM_WORLD)
    else:
        comm = chainermn.create_communicator('naive')
    CASES[case](comm, failing_rank)
    # Only reached if the job was not ended: ``mpiexec`` would then wait
    # here for the failing rank.
    print('rank {} left the collective operation'.format(comm.rank))
    comm.mpi_comm.Barrier()


if __name__ == '__main__':
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3:] == ['direct'])
