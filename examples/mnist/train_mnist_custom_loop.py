#!/usr/bin/env python
"""Trains the MNIST multi-layer perceptron with a hand-written loop.

This is train_mnist.py without the Trainer: the loop draws mini-batches
from an iterator, computes the loss, lets the optimizer update the model,
and evaluates on the test set at the end of every epoch. The model and the
optimizer state are saved as ``mlp.model`` and ``mlp.state`` in ``--out``;
``--resume DIR`` loads both from a directory written that way.
"""
import argparse
import os

import chainer
from chainer.dataset import convert
import chainer.links as L
from chainer import serializers

import train_mnist


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description='Chainer example: MNIST')
    parser.add_argument('--batchsize', '-b', type=int, default=100,
                        help='Number of images in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='Number of sweeps over the dataset to train')
    parser.add_argument('--device', '-d', type=str, default='-1',
                        help=train_mnist.DEVICE_HELP)
    parser.add_argument('--out', '-o', default='result',
                        help='Directory to output the result')
    parser.add_argument('--resume', '-r', type=str,
                        help='Resume the training from snapshot using model '
                        'and state files in the specified directory')
    parser.add_argument('--unit', '-u', type=int, default=1000,
                        help='Number of units')
    group = parser.add_argument_group('deprecated arguments')
    group.add_argument('--gpu', '-g', dest='device',
                       type=int, nargs='?', const=0,
                       help='GPU ID (negative value indicates CPU)')
    return parser.parse_args(argv)


def evaluate(model, test_iter, device):
    """Returns the mean loss and accuracy of ``model`` over ``test_iter``."""
    sum_loss = 0.0
    sum_accuracy = 0.0
    count = 0
    # Test mode, and no graph: nothing is backpropagated here.
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        for batch in test_iter:
            x, t = convert.concat_examples(batch, device)
            loss = model(x, t)
            sum_loss += float(loss.array) * len(t)
            sum_accuracy += float(model.accuracy.array) * len(t)
            count += len(t)
    test_iter.reset()
    return sum_loss / count, sum_accuracy / count


def main(argv=None):
    args = parse_args(argv)
    device = chainer.get_device(args.device)

    print('Device: {}'.format(device))
    print('# unit: {}'.format(args.unit))
    print('# Minibatch-size: {}'.format(args.batchsize))
    print('# epoch: {}'.format(args.epoch))
    print('')

    model = L.Classifier(train_mnist.MLP(args.unit, 10))
    model.to_device(device)
    device.use()

    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    if args.resume is not None:
        if not os.path.exists(args.resume):
            raise ValueError(
                '`args.resume` ("{}") is specified, but it does not '
                'exist'.format(args.resume))
        serializers.load_npz(os.path.join(args.resume, 'mlp.model'), model)
        serializers.load_npz(os.path.join(args.resume, 'mlp.state'),
                             optimizer)

    train, test = chainer.datasets.get_mnist()
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    train_count = len(train)
    sum_loss = 0.0
    sum_accuracy = 0.0
    while train_iter.epoch < args.epoch:
        batch = train_iter.next()
        x, t = convert.concat_examples(batch, device)
        optimizer.update(model, x, t)
        sum_loss += float(model.loss.array) * len(t)
        sum_accuracy += float(model.accuracy.array) * len(t)

        if train_iter.is_new_epoch:
            print('epoch: {}'.format(train_iter.epoch))
            print('train mean loss: {}, accuracy: {}'.format(
                sum_loss / train_count, sum_accuracy / train_count))
            test_loss, test_accuracy = evaluate(model, test_iter, device)
            print('test mean  loss: {}, accuracy: {}'.format(
                test_loss, test_accuracy))
            sum_loss = 0.0
            sum_accuracy = 0.0

    os.makedirs(args.out, exist_ok=True)
    print('save the model')
    serializers.save_npz(os.path.join(args.out, 'mlp.model'), model)
    print('save the optimizer')
    serializers.save_npz(os.path.join(args.out, 'mlp.state'), optimizer)


if __name__ == '__main__':
    main()
