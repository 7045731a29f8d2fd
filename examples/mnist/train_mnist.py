#!/usr/bin/env python
"""Trains a multi-layer perceptron on MNIST with the Trainer.

The network is three fully-connected layers wrapped in
:class:`chainer.links.Classifier`; the trainer evaluates it on the test set
after every epoch, logs and plots the numbers, and takes snapshots that
``--resume`` or ``--autoload`` can start from again.
"""
import argparse

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions


class MLP(chainer.Chain):
    """Three fully-connected layers with ReLU between them.

    Args:
        n_units (int): Width of the two hidden layers.
        n_out (int): Number of outputs (classes).
    """

    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            # Input sizes are inferred from the first mini-batch.
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


DEVICE_HELP = ('Device specifier. Either ChainerX device specifier or an '
               'integer. If non-negative integer, CuPy arrays with specified '
               'device id are used. If negative integer, NumPy arrays are '
               'used')


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description='Chainer example: MNIST')
    parser.add_argument('--batchsize', '-b', type=int, default=100,
                        help='Number of images in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='Number of sweeps over the dataset to train')
    parser.add_argument('--frequency', '-f', type=int, default=-1,
                        help='Frequency of taking a snapshot')
    parser.add_argument('--device', '-d', type=str, default='-1',
                        help=DEVICE_HELP)
    parser.add_argument('--out', '-o', default='result',
                        help='Directory to output the result')
    parser.add_argument('--resume', '-r', type=str,
                        help='Resume the training from snapshot')
    parser.add_argument('--autoload', action='store_true',
                        help='Automatically load trainer snapshots in case'
                        ' of preemption or other temporary system failure')
    parser.add_argument('--unit', '-u', type=int, default=1000,
                        help='Number of units')
    parser.add_argument('--noplot', dest='plot', action='store_false',
                        help='Disable PlotReport extension')
    group = parser.add_argument_group('deprecated arguments')
    group.add_argument('--gpu', '-g', dest='device',
                       type=int, nargs='?', const=0,
                       help='GPU ID (negative value indicates CPU)')
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    device = chainer.get_device(args.device)

    print('Device: {}'.format(device))
    print('# unit: {}'.format(args.unit))
    print('# Minibatch-size: {}'.format(args.batchsize))
    print('# epoch: {}'.format(args.epoch))
    print('')

    # The Classifier reports the softmax cross entropy loss and the accuracy
    # at every call; PrintReport shows them below.
    model = L.Classifier(MLP(args.unit, 10))
    model.to_device(device)
    device.use()

    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train, test = chainer.datasets.get_mnist()
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    # Evaluate on the test set after every epoch (and once before training).
    trainer.extend(extensions.Evaluator(test_iter, model, device=device),
                   call_before_training=True)

    # Write the graph of the first iteration's loss as Graphviz dot.
    trainer.extend(extensions.DumpGraph('main/loss'))

    # Keep only the latest snapshot; with --autoload, training restarts from
    # the newest snapshot found in the output directory.
    frequency = args.epoch if args.frequency == -1 else max(1, args.frequency)
    trainer.extend(extensions.snapshot(n_retains=1, autoload=args.autoload),
                   trigger=(frequency, 'epoch'))

    trainer.extend(extensions.LogReport(), call_before_training=True)

    if args.plot and extensions.PlotReport.available():
        trainer.extend(
            extensions.PlotReport(['main/loss', 'validation/main/loss'],
                                  'epoch', file_name='loss.png'),
            call_before_training=True)
        trainer.extend(
            extensions.PlotReport(
                ['main/accuracy', 'validation/main/accuracy'],
                'epoch', file_name='accuracy.png'),
            call_before_training=True)

    # 'main' is the optimizer's target link, 'validation' the Evaluator's
    # default name.
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss',
         'main/accuracy', 'validation/main/accuracy', 'elapsed_time']),
        call_before_training=True)

    trainer.extend(extensions.ProgressBar())

    if args.resume is not None:
        # A snapshot found by --autoload takes precedence over this one.
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()


if __name__ == '__main__':
    main()
