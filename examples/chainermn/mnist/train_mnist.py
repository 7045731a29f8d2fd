#!/usr/bin/env python
"""Data-parallel MNIST training with ChainerMN.

Start one process per worker::

    mpiexec -n 2 python train_mnist.py

Rank 0 loads MNIST and scatters the training and test sets; every rank
trains a copy of the same multi-layer perceptron on its part, and the
multi-node optimizer averages the gradients over the ranks before each
Adam update, so the ranks stay identical. The evaluator averages the test
results over the ranks; only rank 0 reports.
"""
import argparse

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

import chainermn


class MLP(chainer.Chain):
    """Three fully-connected layers with ReLU between them."""

    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(784, n_units)
            self.l2 = L.Linear(n_units, n_units)
            self.l3 = L.Linear(n_units, n_out)

    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description='ChainerMN example: MNIST')
    parser.add_argument('--batchsize', '-b', type=int, default=100,
                        help='Number of images in each mini-batch (per '
                        'process)')
    parser.add_argument('--communicator', type=str, default='pure_nccl',
                        help='Type of communicator')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='Number of sweeps over the dataset to train')
    parser.add_argument('--gpu', '-g', action='store_true',
                        help='Use GPU (one per process)')
    parser.add_argument('--out', '-o', default='result',
                        help='Directory to output the result')
    parser.add_argument('--resume', '-r', default='',
                        help='Resume the training from snapshot')
    parser.add_argument('--unit', '-u', type=int, default=1000,
                        help='Number of units')
    parser.add_argument('--noplot', dest='plot', action='store_false',
                        help='Disable PlotReport extension')
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)

    # Without GPUs, only the MPI communicators work.
    if not args.gpu and args.communicator == 'pure_nccl':
        args.communicator = 'naive'
    comm = chainermn.create_communicator(args.communicator)
    if args.gpu:
        device = chainer.get_device('@cupy:{}'.format(comm.intra_rank))
    else:
        device = chainer.get_device('@numpy')

    if comm.rank == 0:
        print('==========================================')
        print('Num process (COMM_WORLD): {}'.format(comm.size))
        print('Using {} communicator'.format(args.communicator))
        print('Device: {}'.format(device))
        print('Num unit: {}'.format(args.unit))
        print('Num Minibatch-size: {}'.format(args.batchsize))
        print('Num epoch: {}'.format(args.epoch))
        print('==========================================')

    model = L.Classifier(MLP(args.unit, 10))
    model.to_device(device)
    device.use()

    # Averages the gradients over the ranks before each Adam update.
    optimizer = chainermn.create_multi_node_optimizer(
        chainer.optimizers.Adam(), comm)
    optimizer.setup(model)

    # Rank 0 reads the data; every rank gets its share.
    if comm.rank == 0:
        train, test = chainer.datasets.get_mnist()
    else:
        train, test = None, None
    train = chainermn.scatter_dataset(train, comm, shuffle=True)
    test = chainermn.scatter_dataset(test, comm, shuffle=True)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    updater = training.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    # The test results of all ranks are averaged.
    evaluator = extensions.Evaluator(test_iter, model, device=device)
    evaluator = chainermn.create_multi_node_evaluator(evaluator, comm)
    trainer.extend(evaluator)

    # Only rank 0 reports and takes snapshots.
    if comm.rank == 0:
        trainer.extend(extensions.DumpGraph('main/loss'))
        trainer.extend(extensions.LogReport())
        if args.plot and extensions.PlotReport.available():
            trainer.extend(extensions.PlotReport(
                ['main/loss', 'validation/main/loss'], 'epoch',
                file_name='loss.png'))
            trainer.extend(extensions.PlotReport(
                ['main/accuracy', 'validation/main/accuracy'], 'epoch',
                file_name='accuracy.png'))
        trainer.extend(extensions.PrintReport(
            ['epoch', 'main/loss', 'validation/main/loss',
             'main/accuracy', 'validation/main/accuracy', 'elapsed_time']))
        trainer.extend(extensions.ProgressBar())

    if args.resume:
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()


if __name__ == '__main__':
    main()
