import numpy
import pytest

from chainer import function_node
from chainer.utils import precision


class Identity(function_node.FunctionNode):

    @precision._fp16_mixed_precision_helper
    def forward(self, inputs):
        self.seen = inputs
        return inputs


class NoOutput(function_node.FunctionNode):

    @precision._fp16_mixed_precision_helper
    def forward(self, inputs):
        return None,


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_single_and_double_pass_through(dtype):
    x = numpy.zeros((2, 3), dtype)
    f = Identity()
    y, = f.apply((x,))
    assert f.seen[0] is x and y.dtype == dtype


def test_half_runs_in_single():
    x = (numpy.zeros(3, numpy.float16), numpy.zeros(3, numpy.float16))
    f = Identity()
    ys = f.apply(x)
    assert [a.dtype for a in f.seen] == [numpy.float32, numpy.float32]
    assert [y.dtype for y in ys] == [numpy.float16, numpy.float16]


def test_half_with_integers_and_none_outputs():
    x = (numpy.zeros(3, numpy.float16), numpy.zeros(3, numpy.int8))
    f = Identity()
    ys = f.apply(x)
    assert f.seen[0].dtype == numpy.float32 and f.seen[1] is x[1]
    assert ys[0].dtype == numpy.float16 and ys[1].dtype == numpy.int8
    assert NoOutput().forward((x[0],)) == (None,)


def test_mixed_half_and_single_keeps_single_outputs():
    x = (numpy.zeros(3, numpy.float16), numpy.zeros(3, numpy.float32))
    ys = Identity().apply(x)
    assert [y.dtype for y in ys] == [numpy.float32, numpy.float32]
