"""CPU training steps with and without the compiled kernels, beside PyTorch.

Seven workloads, each trained one step at a time from the same weights in
both frameworks, which must agree on the loss of the first step:

- ``mlp``: 784-1000-1000-10 with ReLU, batch 100, Adam (mlp_step.py);
- ``lenet``: the MNIST example's LeNet, batch 64, MomentumSGD
  (lenet_step.py);
- ``resnet18_stage``: the first stage of ResNet-18, two basic blocks of
  3x3 convolutions with 64 channels, batch normalisation and ReLU, on a
  batch of 32 maps of 56x56, MomentumSGD on the mean output;
- ``resnet_small``: a small ResNet without stem, three stages of two such
  blocks with 64, 128 and 256 channels (the first block of the second and
  third stages halves the size with stride 2 and projects its shortcut by
  a 1x1 convolution with batch normalisation), then global average
  pooling and a linear layer to 10 classes, on a batch of 16 maps of 64
  channels at 56x56, MomentumSGD on the softmax cross entropy;
- ``lstm_lm``: a one-layer LSTM language model, vocabulary 10,000, 650
  units, 35 steps of truncated backprop on a batch of 20, SGD, written as
  the PTB example writes it: ``L.LSTM`` and the output layer called once
  a time step (PyTorch runs its fused ``nn.LSTM`` and the output layer
  once on all steps, as its users do; a second PyTorch row, ``torch step
  by step``, runs it as Chainer does: an ``nn.LSTMCell`` per layer and
  the output layer once a step);
- ``lstm_lm_nstep``: the same model and data written the way Chainer
  offers for whole sequences, as PyTorch's is: ``L.NStepLSTM`` over the
  20 sequences and the output layer once on all 700 outputs;
- ``ptb_lstm``: the model of the PTB example, ``lstm_lm`` with two stacked
  ``L.LSTM`` layers (PyTorch's ``nn.LSTM`` of two layers), dropout and
  gradient clipping off.

Chainer runs with ``use_chainerx_cpp='never'`` (the NumPy paths) and
``'auto'`` (the kernels where they apply). Each of the three is measured
in a fresh process, so that no thread pool of another (NumPy's BLAS
threads spin for a while after each call) runs beside it; the processes
alternate over ``--passes`` passes and the best is kept. Prints ms/step
(best round), the ratios to PyTorch and to the NumPy path, the peak
resident memory above the size once the model is built, and the GFLOP/s
achieved (the products of matrices and convolutions of a step, counted
as in _train_flops) with their share of the machine's float32 matmul peak,
measured at the start on 2048x2048 matrices with the same threads.

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
import collections  # NOQA: E402
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


def _copy_weights(torch, pairs):
    # Copies each NumPy array into its PyTorch parameter.
    with torch.no_grad():
        for param, array in pairs:
            param.copy_(torch.from_numpy(array))


RESNET_SIZE = 56  # the height and width of the input maps


def _projects(in_ch, out_ch, stride):
    # Whether a basic block's shortcut is a projection (where the block
    # changes the shape of its input) rather than the identity.
    return stride != 1 or in_ch != out_ch


class _BasicBlock(chainer.Chain):

    # ResNet's basic block: two 3x3 convolutions with batch normalisation
    # and ReLU, the first with the given stride, and a shortcut that is the
    # identity or, where the block changes the shape, a 1x1 convolution
    # with batch normalisation.

    def __init__(self, in_ch, out_ch, stride, initialW):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(in_ch, out_ch, 3, stride, 1,
                                         nobias=True, initialW=initialW)
            self.bn1 = L.BatchNormalization(out_ch, eps=1e-5)
            self.conv2 = L.Convolution2D(out_ch, out_ch, 3, 1, 1,
                                         nobias=True, initialW=initialW)
            self.bn2 = L.BatchNormalization(out_ch, eps=1e-5)
            if _projects(in_ch, out_ch, stride):
                self.proj = L.Convolution2D(in_ch, out_ch, 1, stride,
                                            nobias=True, initialW=initialW)
                self.proj_bn = L.BatchNormalization(out_ch, eps=1e-5)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        shortcut = self.proj_bn(self.proj(x)) if hasattr(self, 'proj') else x
        return F.relu(self.bn2(self.conv2(h)) + shortcut)


class _ResNet(chainer.Chain):

    # Basic blocks of the given (input channels, output channels, stride),
    # then, given a number of classes, global average pooling and a linear
    # layer. The weights are He-normal, drawn from `rng`.

    def __init__(self, rng, blocks, n_classes=None):
        super().__init__()
        initialW = chainer.initializers.HeNormal(rng=rng)
        with self.init_scope():
            self.blocks = chainer.Sequential(
                *[_BasicBlock(*block, initialW) for block in blocks])
            if n_classes is not None:
                self.fc = L.Linear(blocks[-1][1], n_classes,
                                   initialW=initialW)

    def forward(self, x):
        h = self.blocks(x)
        if hasattr(self, 'fc'):
            h = self.fc(F.mean(h, axis=(2, 3)))
        return h


def _torch_resnet(torch, model):
    # PyTorch's twin of a _ResNet, with its weights.
    nn = torch.nn

    def layer(link):
        # The PyTorch layer of a Chainer link, with its weights.
        if isinstance(link, L.Convolution2D):
            out_ch, in_ch, ksize, _ = link.W.shape
            twin = nn.Conv2d(in_ch, out_ch, ksize, link.stride, link.pad,
                             bias=False)
            params = (link.W,)
        elif isinstance(link, L.BatchNormalization):
            twin = nn.BatchNorm2d(link.gamma.size, eps=link.eps)
            params = (link.gamma, link.beta)
        else:
            twin = nn.Linear(link.in_size, link.out_size)
            params = (link.W, link.b)
        _copy_weights(torch, zip(twin.parameters(),
                                 (param.array for param in params)))
        return twin

    class Block(nn.Module):
        def __init__(self, block):
            super().__init__()
            for name, link in block.namedlinks(skipself=True):
                setattr(self, name.lstrip('/'), layer(link))

        def forward(self, x):
            h = torch.relu(self.bn1(self.conv1(x)))
            shortcut = (self.proj_bn(self.proj(x)) if hasattr(self, 'proj')
                        else x)
            return torch.relu(self.bn2(self.conv2(h)) + shortcut)

    class ResNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.Sequential(*map(Block, model.blocks))
            if hasattr(model, 'fc'):
                self.fc = layer(model.fc)

        def forward(self, x):
            h = self.blocks(x)
            if hasattr(self, 'fc'):
                h = self.fc(h.mean((2, 3)))
            return h
    return ResNet()


def _resnet(rng, blocks, batch, n_classes=None):
    # A _ResNet trained with MomentumSGD on a batch of maps of
    # RESNET_SIZE x RESNET_SIZE: on the softmax cross entropy of fixed
    # labels given a number of classes, on the mean output without.
    model = _ResNet(rng, blocks, n_classes)
    x = rng.uniform(-1, 1, (batch, blocks[0][0], RESNET_SIZE, RESNET_SIZE)
                    ).astype('f')
    t = (None if n_classes is None
         else rng.randint(0, n_classes, batch).astype(numpy.int32))

    def chainer_step():
        opt = chainer.optimizers.MomentumSGD(0.01, 0.9).setup(model)

        def step():
            model.cleargrads()
            y = model(x)
            loss = F.mean(y) if t is None else F.softmax_cross_entropy(y, t)
            loss.backward()
            opt.update()
            return float(loss.array)
        return step

    def torch_step(torch):
        twin = _torch_resnet(torch, model)
        opt = torch.optim.SGD(twin.parameters(), lr=0.01, momentum=0.9)
        xt = torch.from_numpy(x)
        tt = None if t is None else torch.from_numpy(t.astype('i8'))

        def step():
            opt.zero_grad()
            y = twin(xt)
            loss = (y.mean() if tt is None
                    else torch.nn.functional.cross_entropy(y, tt))
            loss.backward()
            opt.step()
            return loss.item()
        return step
    return chainer_step, torch_step


RESNET18_STAGE = ((64, 64, 1),) * 2
RESNET_SMALL = RESNET18_STAGE + (
    (64, 128, 2), (128, 128, 1), (128, 256, 2), (256, 256, 1))


def _resnet18_stage(rng):
    return _resnet(rng, RESNET18_STAGE, 32)


def _resnet_small(rng):
    return _resnet(rng, RESNET_SMALL, 16, n_classes=10)


VOCAB, UNITS, BPTT, LM_BATCH = 10000, 650, 35, 20


def _init_as_ptb_example(model, rng):
    # Every parameter uniform in [-0.1, 0.1], as the PTB example starts.
    for param in model.params():
        param.array[...] = rng.uniform(-0.1, 0.1, param.shape)
    return model


def _torch_gates(array):
    # The weights or biases of L.LSTM's gates in nn.LSTM's layout: Chainer
    # lays the four gates of each unit side by side, in the order (cell
    # input, input, forget, output); PyTorch lays them out as four blocks,
    # in the order (input, forget, cell input, output).
    return (array.reshape(UNITS, 4, -1)[:, [1, 2, 0, 3]]
            .transpose(1, 0, 2).reshape(array.shape))


class _LanguageModel(chainer.Chain):

    # The PTB example's model, with n_layers L.LSTM and dropout off.

    def __init__(self, n_layers):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(VOCAB, UNITS)
            self.lstms = chainer.ChainList(
                *[L.LSTM(UNITS, UNITS) for _ in range(n_layers)])
            self.out = L.Linear(UNITS, VOCAB)

    def torch_lstm_weights(self):
        # nn.LSTM's weight_ih, weight_hh, bias_ih and bias_hh of each layer.
        return [(_torch_gates(lstm.upward.W.array),
                 _torch_gates(lstm.lateral.W.array),
                 _torch_gates(lstm.upward.b.array),
                 numpy.zeros(4 * UNITS, numpy.float32))
                for lstm in self.lstms]


def _torch_lm_ends(torch, model, words):
    # The embedding and output layer of a Chainer language model in
    # PyTorch, with its weights, and the input and target words.
    embed = torch.nn.Embedding(VOCAB, UNITS)
    out = torch.nn.Linear(UNITS, VOCAB)
    _copy_weights(torch, [(embed.weight, model.embed.W.array),
                          (out.weight, model.out.W.array),
                          (out.bias, model.out.b.array)])
    xs = torch.from_numpy(words[:-1].astype('i8'))
    ts = torch.from_numpy(words[1:].astype('i8'))
    return embed, out, xs, ts


def _lstm_lm_torch_step(torch, model, words):
    # PyTorch's fused nn.LSTM over all steps and its output layer once on all
    # of them, from the weights of a Chainer language model.
    nn = torch.nn
    lstm_weights = model.torch_lstm_weights()
    embed, out, xs, ts = _torch_lm_ends(torch, model, words)
    lstm = nn.LSTM(UNITS, UNITS, num_layers=len(lstm_weights))
    for params, arrays in zip(lstm.all_weights, lstm_weights):
        _copy_weights(torch, zip(params, arrays))
    params = [*embed.parameters(), *lstm.parameters(), *out.parameters()]
    opt = torch.optim.SGD(params, lr=1.0)
    lossfun = nn.CrossEntropyLoss(reduction='sum')

    def step():
        opt.zero_grad()
        h, _ = lstm(embed(xs))
        loss = lossfun(out(h).reshape(-1, VOCAB), ts.reshape(-1))
        loss = loss / LM_BATCH
        loss.backward()
        opt.step()
        return loss.item()
    return step


def _lstm_lm_torch_stepwise_step(torch, model, words):
    # The same model in PyTorch written as the Chainer one is, one step at a
    # time: an nn.LSTMCell per layer and the output layer called once a
    # step, the losses (means over the batch) summed over the steps.
    nn = torch.nn
    lstm_weights = model.torch_lstm_weights()
    embed, out, xs, ts = _torch_lm_ends(torch, model, words)
    cells = [nn.LSTMCell(UNITS, UNITS) for _ in lstm_weights]
    for cell, arrays in zip(cells, lstm_weights):
        _copy_weights(torch, zip(
            (cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh),
            arrays))
    params = [*embed.parameters(), *out.parameters()]
    for cell in cells:
        params += cell.parameters()
    opt = torch.optim.SGD(params, lr=1.0)
    lossfun = nn.CrossEntropyLoss()

    def step():
        opt.zero_grad()
        states = [None] * len(cells)
        loss = 0
        for x, t in zip(xs, ts):
            h = embed(x)
            for i, cell in enumerate(cells):
                states[i] = cell(h, states[i])
                h = states[i][0]
            loss = loss + lossfun(out(h), t)
        loss.backward()
        opt.step()
        return loss.item()
    return step


def _lstm_lm(rng, n_layers=1):
    words = rng.randint(0, VOCAB, (BPTT + 1, LM_BATCH)).astype(numpy.int32)
    model = _init_as_ptb_example(_LanguageModel(n_layers), rng)

    def chainer_step():
        opt = chainer.optimizers.SGD(1.0).setup(model)

        def step():
            for lstm in model.lstms:
                lstm.reset_state()
            model.cleargrads()
            loss = 0
            for x, t in zip(words[:-1], words[1:]):
                h = model.embed(x)
                for lstm in model.lstms:
                    h = lstm(h)
                loss += F.softmax_cross_entropy(model.out(h), t)
            loss.backward()
            opt.update()
            return float(loss.array)
        return step
    return (chainer_step,
            lambda torch: _lstm_lm_torch_step(torch, model, words),
            lambda torch: _lstm_lm_torch_stepwise_step(torch, model, words))


def _ptb_lstm(rng):
    return _lstm_lm(rng, n_layers=2)


class _NStepLanguageModel(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(VOCAB, UNITS)
            self.lstm = L.NStepLSTM(1, UNITS, UNITS, 0.0)
            self.out = L.Linear(UNITS, VOCAB)

    def torch_lstm_weights(self):
        # nn.LSTM's weight_ih, weight_hh, bias_ih and bias_hh of each layer:
        # NStepLSTM's gates already come in PyTorch's order, the first four
        # on the input and the last four on the previous output.
        return [[numpy.concatenate([param.array for param in params])
                 for params in (ws[:4], ws[4:], bs[:4], bs[4:])]
                for ws, bs in zip(self.lstm.ws, self.lstm.bs)]


def _lstm_lm_nstep(rng):
    words = rng.randint(0, VOCAB, (BPTT + 1, LM_BATCH)).astype(numpy.int32)
    model = _init_as_ptb_example(_NStepLanguageModel(), rng)
    # One sequence of BPTT words per batch row, embedded at once and split
    # (as the seq2seq example embeds its sequences).
    xs = words[:-1].T.ravel()
    ts = words[1:].T.ravel()
    sections = list(range(BPTT, BPTT * LM_BATCH, BPTT))

    def chainer_step():
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
    return chainer_step, lambda torch: _lstm_lm_torch_step(
        torch, model, words)


# The floating-point operations of a training step count 2 M N K for each
# product of an M x K and a K x N matrix in the forward pass, a convolution
# being one such product (M the output pixels, N the output channels, K the
# input channels times the kernel's area), and the backward pass of a layer
# with weights as twice its forward (the gradients of its input and of its
# weights; the first layer's input gradient, which no one needs, included):
# three times the forward's products in all. Activations, normalisation,
# pooling, embedding look-ups, losses and updates are left out.
def _train_flops(*products):
    # The FLOPs of a training step whose forward pass multiplies matrices
    # of the given (M, N, K).
    return 3 * sum(2 * m * n * k for m, n, k in products)


def _resnet_flops(blocks, batch, n_classes=None):
    # The FLOPs of a training step of _resnet(rng, blocks, batch, n_classes).
    products = []
    size = RESNET_SIZE
    for in_ch, out_ch, stride in blocks:
        size //= stride
        pixels = batch * size * size
        products += [(pixels, out_ch, 9 * in_ch), (pixels, out_ch, 9 * out_ch)]
        if _projects(in_ch, out_ch, stride):
            products.append((pixels, out_ch, in_ch))
    if n_classes is not None:
        products.append((batch, n_classes, blocks[-1][1]))
    return _train_flops(*products)


def _lstm_lm_flops(n_layers):
    # At every step each layer multiplies its input and its previous output
    # by the weights of the four gates (on the zero state of the first step
    # too, as nn.LSTM and NStepLSTM do, though L.LSTM skips it), and the
    # output layer maps the last layer's output to the vocabulary.
    words = BPTT * LM_BATCH
    return _train_flops(*[(words, 4 * UNITS, UNITS)] * (2 * n_layers),
                        (words, VOCAB, UNITS))


Workload = collections.namedtuple('Workload', 'build flops')
# build(rng) returns the functions that build the Chainer step and, given
# the torch module, the PyTorch one (and, for the models Chainer runs one
# time step at a time, a third: PyTorch written the same way); flops: the
# FLOPs of a training step.
WORKLOADS = {
    'mlp': Workload(_mlp, _train_flops(
        *[(mlp_step.BATCH, n_out, n_in) for n_in, n_out
          in zip(mlp_step.SIZES, mlp_step.SIZES[1:])])),
    'lenet': Workload(_lenet, _train_flops(
        (lenet_step.BATCH * 24 * 24, 20, 1 * 5 * 5),
        (lenet_step.BATCH * 8 * 8, 50, 20 * 5 * 5),
        (lenet_step.BATCH, 500, 800), (lenet_step.BATCH, 10, 500))),
    'resnet18_stage': Workload(
        _resnet18_stage, _resnet_flops(RESNET18_STAGE, 32)),
    'resnet_small': Workload(
        _resnet_small, _resnet_flops(RESNET_SMALL, 16, n_classes=10)),
    'lstm_lm': Workload(_lstm_lm, _lstm_lm_flops(1)),
    'lstm_lm_nstep': Workload(_lstm_lm_nstep, _lstm_lm_flops(1)),
    'ptb_lstm': Workload(_ptb_lstm, _lstm_lm_flops(2)),
}
MODES = ('never', 'auto')
TORCH_STEPWISE = 'torch step by step'
STEPWISE_WORKLOADS = ('lstm_lm', 'ptb_lstm')
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
    # The training step of one framework ('torch', or TORCH_STEPWISE for
    # the models Chainer runs step by step) or Chainer mode ('chainer
    # auto'), its model built from the workload's weights.
    chainer_step, torch_step, *stepwise = WORKLOADS[name].build(
        numpy.random.RandomState(0))
    if which == 'torch':
        return torch_step(_import_torch())
    if which == TORCH_STEPWISE:
        return stepwise[0](_import_torch())
    return _in_mode(which.split()[1], chainer_step())


def _status_kb(field):
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith(field + ':'):
                return int(line.split()[1])
    raise RuntimeError('no {} in /proc/self/status'.format(field))


def _measure(name, which, repeat, number):
    # Runs in a fresh process (started by _run): builds one model, then
    # returns the loss of its first step, the best ms/step of `repeat` rounds
    # of `number` steps and how far the resident set rose above its size
    # once the model was built.
    # Writing 5 to clear_refs resets the peak (VmHWM) to the current size
    # (ru_maxrss would not do: it carries the parent's peak across exec).
    func = _step(name, which)
    with open('/proc/self/clear_refs', 'w') as f:
        f.write('5')
    before = _status_kb('VmRSS')
    loss = func()
    ms = best_ms(func, repeat, number)
    return {'loss': loss, 'ms': ms,
            'peak_mb': (_status_kb('VmHWM') - before) / 1024}


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


PEAK_SIZE = 2048


def _matmul_peak(torch, rounds=5):
    # The machine's float32 matmul peak in GFLOP/s with the threads of the
    # benchmark: the best of `rounds` products of two PEAK_SIZE x PEAK_SIZE
    # matrices, by torch.mm or, without torch, numpy.dot.
    rng = numpy.random.RandomState(0)
    a, b = (rng.uniform(-1, 1, (PEAK_SIZE, PEAK_SIZE)).astype(numpy.float32)
            for _ in range(2))
    if torch is None:
        mm = numpy.dot
    else:
        mm = torch.mm
        a, b = torch.from_numpy(a), torch.from_numpy(b)
    ms = best_ms(lambda: mm(a, b), rounds, 1)
    return 2 * PEAK_SIZE ** 3 / ms / 1e6


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
    peak = _matmul_peak(torch)
    print('float32 matmul peak ({} of {}x{}, {} threads): {:.1f} GFLOP/s'
          .format('numpy.dot' if torch is None else 'torch.mm', PEAK_SIZE,
                  PEAK_SIZE, os.environ['OMP_NUM_THREADS'], peak))
    for name in args.only or WORKLOADS:
        best = {}
        for _ in range(args.passes):
            # Measured again each pass, the best kept: a loaded machine
            # would understate the peak.
            peak = max(peak, _matmul_peak(torch))
            for which in which_all + (
                    [TORCH_STEPWISE] if torch is not None
                    and name in STEPWISE_WORKLOADS else []):
                result = _run(name, which, args.repeat, args.number)
                if which not in best or result['ms'] < best[which]['ms']:
                    best[which] = result
        if 'torch' in best:
            # Same weights, same data: the first losses must agree.
            for which, result in best.items():
                numpy.testing.assert_allclose(
                    result['loss'], best['torch']['loss'], rtol=1e-5,
                    err_msg='{}: first loss of {} and of torch'.format(
                        name, which))
        print('\n{}: (float32 matmul peak so far {:.1f} GFLOP/s)'.format(
            name, peak))
        for which, result in best.items():
            gflops = WORKLOADS[name].flops / result['ms'] / 1e6
            line = ('  {:18s} {:8.2f} ms/step  peak +{:7.1f} MB'
                    '  {:7.1f} GFLOP/s, {:3.0f}% of peak').format(
                which, result['ms'], result['peak_mb'], gflops,
                100 * gflops / peak)
            if which.startswith('chainer') and 'torch' in best:
                line += '  x{:.2f} of torch'.format(
                    result['ms'] / best['torch']['ms'])
            if which.startswith('chainer') and TORCH_STEPWISE in best:
                line += ', x{:.2f} of it step by step'.format(
                    result['ms'] / best[TORCH_STEPWISE]['ms'])
            print(line)
        print('  kernels vs NumPy path: {:.2f}x faster'.format(
            best['chainer never']['ms'] / best['chainer auto']['ms']))


if __name__ == '__main__':
    main()
