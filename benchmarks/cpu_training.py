"""CPU training steps with and without the compiled kernels, beside PyTorch.

Four workloads, each trained one step at a time from the same weights in
both frameworks:

- ``mlp``: 784-1000-1000-10 with ReLU, batch 100, Adam (mlp_step.py);
- ``lenet``: the MNIST example's LeNet, batch 64, MomentumSGD
  (lenet_step.py);
- ``resnet18_stage``: the first stage of ResNet-18, two basic blocks of
  3x3 convolutions with 64 channels, batch normalisation and ReLU, on a
  batch of 32 maps of 56x56, MomentumSGD on the mean output;
- ``lstm_lm``: a one-layer LSTM language model, vocabulary 10,000, 650
  units, 35 steps of truncated backprop on a batch of 20, SGD, written as
  the PTB example writes it: ``L.LSTM`` and the output layer called once
  a time step (PyTorch runs its fused ``nn.LSTM`` and the output layer
  once on all steps, as its users do);
- ``lstm_lm_nstep``: the same model and data written the way Chainer
  offers for whole sequences, as PyTorch's is: ``L.NStepLSTM`` over the
  20 sequences and the output layer once on all 700 outputs.

Chainer runs with ``use_chainerx_cpp='never'`` (the NumPy paths) and
``'auto'`` (the kernels where they apply). Each of the three is measured
in a fresh process, so that no thread pool of another (NumPy's BLAS
threads spin for a while after each call) runs beside it; the processes
alternate over ``--passes`` passes and the best is kept. Prints ms/step
(best round), the ratios to PyTorch and to the NumPy path, and the peak
resident memory above the size once the model is built.

Usage: python benchmarks/cpu_training.py [--repeat N] [--number N]
       [--passes N] [--only NAME ...] [--keep-freed-memory]
Threads: both frameworks get 2 (OMP_NUM_THREADS and OPENBLAS_NUM_THREADS
are set to 2 unless given), and their OpenMP threads spin briefly before
they sleep (GOMP_SPINCOUNT=10000 unless given; the library itself leaves
the variable alone). Every process keeps glibc's default malloc settings,
as the library does; --keep-freed-memory adds a row for Chainer's kernels
with chainerx_cpp.keep_freed_memory() applied
(CHAINERX_CPP_KEEP_FREED_MEMORY=1).
"""

import os

for _var in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS'):
    os.environ.setdefault(_var, '2')
# Both frameworks' OpenMP threads spin only briefly when idle: long-spinning
# threads of one would slow the other down.
os.environ.setdefault('GOMP_SPINCOUNT', '10000')

import argparse  # NOQA: E402
import json  # NOQA: E402
import subprocess  # NOQA: E402
import sys  # NOQA: E402

import numpy  # NOQA: E402

import chainer  # NOQA: E402
import chainer.functions as F  # NOQA: E402
import chainer.links as L  # NOQA: E402

from _timing import best_ms  # NOQA: E402
import lenet_step  # NOQA: E402
import mlp_step  # NOQA: E402


def _mlp(rng):
    params = mlp_step.make_params(rng)
    x = rng.uniform(0, 1, (mlp_step.BATCH, 784)).astype(numpy.float32)
    t = rng.randint(0, 10, mlp_step.BATCH).astype(numpy.int32)

    def chainer_step():
        step = mlp_step.make_chainer(params)
        return lambda: step(x, t)

    def torch_step(torch):
        step = mlp_step.make_torch(torch, params)
        xt, tt = torch.from_numpy(x), torch.from_numpy(t.astype('i8'))
        return lambda: step(xt, tt)
    return chainer_step, torch_step


def _lenet(rng):
    params = lenet_step.make_params(rng)
    x = rng.uniform(0, 1, (lenet_step.BATCH, 1, 28, 28)).astype('f')
    t = rng.randint(0, 10, lenet_step.BATCH).astype(numpy.int32)

    def chainer_step():
        model, opt = lenet_step.chainer_model(params)
        return lambda: lenet_step.chainer_step(model, opt, x, t)

    def torch_step(torch):
        model, opt = lenet_step.torch_model(torch, params)
        xt, tt = torch.tensor(x), torch.tensor(t, dtype=torch.int64)
        return lambda: lenet_step.torch_step(torch, model, opt, xt, tt)
    return chainer_step, torch_step


class _BasicBlock(chainer.Chain):

    def __init__(self, ch):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(ch, ch, 3, pad=1, nobias=True)
            self.bn1 = L.BatchNormalization(ch, eps=1e-5)
            self.conv2 = L.Convolution2D(ch, ch, 3, pad=1, nobias=True)
            self.bn2 = L.BatchNormalization(ch, eps=1e-5)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(h)) + x)


def _resnet18_stage(rng):
    ch = 64
    weights = [rng.normal(0, numpy.sqrt(2 / (9 * ch)), (ch, ch, 3, 3))
               .astype('f') for _ in range(4)]
    x = rng.uniform(-1, 1, (32, ch, 56, 56)).astype('f')

    def chainer_step():
        model = chainer.Sequential(_BasicBlock(ch), _BasicBlock(ch))
        convs = [l for l in model.links() if isinstance(l, L.Convolution2D)]
        for conv, W in zip(convs, weights):
            conv.W.array[...] = W
        opt = chainer.optimizers.MomentumSGD(0.01, 0.9).setup(model)

        def step():
            model.cleargrads()
            loss = F.mean(model(x))
            loss.backward()
            opt.update()
            return float(loss.array)
        return step

    def torch_step(torch):
        nn = torch.nn

        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv1 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
                self.bn1 = nn.BatchNorm2d(ch, eps=1e-5)
                self.conv2 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
                self.bn2 = nn.BatchNorm2d(ch, eps=1e-5)

            def forward(self, x):
                h = torch.relu(self.bn1(self.conv1(x)))
                return torch.relu(self.bn2(self.conv2(h)) + x)
        model = nn.Sequential(Block(), Block())
        convs = [m for m in model.modules() if isinstance(m, nn.Conv2d)]
        with torch.no_grad():
            for conv, W in zip(convs, weights):
                conv.weight.copy_(torch.from_numpy(W))
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        xt = torch.from_numpy(x)

        def step():
            opt.zero_grad()
            loss = model(xt).mean()
            loss.backward()
            opt.step()
            return loss.item()
        return step
    return chainer_step, torch_step


VOCAB, UNITS, BPTT, LM_BATCH = 10000, 650, 35, 20


class _LanguageModel(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(VOCAB, UNITS)
            self.lstm = L.LSTM(UNITS, UNITS)
            self.out = L.Linear(UNITS, VOCAB)


def _lstm_lm_torch_step(torch, words):
    nn = torch.nn
    embed = nn.Embedding(VOCAB, UNITS)
    lstm = nn.LSTM(UNITS, UNITS)
    out = nn.Linear(UNITS, VOCAB)
    params = [*embed.parameters(), *lstm.parameters(), *out.parameters()]
    opt = torch.optim.SGD(params, lr=1.0)
    lossfun = nn.CrossEntropyLoss(reduction='sum')
    xs = torch.from_numpy(words[:-1].astype('i8'))
    ts = torch.from_numpy(words[1:].astype('i8'))

    def step():
        opt.zero_grad()
        h, _ = lstm(embed(xs))
        loss = lossfun(out(h).reshape(-1, VOCAB), ts.reshape(-1))
        loss = loss / LM_BATCH
        loss.backward()
        opt.step()
        return loss.item()
    return step


def _lstm_lm(rng):
    words = rng.randint(0, VOCAB, (BPTT + 1, LM_BATCH)).astype(numpy.int32)

    def chainer_step():
        model = _LanguageModel()
        opt = chainer.optimizers.SGD(1.0).setup(model)

        def step():
            model.lstm.reset_state()
            model.cleargrads()
            loss = 0
            for x, t in zip(words[:-1], words[1:]):
                h = model.lstm(model.embed(x))
                loss += F.softmax_cross_entropy(model.out(h), t)
            loss.backward()
            opt.update()
            return float(loss.array)
        return step
    return chainer_step, lambda torch: _lstm_lm_torch_step(torch, words)


class _NStepLanguageModel(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(VOCAB, UNITS)
            self.lstm = L.NStepLSTM(1, UNITS, UNITS, 0.0)
            self.out = L.Linear(UNITS, VOCAB)


def _lstm_lm_nstep(rng):
    words = rng.randint(0, VOCAB, (BPTT + 1, LM_BATCH)).astype(numpy.int32)
    # One sequence of BPTT words per batch row, embedded at once and split
    # (as the seq2seq example embeds its sequences).
    xs = words[:-1].T.ravel()
    ts = words[1:].T.ravel()
    sections = list(range(BPTT, BPTT * LM_BATCH, BPTT))

    def chainer_step():
        model = _NStepLanguageModel()
        opt = chainer.optimizers.SGD(1.0).setup(model)

        def step():
            model.cleargrads()
            exs = F.split_axis(model.embed(xs), sections, axis=0)
            _, _, hs = model.lstm(None, None, exs)
            # The mean over all words times BPTT: the sum over the steps of
            # the mean over the batch, the loss of the other two.
            loss = F.softmax_cross_entropy(
                model.out(F.concat(hs, axis=0)), ts) * BPTT
            loss.backward()
            opt.update()
            return float(loss.array)
        return step
    return chainer_step, lambda torch: _lstm_lm_torch_step(torch, words)


WORKLOADS = {
    'mlp': _mlp,
    'lenet': _lenet,
    'resnet18_stage': _resnet18_stage,
    'lstm_lm': _lstm_lm,
    'lstm_lm_nstep': _lstm_lm_nstep,
}
MODES = ('never', 'auto')
KEEP_FREED_MEMORY = '+keep'  # the mode with keep_freed_memory() applied


def _in_mode(mode, step):
    def run():
        with chainer.using_config('use_chainerx_cpp',
                                  mode.replace(KEEP_FREED_MEMORY, '')):
            return step()
    return run


def _import_torch():
    try:
        import torch
    except ImportError:
        print('torch is not installed: pip install -r '
              'benchmarks/requirements.txt')
        return None
    torch.set_num_threads(int(os.environ['OMP_NUM_THREADS']))
    return torch


def _step(name, which):
    # The training step of one framework ('torch') or Chainer mode
    # ('chainer auto'), its model built from the workload's weights.
    chainer_step, torch_step = WORKLOADS[name](numpy.random.RandomState(0))
    if which == 'torch':
        return torch_step(_import_torch())
    return _in_mode(which.split()[1], chainer_step())


def _status_kb(field):
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith(field + ':'):
                return int(line.split()[1])
    raise RuntimeError('no {} in /proc/self/status'.format(field))


def _measure(name, which, repeat, number):
    # Runs in a fresh process (started by _run): builds one model, then
    # returns the best ms/step of `repeat` rounds of `number` steps and how
    # far the resident set rose above its size once the model was built.
    # Writing 5 to clear_refs resets the peak (VmHWM) to the current size
    # (ru_maxrss would not do: it carries the parent's peak across exec).
    func = _step(name, which)
    with open('/proc/self/clear_refs', 'w') as f:
        f.write('5')
    before = _status_kb('VmRSS')
    func()
    ms = best_ms(func, repeat, number)
    return {'ms': ms, 'peak_mb': (_status_kb('VmHWM') - before) / 1024}


def _run(name, which, repeat, number):
    # One process per measurement: no thread pool of another framework or
    # mode (NumPy's BLAS threads spin for a while after each call) is left
    # running beside the one measured.
    env = dict(os.environ)
    env.pop('CHAINERX_CPP_KEEP_FREED_MEMORY', None)
    if which.endswith(KEEP_FREED_MEMORY):
        env['CHAINERX_CPP_KEEP_FREED_MEMORY'] = '1'
    out = subprocess.run(
        [sys.executable, __file__, '--measure', name, which,
         '--repeat', str(repeat), '--number', str(number)],
        env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=5)
    parser.add_argument('--number', type=int, default=3)
    parser.add_argument('--passes', type=int, default=2,
                        help='measurements of each, alternating; the best '
                        'is kept')
    parser.add_argument('--only', nargs='*', choices=sorted(WORKLOADS))
    parser.add_argument('--keep-freed-memory', action='store_true',
                        help='also measure the kernels with glibc keeping '
                        'freed memory (chainerx_cpp.keep_freed_memory())')
    parser.add_argument('--measure', nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(_measure(*args.measure, args.repeat, args.number)))
        return

    import chainerx_cpp
    chainerx_cpp.print_runtime_info()
    torch = _import_torch()
    which_all = ['chainer ' + mode for mode in MODES]
    if args.keep_freed_memory:
        which_all.append('chainer auto' + KEEP_FREED_MEMORY)
    if torch is not None:
        which_all.append('torch')
        print('torch {}, {} threads'.format(
            torch.__version__, torch.get_num_threads()))
    for name in args.only or WORKLOADS:
        best = {}
        for _ in range(args.passes):
            for which in which_all:
                result = _run(name, which, args.repeat, args.number)
                if which not in best or result['ms'] < best[which]['ms']:
                    best[which] = result
        print('\n{}:'.format(name))
        for which, result in best.items():
            line = '  {:18s} {:8.2f} ms/step  peak +{:7.1f} MB'.format(
                which, result['ms'], result['peak_mb'])
            if 'torch' in best and which != 'torch':
                line += '  x{:.2f} of torch'.format(
                    result['ms'] / best['torch']['ms'])
            print(line)
        print('  kernels vs NumPy path: {:.2f}x faster'.format(
            best['chainer never']['ms'] / best['chainer auto']['ms']))


if __name__ == '__main__':
    main()
