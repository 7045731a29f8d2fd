#!/usr/bin/env python
"""Model-parallel MNIST training with ChainerMN, on exactly two processes.

::

    mpiexec -n 2 python train_mnist_model_parallel.py

The multi-layer perceptron is cut in three: rank 0 runs the first layer and
sends its activations to rank 1, which runs the hidden layer and sends the
result back to rank 0 for the output layer and the loss. Backward runs the
same path in reverse: the gradients travel between the ranks through
:func:`chainermn.functions.send` and :func:`chainermn.functions.recv`.
Both ranks iterate over the training set in the same order; rank 1 sees
only empty examples, as it receives its input from rank 0.
"""
import argparse

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

import chainermn
import chainermn.datasets
import chainermn.functions


class MLP0SubA(chainer.Chain):
    """The input layer (rank 0)."""

    def __init__(self, n_units):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(784, n_units)

    def forward(self, x):
        return F.relu(self.l1(x))


class MLP0SubB(chainer.Chain):
    """The output layer (rank 0)."""

    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            self.l3 = L.Linear(n_units, n_out)

    def forward(self, h):
        return self.l3(h)


class MLP0(chainermn.MultiNodeChainList):
    """Rank 0's part: input layer, then (after rank 1) the output layer."""

    def __init__(self, comm, n_units, n_out):
        super().__init__(comm=comm)
        self.add_link(MLP0SubA(n_units), rank_in=None, rank_out=1)
        self.add_link(MLP0SubB(n_units, n_out), rank_in=1, rank_out=None)


class MLP1Sub(chainer.Chain):
    """The hidden layer (rank 1)."""

    def __init__(self, n_units):
        super().__init__()
        with self.init_scope():
            self.l2 = L.Linear(n_units, n_units)

    def forward(self, h):
        return F.relu(self.l2(h))


class MLP1(chainermn.MultiNodeChainList):
    """Rank 1's part: receives from rank 0 and sends back to it."""

    def __init__(self, comm, n_units):
        super().__init__(comm=comm)
        self.add_link(MLP1Sub(n_units), rank_in=0, rank_out=0)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description='ChainerMN example: pipelined neural network')
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
    if comm.size != 2:
        raise ValueError('This example can only be executed on exactly 2 '
                         'processes.')
    if args.gpu:
        device = chainer.get_device('@cupy:{}'.format(comm.intra_rank))
    else:
        device = chainer.get_device('@numpy')
    device.use()

    if comm.rank == 0:
        print('==========================================')
        print('Device: {}'.format(device))
        print('Num unit: {}'.format(args.unit))
        print('Num Minibatch-size: {}'.format(args.batchsize))
        print('Num epoch: {}'.format(args.epoch))
        print('==========================================')

    if comm.rank == 0:
        model = L.Classifier(MLP0(comm, args.unit, 10))
    else:
        model = MLP1(comm, args.unit)
    model.to_device(device)

    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    # Rank 1 takes no input; it iterates over empty examples in step with
    # rank 0 (no shuffling, so both see the same batches).
    train, test = chainer.datasets.get_mnist()
    if comm.rank == 1:
        train = chainermn.datasets.create_empty_dataset(train)
        test = chainermn.datasets.create_empty_dataset(test)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize,
                                                  shuffle=False)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    updater = training.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))

    if comm.rank == 0:
        trainer.extend(extensions.LogReport())
        trainer.extend(extensions.PrintReport(
            ['epoch', 'main/loss', 'validation/main/loss',
             'main/accuracy', 'validation/main/accuracy', 'elapsed_time']))
        trainer.extend(extensions.ProgressBar())

    trainer.run()


if __name__ == '__main__':
    main()
