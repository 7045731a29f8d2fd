"""A LeNet training step on the CPU, beside PyTorch.

A training step (forward, backward and a MomentumSGD update with lr 0.01
and momentum 0.9) of the LeNet of the MNIST example: batch 64 of 28x28
images; convolutions of 20 and 50 5x5 filters, each followed by ReLU and
2x2 max pooling; fully connected layers of 500 and 10 units; softmax cross
entropy. The network is built directly from ``F.convolution_2d``,
``F.max_pooling_2d``, ``F.linear``, ``F.relu`` and
``F.softmax_cross_entropy``. Both frameworks start from the same weights
and must agree on the losses of the first steps. Prints milliseconds per
step for both and their ratio.

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


LR = 0.01
MOMENTUM = 0.9


def chainer_model(params):
    model = chainer.Link()
    with model.init_scope():
        for name, value in params.items():
            setattr(model, name, chainer.Parameter(value.copy()))
    optimizer = chainer.optimizers.MomentumSGD(lr=LR, momentum=MOMENTUM)
    optimizer.setup(model)
    return model, optimizer


def chainer_step(model, optimizer, x, t):
    model.cleargrads()
    h = F.relu(F.convolution_2d(x, model.W1, model.b1))
    h = F.max_pooling_2d(h, 2)
    h = F.relu(F.convolution_2d(h, model.W2, model.b2))
    h = F.max_pooling_2d(h, 2)
    h = F.relu(F.linear(h, model.W3, model.b3))
    loss = F.softmax_cross_entropy(F.linear(h, model.W4, model.b4), t)
    loss.backward()
    optimizer.update()
    return float(loss.array)


def torch_model(torch, params):
    model = {name: torch.tensor(value.copy(), requires_grad=True)
             for name, value in params.items()}
    optimizer = torch.optim.SGD(
        list(model.values()), lr=LR, momentum=MOMENTUM)
    return model, optimizer


def torch_step(torch, model, optimizer, x, t):
    tf = torch.nn.functional
    optimizer.zero_grad()
    h = tf.relu(tf.conv2d(x, model['W1'], model['b1']))
    h = tf.max_pool2d(h, 2)
    h = tf.relu(tf.conv2d(h, model['W2'], model['b2']))
    h = tf.max_pool2d(h, 2)
    h = tf.relu(tf.linear(h.reshape(h.shape[0], -1), model['W3'],
                          model['b3']))
    loss = tf.cross_entropy(tf.linear(h, model['W4'], model['b4']), t)
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=10)
    parser.add_argument('--number', type=int, default=10)
    args = parser.parse_args()

    rng = numpy.random.RandomState(0)
    params = make_params(rng)
    x = rng.uniform(0, 1, (BATCH, 1, 28, 28)).astype(numpy.float32)
    t = rng.randint(0, 10, BATCH).astype(numpy.int32)
    model, optimizer = chainer_model(params)
    funcs = {'chainer': lambda: chainer_step(model, optimizer, x, t)}
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
        check_model, check_optimizer = chainer_model(params)
        check_torch_model, check_torch_optimizer = torch_model(torch, params)
        for _ in range(3):
            numpy.testing.assert_allclose(
                chainer_step(check_model, check_optimizer, x, t),
                torch_step(torch, check_torch_model, check_torch_optimizer,
                           x_torch, t_torch), rtol=1e-4)
        peer, peer_optimizer = torch_model(torch, params)
        funcs['torch'] = lambda: torch_step(
            torch, peer, peer_optimizer, x_torch, t_torch)
    times = compare_ms(funcs, args.repeat, args.number)
    print('chainer (this project): {:.3f} ms/step'.format(times['chainer']))
    if torch is not None:
        print('torch {}: {:.3f} ms/step'.format(
            torch.__version__, times['torch']))
        print('ratio chainer/torch: {:.2f}'.format(
            times['chainer'] / times['torch']))


if __name__ == '__main__':
    main()
