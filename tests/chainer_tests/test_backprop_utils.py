"""The gradient table of chainer._backprop_utils."""

import numpy

import chainer
from chainer import _backprop_utils


def _var(values, dtype=numpy.float32, **kwargs):
    return chainer.Variable(numpy.array(values, dtype), **kwargs)


def test_grad_table_accumulates_and_pops():
    x = _var([1, 2])
    x.grad = numpy.ones(2, numpy.float32)
    table = _backprop_utils.GradTable(accumulate_grad_inputs=True)
    table.accumulate(x.node, chainer.Variable(numpy.full(2, 2, numpy.float32)))
    numpy.testing.assert_array_equal(table.pop(x.node).array, [3, 3])
    table.assert_no_grads()
    table[x.node] = None
    assert table.pop(x.node) is None
