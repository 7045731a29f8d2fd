#!/usr/bin/env python
"""Trains the MNIST multi-layer perceptron as a static graph.

The network and the training are those of ``examples/mnist/train_mnist.py``;
the only change is the :func:`chainer.static_graph` decorator on the
network's ``forward``. Its define-by-run code runs on the first call for
each input signature (one for training, one for evaluation); every later
call replays the recorded schedule of functions.

``--model MLPSideEffect`` trains the same network with a Python side effect
(a counter of the calls) kept in the schedule by :func:`chainer.static_code`.
"""
import argparse

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions


class MLP(chainer.Chain):
    """Three fully-connected layers with ReLU between them, as a static graph.

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

    @chainer.static_graph
    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


class MLPSideEffect(MLP):
    """The same network, counting its calls in a side effect.

    Plain Python code in a static graph's ``forward`` runs on the first call
    only; the counter is incremented by a ``static_code`` method, which the
    schedule calls again on every replay.
    """

    def __init__(self, n_units, n_out):
        super().__init__(n_units, n_out)
        self.side_effect_counter = 0

    @chainer.static_code
    def count_call(self):
        self.side_effect_counter += 1
        if self.side_effect_counter % 1000 == 0:
            print('Side effect counter: {}'.format(self.side_effect_counter))

    @chainer.static_graph
    def forward(self, x):
        self.count_call()
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


MODELS = {'MLP': MLP, 'MLPSideEffect': MLPSideEffect}

DEVICE_HELP = ('Device specifier. Either ChainerX device specifier or an '
               'integer. If non-negative integer, CuPy arrays with specified '
               'device id are used. If negative integer, NumPy arrays are '
               'used')


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description='Chainer example: MNIST with a static graph')
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
    parser.add_argument('--model', '-m', default='MLP', choices=sorted(MODELS),
                        help='Choose the model: MLP or MLPSideEffect')
    parser.add_argument('--resume', '-r', default='',
                        help='Resume the training from snapshot')
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
    print('# model: {}'.format(args.model))
    print('')

    predictor = MODELS[args.model](args.unit, 10)
    model = L.Classifier(predictor)
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

    # The evaluation runs in test mode: it records a schedule of its own.
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))

    # The loss's graph shows the whole network as one schedule node.
    trainer.extend(extensions.DumpGraph('main/loss'))

    frequency = args.epoch if args.frequency == -1 else max(1, args.frequency)
    trainer.extend(extensions.snapshot(), trigger=(frequency, 'epoch'))

    trainer.extend(extensions.LogReport())

    if args.plot and extensions.PlotReport.available():
        trainer.extend(
            extensions.PlotReport(['main/loss', 'validation/main/loss'],
                                  'epoch', file_name='loss.png'))
        trainer.extend(
            extensions.PlotReport(
                ['main/accuracy', 'validation/main/accuracy'],
                'epoch', file_name='accuracy.png'))

    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss',
         'main/accuracy', 'validation/main/accuracy', 'elapsed_time']))

    trainer.extend(extensions.ProgressBar())

    if args.resume:
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()

    if isinstance(predictor, MLPSideEffect):
        print('Calls of the network: {}'.format(
            predictor.side_effect_counter))


if __name__ == '__main__':
    main()
