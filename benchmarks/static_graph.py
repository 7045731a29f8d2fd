"""Define-by-run against ``chainer.static_graph``, beside PyTorch eager.

Two workloads, each timed in one run for three contenders: this project's
define-by-run (eager) code, the same chain decorated with
``chainer.static_graph`` (its schedule recorded on the first call and
replayed after), and PyTorch eager on the CPU.

- tiny ops: the chain of ``core_overhead.py`` (200 scalar multiplications
  and additions on a 10-element array, a sum, then backward), where the
  time is the framework's own per-op cost;
- MLP step: the Adam training step of ``mlp_step.py`` (784-1000-1000-10,
  batch 100).

All three start from the same values and are checked to agree before they
are timed. Prints milliseconds per pass and the ratios.

Usage: python benchmarks/static_graph.py [--repeat N] [--number N]
"""

import argparse

import numpy

import chainer
import chainer.functions as F
from chainer import optimizers

from _timing import compare_ms
import core_overhead
import mlp_step


class TinyOps(chainer.Chain):

    def forward(self, x):
        h = x
        for i in range(core_overhead.N_OPS // 2):
            h = h * 1.0001
            h = h + 0.5
        return F.sum(h)


class StaticTinyOps(TinyOps):

    forward = chainer.static_graph(TinyOps.forward)


class StaticMLP(mlp_step.MLP):

    forward = chainer.static_graph(mlp_step.MLP.forward)


def tiny_pass(model, x_data):
    x = chainer.Variable(x_data)
    model(x).backward()
    return x.grad


def make_mlp_step(model_class, params):
    model = model_class(*[mlp_step.Affine(W, b) for W, b in params])
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


def report(title, times, unit):
    print(title)
    for name, ms in times.items():
        print('  {:<20} {:9.3f} ms/{}'.format(name, ms, unit))
    eager = times['chainer eager']
    static = times['chainer static']
    print('  ratio static/eager:  {:.2f}'.format(static / eager))
    if 'torch eager' in times:
        torch_ms = times['torch eager']
        print('  ratio eager/torch:   {:.2f}'.format(eager / torch_ms))
        print('  ratio static/torch:  {:.2f}'.format(static / torch_ms))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=10)
    parser.add_argument('--number', type=int, default=10)
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        torch = None
        print('torch is not installed: pip install -r '
              'benchmarks/requirements.txt')
    if torch is not None:
        torch.set_num_threads(2)

    x_data = numpy.linspace(-1, 1, 10).astype(numpy.float32)
    eager, static = TinyOps(), StaticTinyOps()
    expected = tiny_pass(eager, x_data)
    for _ in range(2):
        numpy.testing.assert_allclose(tiny_pass(static, x_data), expected,
                                      rtol=1e-6)
    funcs = {'chainer eager': lambda: tiny_pass(eager, x_data),
             'chainer static': lambda: tiny_pass(static, x_data)}
    if torch is not None:
        numpy.testing.assert_allclose(
            core_overhead.torch_pass(torch, x_data).numpy(), expected,
            rtol=1e-5)
        funcs['torch eager'] = lambda: core_overhead.torch_pass(
            torch, x_data)
    report('tiny ops ({} ops forward + backward)'.format(
        core_overhead.N_OPS), compare_ms(funcs, args.repeat, args.number),
        'pass')

    rng = numpy.random.RandomState(0)
    params = mlp_step.make_params(rng)
    x = rng.uniform(0, 1, (mlp_step.BATCH, mlp_step.SIZES[0])).astype(
        numpy.float32)
    t = rng.randint(0, mlp_step.SIZES[-1], mlp_step.BATCH).astype(
        numpy.int32)
    eager_step = make_mlp_step(mlp_step.MLP, params)
    static_step = make_mlp_step(StaticMLP, params)
    for _ in range(3):
        numpy.testing.assert_allclose(static_step(x, t), eager_step(x, t),
                                      rtol=1e-5)
    funcs = {'chainer eager': lambda: eager_step(x, t),
             'chainer static': lambda: static_step(x, t)}
    if torch is not None:
        x_torch = torch.from_numpy(x)
        t_torch = torch.from_numpy(t.astype(numpy.int64))
        torch_step = mlp_step.make_torch(torch, params)
        check_step = make_mlp_step(StaticMLP, params)
        for _ in range(3):
            numpy.testing.assert_allclose(
                check_step(x, t), torch_step(x_torch, t_torch), rtol=1e-3)
        funcs['torch eager'] = lambda: torch_step(x_torch, t_torch)
    report('MLP step ({} Adam, batch {})'.format(
        '-'.join(map(str, mlp_step.SIZES)), mlp_step.BATCH),
        compare_ms(funcs, args.repeat, args.number), 'step')


if __name__ == '__main__':
    main()
