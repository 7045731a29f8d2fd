"""Shared helpers of the function hook tests."""

import pytest

import chainer


class Alloc(chainer.FunctionNode):
    """Allocates a fresh output on the device of its input."""

    def forward(self, inputs):
        x, = inputs
        return x * 2,

    def backward(self, target_input_indexes, grad_outputs):
        return chainer.Variable(grad_outputs[0].array * 2),


@pytest.fixture
def alloc():
    """A function node class that allocates a fresh output (``Alloc``)."""
    return Alloc
