#!/usr/bin/env python
"""Trains an MNIST network split model-parallel across two devices.

The network is two halves, each made of two MLPs, one half per device;
their activations are exchanged with :func:`chainer.functions.copy`, which
also carries the gradients back. When both devices are the same (e.g. the
CPU, ``-d -1 -D -1``) the halves simply share it.
"""
import argparse

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

import train_mnist


class ParallelMLP(chainer.Chain):
    """Two MLP columns on two devices, mixed after their first stage.

    Args:
        n_units (int): Width of the hidden layers (split between columns).
        n_out (int): Number of outputs.
        device0: Device of the first column (the input and the output are
            on it).
        device1: Device of the second column.
    """

    def __init__(self, n_units, n_out, device0, device1):
        super().__init__()
        self.device0 = device0
        self.device1 = device1

        with self.init_scope():
            self.first0 = train_mnist.MLP(n_units // 2, n_units)
            self.first1 = train_mnist.MLP(n_units // 2, n_units)
            self.second0 = train_mnist.MLP(n_units // 2, n_out)
            self.second1 = train_mnist.MLP(n_units // 2, n_out)
        self.first0.to_device(device0)
        self.second0.to_device(device0)
        self.first1.to_device(device1)
        self.second1.to_device(device1)

    def forward(self, x):
        if self.device0 == self.device1:
            h = self.first0(x) + self.first1(x)
            return self.second0(F.relu(h)) + self.second1(F.relu(h))

        # x is on device0.
        z0 = self.first0(x)
        z1 = self.first1(F.copy(x, self.device1))

        # Exchange the first stage's outputs.
        h0 = z0 + F.copy(z1, self.device0)
        h1 = z1 + F.copy(z0, self.device1)

        y0 = self.second0(F.relu(h0))
        y1 = self.second1(F.relu(h1))
        return y0 + F.copy(y1, self.device0)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description='Chainer example: MNIST')
    parser.add_argument('--batchsize', '-b', type=int, default=100,
                        help='Number of images in each mini-batch')
    parser.add_argument('--epoch', '-e', default=20, type=int,
                        help='Number of sweeps over the dataset to train')
    parser.add_argument('--out', '-o', default='result_model_parallel',
                        help='Directory to output the result')
    parser.add_argument('--resume', '-r', default='',
                        help='Resume the training from snapshot')
    parser.add_argument('--unit', '-u', default=1000, type=int,
                        help='Number of units')
    parser.add_argument('--device0', '-d', type=str, default='0',
                        help='Device specifier of the first device. ' +
                        train_mnist.DEVICE_HELP)
    parser.add_argument('--device1', '-D', type=str, default='1',
                        help='Device specifier of the second device. ' +
                        train_mnist.DEVICE_HELP)
    group = parser.add_argument_group('deprecated arguments')
    group.add_argument('--gpu0', '-g', dest='device0', type=int, nargs='?',
                       const=0, help='First GPU ID')
    group.add_argument('--gpu1', '-G', dest='device1', type=int, nargs='?',
                       const=1, help='Second GPU ID')
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    device0 = chainer.get_device(args.device0)
    device1 = chainer.get_device(args.device1)

    print('Devices: {}, {}'.format(device0, device1))
    print('# unit: {}'.format(args.unit))
    print('# Minibatch-size: {}'.format(args.batchsize))
    print('# epoch: {}'.format(args.epoch))
    print('')

    model = L.Classifier(ParallelMLP(args.unit, 10, device0, device1))
    device0.use()

    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train, test = chainer.datasets.get_mnist()
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    # Only the inputs go to device0; the model's parameters stay where
    # ParallelMLP put them.
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, input_device=device0)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    trainer.extend(extensions.Evaluator(test_iter, model, device=device0))
    trainer.extend(extensions.DumpGraph('main/loss'))
    trainer.extend(extensions.snapshot(), trigger=(args.epoch, 'epoch'))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss',
         'main/accuracy', 'validation/main/accuracy', 'elapsed_time']))
    trainer.extend(extensions.ProgressBar())

    if args.resume:
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()


if __name__ == '__main__':
    main()
