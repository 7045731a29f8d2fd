"""An MLP training step with Adam on the CPU, beside PyTorch.

The MLP of the MNIST example: 784-1000-1000-10 with ReLU, a batch of 100,
softmax cross entropy, and one Adam update (``optimizer.update(lossfun)``:
clear the gradients, forward, backward, update every parameter). Both
frameworks start from the same weights and must follow the same loss
trajectory for a few steps. Prints milliseconds per step for both and
their ratio.

Usage: python benchmarks/mlp_step.py [--repeat N] [--number N]
"""

import argparse

import numpy

import chainer
import chainer.functions as F
from chainer import optimizers

from _timing import compare_ms

BATCH = 100
SIZES = (784, 1000, 1000, 10)


def make_params(rng):
    params = []
    for n_in, n_out in zip(SIZES[:-1], SIZES[1:]):
        bound = 1 / numpy.sqrt(n_in)
        params.append((
            rng.uniform(-bound, bound, (n_out, n_in)).astype(numpy.float32),
            rng.uniform(-bound, bound, (n_out,)).astype(numpy.float32)))
    return params


class Affine(chainer.Link):

    def __init__(self, W, b):
        super().__init__()
        with self.init_scope():
            self.W = chainer.Parameter(W.copy())
            self.b = chainer.Parameter(b.copy())

    def forward(self, x):
        return F.linear(x, self.W, self.b)


class MLP(chainer.ChainList):

    def forward(self, x):
        for i, layer in enumerate(self):
            x = layer(x)
            if i < len(self) - 1:
                x = F.relu(x)
        return x


def make_chainer(params):
    model = MLP(*[Affine(W, b) for W, b in params])
    opt = optimizers.Adam().setup(model)

    def step(x, t):
        loss = None

        def lossfun():
            nonlocal loss
            loss = F.softmax_cross_entropy(model(x), t)
            return loss

        opt.update(lossfun)
        return float(loss.array)
    return step


def make_torch(torch, params):
    layers = []
    for i, (W, b) in enumerate(params):
        linear = torch.nn.Linear(W.shape[1], W.shape[0])
        with torch.no_grad():
            linear.weight.copy_(torch.from_numpy(W))
            linear.bias.copy_(torch.from_numpy(b))
        layers.append(linear)
        if i < len(params) - 1:
            layers.append(torch.nn.ReLU())
    model = torch.nn.Sequential(*layers)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-8)
    lossfun = torch.nn.CrossEntropyLoss()

    def step(x, t):
        opt.zero_grad()
        loss = lossfun(model(x), t)
        loss.backward()
        opt.step()
        return loss.item()
    return step


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=10)
    parser.add_argument('--number', type=int, default=10)
    args = parser.parse_args()

    rng = numpy.random.RandomState(0)
    params = make_params(rng)
    x = rng.uniform(0, 1, (BATCH, SIZES[0])).astype(numpy.float32)
    t = rng.randint(0, SIZES[-1], BATCH).astype(numpy.int32)
    chainer_step = make_chainer(params)
    funcs = {'chainer': lambda: chainer_step(x, t)}
    try:
        import torch
    except ImportError:
        torch = None
        print('torch is not installed: pip install -r '
              'benchmarks/requirements.txt')
    if torch is not None:
        torch.set_num_threads(2)
        x_torch = torch.from_numpy(x)
        t_torch = torch.from_numpy(t.astype(numpy.int64))
        torch_step = make_torch(torch, params)
        # Same start, same algorithm: the losses must agree for a while.
        check_step = make_chainer(params)
        for _ in range(3):
            numpy.testing.assert_allclose(
                check_step(x, t), torch_step(x_torch, t_torch), rtol=1e-3)
        funcs['torch'] = lambda: torch_step(x_torch, t_torch)
    times = compare_ms(funcs, args.repeat, args.number)
    print('chainer (this project): {:.3f} ms/step'.format(times['chainer']))
    if torch is not None:
        print('torch {}: {:.3f} ms/step'.format(
            torch.__version__, times['torch']))
        print('ratio chainer/torch: {:.2f}'.format(
            times['chainer'] / times['torch']))


if __name__ == '__main__':
    main()
