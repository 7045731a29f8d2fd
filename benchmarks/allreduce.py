#!/usr/bin/env python
"""Gradient averaging of ChainerMN beside a raw mpi4py Allreduce.

Run under MPI::

    mpiexec -n 2 python benchmarks/allreduce.py

The gradients are those of ResNet-50 (25.6 M float32 parameters in 161
arrays). Each communicator's ``multi_node_mean_grad`` is timed beside a raw
``mpi4py`` ``Allreduce`` of the same bytes in one buffer, in the same run;
rank 0 prints the bandwidth of each (gradient bytes / time) and the ratio
of their times.
"""

import argparse
import time

import numpy

import chainer
import chainermn


def _resnet50_gradients(comm):
    model = chainer.links.ResNet50Layers(pretrained_model=None)
    for i, param in enumerate(model.params()):
        param.grad = numpy.full(param.shape, comm.rank + i % 7,
                                numpy.float32)
    return model


def _best_time(comm, function, repeat):
    times = []
    for _ in range(repeat):
        comm.mpi_comm.Barrier()
        start = time.perf_counter()
        function()
        comm.mpi_comm.Barrier()
        times.append(time.perf_counter() - start)
    # The slowest rank decides; the median resists outliers.
    return comm.mpi_comm.allreduce(float(numpy.median(times)), op=_max())


def _max():
    from mpi4py import MPI
    return MPI.MAX


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=10)
    parser.add_argument('--communicators', nargs='+',
                        default=['naive', 'flat'])
    args = parser.parse_args()
    from mpi4py import MPI

    comm = chainermn.create_communicator('naive')
    model = _resnet50_gradients(comm)
    params = list(model.params())
    n_elems = sum(p.size for p in params)
    n_bytes = n_elems * 4
    buffer = numpy.ones(n_elems, numpy.float32)

    raw = _best_time(
        comm, lambda: comm.mpi_comm.Allreduce(MPI.IN_PLACE, buffer),
        args.repeat)
    rows = [('raw mpi4py Allreduce', raw)]
    for name in args.communicators:
        communicator = chainermn.create_communicator(name)
        elapsed = _best_time(
            communicator, lambda: communicator.multi_node_mean_grad(model),
            args.repeat)
        rows.append(('{} multi_node_mean_grad'.format(name), elapsed))

    if comm.rank == 0:
        print('{} ranks, {} arrays, {:.1f} M float32 ({:.0f} MB), '
              'median of {}'.format(comm.size, len(params), n_elems / 1e6,
                                    n_bytes / 1e6, args.repeat))
        print('{:<36}{:>10}{:>10}{:>8}'.format('', 'ms', 'GB/s', 'ratio'))
        for label, elapsed in rows:
            print('{:<36}{:>10.1f}{:>10.2f}{:>8.2f}'.format(
                label, elapsed * 1e3, n_bytes / elapsed / 1e9,
                elapsed / raw))


if __name__ == '__main__':
    main()
