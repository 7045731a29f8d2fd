"""A NumPy reference of the stacked RNNs, shared by the n-step tests.

The reference follows the definition step by step: the state of every
sequence is kept in a full-size array, and at time ``t`` only its first
``len(xs[t])`` rows are updated. The cells are plain NumPy, written from
the equations in the functions' documentation (float64).
"""

import numpy
import pytest

from chainer.backends import cuda
from chainer import testing


def sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _mm(x, w):
    return x @ w.T


def lstm_step(x, h, c, w, b):
    i = sigmoid(_mm(x, w[0]) + _mm(h, w[4]) + b[0] + b[4])
    f = sigmoid(_mm(x, w[1]) + _mm(h, w[5]) + b[1] + b[5])
    a = numpy.tanh(_mm(x, w[2]) + _mm(h, w[6]) + b[2] + b[6])
    o = sigmoid(_mm(x, w[3]) + _mm(h, w[7]) + b[3] + b[7])
    c = f * c + i * a
    return o * numpy.tanh(c), c


def gru_step(x, h, c, w, b):
    r = sigmoid(_mm(x, w[0]) + _mm(h, w[3]) + b[0] + b[3])
    z = sigmoid(_mm(x, w[1]) + _mm(h, w[4]) + b[1] + b[4])
    h_new = numpy.tanh(_mm(x, w[2]) + b[2] + r * (_mm(h, w[5]) + b[5]))
    return (1 - z) * h_new + z * h, None


def rnn_step(activation):
    f = {'tanh': numpy.tanh, 'relu': lambda v: numpy.maximum(v, 0)}[
        activation]

    def step(x, h, c, w, b):
        return f(_mm(x, w[0]) + _mm(h, w[1]) + b[0] + b[1]), None
    return step


def n_step_reference(step, n_layers, hx, cx, ws, bs, xs, use_bi_direction):
    """Runs a stacked RNN in float64; returns ``hy``, ``cy``, ``ys``."""
    directions = 2 if use_bi_direction else 1
    hy = hx.astype(numpy.float64)
    cy = None if cx is None else cx.astype(numpy.float64)
    inputs = [x.astype(numpy.float64) for x in xs]
    for layer in range(n_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            w = [a.astype(numpy.float64) for a in ws[index]]
            b = [a.astype(numpy.float64) for a in bs[index]]
            h = hy[index]
            c = None if cy is None else cy[index]
            ys = [None] * len(inputs)
            steps = range(len(inputs))
            for t in (reversed(steps) if direction else steps):
                n = len(inputs[t])
                h_new, c_new = step(inputs[t], h[:n], None if c is None
                                    else c[:n], w, b)
                h[:n] = h_new
                if c is not None:
                    c[:n] = c_new
                ys[t] = h_new
            outputs.append(ys)
        if directions == 1:
            inputs = outputs[0]
        else:
            inputs = [numpy.concatenate(pair, axis=1)
                      for pair in zip(*outputs)]
    return hy, cy, inputs


def make_params(n_weights, n_layers, use_bi_direction, in_size, n_units,
                dtype, rng):
    """Random ``ws`` and ``bs``, shaped as the n-step functions expect."""
    directions = 2 if use_bi_direction else 1
    ws, bs = [], []
    for layer in range(n_layers):
        layer_in = in_size if layer == 0 else n_units * directions
        for _ in range(directions):
            ws.append([
                rng.uniform(-0.7, 0.7, (
                    n_units, layer_in if j < n_weights // 2 else n_units))
                .astype(dtype) for j in range(n_weights)])
            bs.append([rng.uniform(-0.7, 0.7, n_units).astype(dtype)
                       for _ in range(n_weights)])
    return ws, bs


class NStepCase:
    """Random inputs of one n-step call, flattened for gradient_check."""

    def __init__(self, n_weights, with_cell, n_layers, use_bi_direction,
                 batches, dtype, seed=0, in_size=3, n_units=4,
                 state_batch=None):
        rng = numpy.random.RandomState(seed)
        directions = 2 if use_bi_direction else 1
        state_batch = state_batch or max(batches)
        state_shape = (n_layers * directions, state_batch, n_units)
        self.n_layers = n_layers
        self.use_bi_direction = use_bi_direction
        self.hx = rng.uniform(-1, 1, state_shape).astype(dtype)
        self.cx = (rng.uniform(-1, 1, state_shape).astype(dtype)
                   if with_cell else None)
        self.ws, self.bs = make_params(
            n_weights, n_layers, use_bi_direction, in_size, n_units, dtype,
            rng)
        self.xs = [rng.uniform(-1, 1, (b, in_size)).astype(dtype)
                   for b in batches]

    def flat(self):
        """hx, (cx,) all the weights, biases and inputs, in one tuple."""
        arrays = [self.hx] + ([] if self.cx is None else [self.cx])
        for w in self.ws:
            arrays += w
        for b in self.bs:
            arrays += b
        return tuple(arrays + self.xs)

    def unflatten(self, arrays):
        """The arguments ``hx, cx, ws, bs, xs`` from a flat tuple."""
        arrays = list(arrays)
        hx = arrays.pop(0)
        cx = None if self.cx is None else arrays.pop(0)
        ws = [[arrays.pop(0) for _ in w] for w in self.ws]
        bs = [[arrays.pop(0) for _ in b] for b in self.bs]
        return hx, cx, ws, bs, arrays

    def to_gpu(self):
        self.hx = cuda.to_gpu(self.hx)
        if self.cx is not None:
            self.cx = cuda.to_gpu(self.cx)
        self.ws = [[cuda.to_gpu(a) for a in w] for w in self.ws]
        self.bs = [[cuda.to_gpu(a) for a in b] for b in self.bs]
        self.xs = [cuda.to_gpu(x) for x in self.xs]

    def reference(self, step):
        return n_step_reference(
            step, self.n_layers, self.hx, self.cx, self.ws, self.bs,
            self.xs, self.use_bi_direction)


def check_outputs(hy, cy, ys, expected, dtype):
    tol = ({'atol': 5e-3, 'rtol': 5e-3} if dtype == numpy.float16
           else {'atol': 1e-6, 'rtol': 1e-5})
    hy_expected, cy_expected, ys_expected = expected
    assert isinstance(ys, tuple)
    assert len(ys) == len(ys_expected)
    assert hy.dtype == dtype
    testing.assert_allclose(hy.array, hy_expected, **tol)
    if cy_expected is None:
        assert cy is None
    else:
        assert cy.dtype == dtype
        testing.assert_allclose(cy.array, cy_expected, **tol)
    for y, y_expected in zip(ys, ys_expected):
        assert y.dtype == dtype
        assert y.shape == y_expected.shape
        testing.assert_allclose(y.array, y_expected, **tol)


@pytest.fixture
def nstep():
    """The helpers above, for the test modules of this folder."""
    return _Helpers


class _Helpers:
    NStepCase = NStepCase
    check_outputs = staticmethod(check_outputs)
    lstm_step = staticmethod(lstm_step)
    gru_step = staticmethod(gru_step)
    rnn_step = staticmethod(rnn_step)
    n_step_reference = staticmethod(n_step_reference)
