"""Per-op cost of the autograd core, beside PyTorch on the CPU.

A chain of 200 scalar multiplications and additions on a 10-element array,
then backward: the time is almost all framework overhead, not arithmetic.
Prints milliseconds per forward + backward pass for both and their ratio.

Usage: python benchmarks/core_overhead.py [--repeat N] [--number N]
"""

import argparse

import numpy

import chainer
import chainer.functions as F

from _timing import compare_ms

N_OPS = 200


def chainer_pass(x_data):
    x = chainer.Variable(x_data)
    h = x
    for i in range(N_OPS // 2):
        h = h * 1.0001
        h = h + 0.5
    loss = F.sum(h)
    loss.backward()
    return x.grad


def torch_pass(torch, x_data):
    x = torch.tensor(x_data, requires_grad=True)
    h = x
    for i in range(N_OPS // 2):
        h = h * 1.0001
        h = h + 0.5
    loss = h.sum()
    loss.backward()
    return x.grad


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=15)
    parser.add_argument('--number', type=int, default=20)
    args = parser.parse_args()

    x_data = numpy.linspace(-1, 1, 10).astype(numpy.float32)
    funcs = {'chainer': lambda: chainer_pass(x_data)}
    try:
        import torch
    except ImportError:
        torch = None
        print('torch is not installed: pip install -r '
              'benchmarks/requirements.txt')
    if torch is not None:
        torch.set_num_threads(2)
        numpy.testing.assert_allclose(
            chainer_pass(x_data), torch_pass(torch, x_data).numpy(),
            rtol=1e-5)
        funcs['torch'] = lambda: torch_pass(torch, x_data)
    times = compare_ms(funcs, args.repeat, args.number)
    from chainer import _compiled_core
    core = 'Python' if _compiled_core.compiled_core is None else 'compiled'
    print('chainer (this project, {} core): {:.3f} ms/pass'.format(
        core, times['chainer']))
    if torch is not None:
        print('torch {}: {:.3f} ms/pass'.format(
            torch.__version__, times['torch']))
        print('ratio chainer/torch: {:.2f}'.format(
            times['chainer'] / times['torch']))


if __name__ == '__main__':
    main()
