import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'lengths_unit': [
        ((4, 3, 3, 1), (2,)), ((3, 2), ()), ((2, 2, 2), (2, 1)), ((3,), ()),
        ((3, 1, 0), ()),
    ],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestTransposeSequence(testing.FunctionTestCase):

    def setUp(self):
        self.lengths, self.unit = self.lengths_unit
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return tuple(
            numpy.random.uniform(-1, 1, (n,) + self.unit).astype(self.dtype)
            for n in self.lengths)

    def forward(self, inputs, device):
        return F.transpose_sequence(inputs)

    def forward_expected(self, inputs):
        return tuple(
            numpy.array([x[t] for x in inputs if len(x) > t],
                        self.dtype).reshape((-1,) + self.unit)
            for t in range(len(inputs[0])))


def test_class_and_round_trip():
    xs = [chainer.Variable(numpy.random.uniform(-1, 1, (n, 2)).astype('f'))
          for n in (3, 2, 2)]
    ys = F.transpose_sequence(xs)
    assert type(ys[0].creator).__name__ == 'TransposeSequence'
    assert [y.shape for y in ys] == [(3, 2), (3, 2), (1, 2)]
    zs = F.transpose_sequence(ys)
    for x, z in zip(xs, zs):
        numpy.testing.assert_array_equal(x.array, z.array)


def test_unused_outputs_get_zero_gradient():
    xs = [chainer.Variable(numpy.ones((n,), numpy.float32)) for n in (3, 1)]
    ys = F.transpose_sequence(xs)
    F.sum(ys[1] * 2).backward()
    numpy.testing.assert_array_equal(xs[0].grad, [0, 2, 0])
    numpy.testing.assert_array_equal(xs[1].grad, [0])


def test_empty():
    assert F.transpose_sequence([]) == ()
    assert F.transpose_sequence([numpy.zeros((0, 2), numpy.float32)]) == ()


@pytest.mark.parametrize('shapes', [
    [(2,), (3,)], [(3, 2), (2, 3)], [(2,), ()],
], ids=['unsorted', 'unit_shape', 'zero_dim'])
def test_invalid(shapes):
    xs = [numpy.zeros(s, numpy.float32) for s in shapes]
    with pytest.raises(type_check.InvalidType):
        F.transpose_sequence(xs)
