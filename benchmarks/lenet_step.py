"""A LeNet training step on the CPU, beside PyTorch.

Forward and backward of the LeNet of the MNIST example (batch 64 of 28x28
images; convolutions of 20 and 50 5x5 filters, each followed by ReLU and
2x2 max pooling; fully connected layers of 500 and 10 units; softmax cross
entropy), built directly from ``F.convolution_2d``, ``F.max_pooling_2d``,
``F.linear``, ``F.relu`` and ``F.softmax_cross_entropy``. Both frameworks
start from the same weights and must agree on the loss and gradients.
Prints milliseconds per step for both and their ratio.

Usage: python benchmarks/lenet_step.py [--repeat N] [--number N]
"""

import argparse

import numpy

import chainer
import chainer.functions as F

from _timing import compare_ms

BATCH = 64


def make_params(rng):
    def uniform(shape, fan_in):
        bound = 1 / numpy.sqrt(fan_in)
        return rng.uniform(-bound, bound, shape).astype(numpy.float32)
    return {
        'W1': uniform((20, 1, 5, 5), 25), 'b1': uniform((20,), 25),
        'W2': uniform((50, 20, 5, 5), 500), 'b2': uniform((50,), 500),
        'W3': uniform((500, 800), 800), 'b3': uniform((500,), 800),
        'W4': uniform((10, 500), 500), 'b4': uniform((10,), 500),
    }


def chainer_step(params, x, t):
    p = {name: chainer.Variable(value) for name, value in params.items()}
    h = F.relu(F.convolution_2d(x, p['W1'], p['b1']))
    h = F.max_pooling_2d(h, 2)
    h = F.relu(F.convolution_2d(h, p['W2'], p['b2']))
    h = F.max_pooling_2d(h, 2)
    h = F.relu(F.linear(h, p['W3'], p['b3']))
    loss = F.softmax_cross_entropy(F.linear(h, p['W4'], p['b4']), t)
    loss.backward()
    return float(loss.array), {name: v.grad for name, v in p.items()}


def torch_step(torch, params, x, t):
    tf = torch.nn.functional
    p = {name: torch.tensor(value, requires_grad=True)
         for name, value in params.items()}
    h = tf.relu(tf.conv2d(x, p['W1'], p['b1']))
    h = tf.max_pool2d(h, 2)
    h = tf.relu(tf.conv2d(h, p['W2'], p['b2']))
    h = tf.max_pool2d(h, 2)
    h = tf.relu(tf.linear(h.reshape(h.shape[0], -1), p['W3'], p['b3']))
    loss = tf.cross_entropy(tf.linear(h, p['W4'], p['b4']), t)
    loss.backward()
    return loss.item(), {name: v.grad.numpy() for name, v in p.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=10)
    parser.add_argument('--number', type=int, default=10)
    args = parser.parse_args()

    rng = numpy.random.RandomState(0)
    params = make_params(rng)
    x = rng.uniform(0, 1, (BATCH, 1, 28, 28)).astype(numpy.float32)
    t = rng.randint(0, 10, BATCH).astype(numpy.int32)
    funcs = {'chainer': lambda: chainer_step(params, x, t)}
    try:
        import torch
    except ImportError:
        torch = None
        print('torch is not installed: pip install -r '
              'benchmarks/requirements.txt')
    if torch is not None:
        torch.set_num_threads(2)
        x_torch = torch.tensor(x)
        t_torch = torch.tensor(t, dtype=torch.int64)
        loss, grads = chainer_step(params, x, t)
        loss_torch, grads_torch = torch_step(torch, params, x_torch, t_torch)
        numpy.testing.assert_allclose(loss, loss_torch, rtol=1e-4)
        for name in params:
            numpy.testing.assert_allclose(
                grads[name], grads_torch[name], rtol=1e-3, atol=1e-5)
        funcs['torch'] = lambda: torch_step(torch, params, x_torch, t_torch)
    times = compare_ms(funcs, args.repeat, args.number)
    print('chainer (this project): {:.3f} ms/step'.format(times['chainer']))
    if torch is not None:
        print('torch {}: {:.3f} ms/step'.format(
            torch.__version__, times['torch']))
        print('ratio chainer/torch: {:.2f}'.format(
            times['chainer'] / times['torch']))


if __name__ == '__main__':
    main()
