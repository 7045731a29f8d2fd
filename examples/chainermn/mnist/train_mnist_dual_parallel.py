#!/usr/bin/env python
"""Model- and data-parallel MNIST training with ChainerMN.

::

    mpiexec -n 2 python train_mnist_dual_parallel.py   # or -n 4, 6, ...

The processes form pairs: in each pair, rank ``2k`` and rank ``2k + 1``
split the network as in ``train_mnist_model_parallel.py``. Across the pairs,
the processes that hold the same part train it data-parallel: each pair
gets its share of the training set, and the multi-node optimizer averages
the gradients of each part over the pairs.
"""
import argparse

import chainer
import chainer.links as L
from chainer import training
from chainer.training import extensions

import chainermn
import chainermn.datasets

from train_mnist_model_parallel import MLP0
from train_mnist_model_parallel import MLP1


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description='ChainerMN example: pipelined neural network with data '
        'parallelism')
    parser.add_argument('--batchsize', '-b', type=int, default=100,
                        help='Number of images in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='Number of sweeps over the dataset to train')
    parser.add_argument('--gpu', '-g', action='store_true',
                        help='Use GPU')
    parser.add_argument('--out', '-o', default='result',
                        help='Directory to output the result')
    parser.add_argument('--unit', '-u', type=int, default=1000,
                        help='Number of units')
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)

    comm = chainermn.create_communicator('pure_nccl' if args.gpu
                                         else 'naive')
    if comm.size % 2 != 0:
        raise ValueError('This example can only be executed on an even '
                         'number of processes.')
    if args.gpu:
        device = chainer.get_device('@cupy:{}'.format(comm.intra_rank))
    else:
        device = chainer.get_device('@numpy')
    device.use()

    # model_comm: the two processes of a pair (ranks 0 and 1 inside it).
    # data_comm: the processes holding the same part, one per pair.
    model_comm = comm.split(comm.rank // 2, comm.rank)
    data_comm = comm.split(comm.rank % 2, comm.rank)

    if comm.rank == 0:
        print('==========================================')
        print('Num process (COMM_WORLD): {}'.format(comm.size))
        print('Num model-parallel pairs: {}'.format(data_comm.size))
        print('Device: {}'.format(device))
        print('Num unit: {}'.format(args.unit))
        print('Num Minibatch-size: {}'.format(args.batchsize))
        print('Num epoch: {}'.format(args.epoch))
        print('==========================================')

    if model_comm.rank == 0:
        model = L.Classifier(MLP0(model_comm, args.unit, 10))
    else:
        model = MLP1(model_comm, args.unit)
    model.to_device(device)

    optimizer = chainermn.create_multi_node_optimizer(
        chainer.optimizers.Adam(), data_comm)
    optimizer.setup(model)

    # The first process of each part scatters the data over the pairs; the
    # second process of a pair iterates over as many empty examples.
    if data_comm.rank == 0:
        train, test = chainer.datasets.get_mnist()
    else:
        train, test = None, None
    train = chainermn.scatter_dataset(train, data_comm, shuffle=True, seed=0)
    test = chainermn.scatter_dataset(test, data_comm, shuffle=True, seed=0)
    if model_comm.rank == 1:
        train = chainermn.datasets.create_empty_dataset(train)
        test = chainermn.datasets.create_empty_dataset(test)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize,
                                                  shuffle=False)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    updater = training.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    evaluator = extensions.Evaluator(test_iter, model, device=device)
    trainer.extend(chainermn.create_multi_node_evaluator(evaluator,
                                                         data_comm))

    if comm.rank == 0:
        trainer.extend(extensions.LogReport())
        trainer.extend(extensions.PrintReport(
            ['epoch', 'main/loss', 'validation/main/loss',
             'main/accuracy', 'validation/main/accuracy', 'elapsed_time']))
        trainer.extend(extensions.ProgressBar())

    trainer.run()


if __name__ == '__main__':
    main()
