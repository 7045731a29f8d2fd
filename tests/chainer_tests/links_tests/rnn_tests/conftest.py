"""Runs the recurrent links on cases recorded from Chainer 7.8.1.

A case fills the parameters of a link with a fixed pattern, runs it on
fixed inputs and back-propagates a fixed weighted sum of its outputs. The
fixture ``fixtures/rnn_reference.json`` holds, for each case (by name),
the outputs and the sum of the gradient of each parameter computed by
Chainer 7.8.1 running the same case, and the names and shapes of the
link's parameters (``namedparams``, hence the keys of saved files).

The test modules write a case as a function of the fixture
``chainer_7_8`` (the helpers below) returning the link and its outputs,
and check it with ``chainer_7_8.check(name, case)``.
"""

import json
import os

import numpy
import pytest

import chainer

FIXTURE = os.path.join(
    os.path.dirname(__file__), 'fixtures', 'rnn_reference.json')


def fill(link):
    for k, (_, param) in enumerate(sorted(link.namedparams())):
        n = param.array.size
        param.array[...] = (numpy.sin(numpy.arange(n) * 0.7 + k) * 0.5
                            ).reshape(param.shape)


def inp(shape, k=0):
    n = int(numpy.prod(shape))
    return numpy.cos(numpy.arange(n) * 0.3 + k).reshape(shape).astype(
        numpy.float32)


def var(shape, k):
    return chainer.Variable(inp(shape, k))


def stateful(cls, n_steps=3, **kwargs):
    link = cls(3, 4, **kwargs)
    fill(link)
    outs = [link(inp((2, 3), k)) for k in range(n_steps)]
    if hasattr(link, 'c'):
        outs.append(link.c)
    return link, outs


def stateless(cls):
    link = cls(3, 4)
    fill(link)
    return link, [link(var((2, 4), 1), inp((2, 3)))]


def n_step(cls, with_states):
    link = cls(2, 3, 2, 0.0)
    fill(link)
    xs = [inp((length, 3), length) for length in (2, 3, 1)]
    n_dir = 2 if link.use_bi_direction else 1
    if with_states:
        states = [var((2 * n_dir, 3, 2), 9 + k)
                  for k in range(link.n_cells)]
    else:
        states = [None] * link.n_cells
    out = link(*states, xs)
    return link, list(out[:-1]) + list(out[-1])


def run_case(link, outs):
    """Back-propagates a case; returns parameter names, outputs, grad sums.
    """
    weights = [inp(o.shape, 5 + i) for i, o in enumerate(outs)]
    loss = sum(chainer.functions.sum(o * w) for o, w in zip(outs, weights))
    link.cleargrads()
    loss.backward()
    params = sorted(link.namedparams())
    return {
        'params': ['%s %s' % (n, list(p.shape)) for n, p in params],
        'outputs': [o.array for o in outs],
        # A parameter that took no part has no gradient (NaN here).
        'grad_sums': [numpy.nan if p.grad is None else float(p.grad.sum())
                      for _, p in params],
    }


class Chainer78Cases:

    fill = staticmethod(fill)
    inp = staticmethod(inp)
    var = staticmethod(var)
    stateful = staticmethod(stateful)
    stateless = staticmethod(stateless)
    n_step = staticmethod(n_step)

    def __init__(self, reference):
        self.reference = reference

    def check(self, name, case):
        expected = self.reference[name]
        actual = run_case(*case(self))
        assert actual['params'] == expected['params']
        assert len(actual['outputs']) == len(expected['outputs'])
        for out, (shape, values) in zip(actual['outputs'],
                                        expected['outputs']):
            assert list(out.shape) == shape
            numpy.testing.assert_allclose(
                out.ravel(), values, rtol=1e-5, atol=1e-6)
        numpy.testing.assert_allclose(
            actual['grad_sums'],
            [numpy.nan if v is None else v for v in expected['grad_sums']],
            rtol=1e-5, atol=1e-5)


@pytest.fixture(scope='session')
def chainer_7_8():
    """The helpers above with the numbers recorded from Chainer 7.8.1."""
    with open(FIXTURE) as f:
        return Chainer78Cases(json.load(f))
