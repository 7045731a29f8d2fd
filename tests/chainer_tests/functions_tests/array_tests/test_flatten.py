import numpy

import chainer
from chainer import functions as F
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 4), (2, 3, 4), (), (0, 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFlatten(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.flatten(x),

    def forward_expected(self, inputs):
        x, = inputs
        return x.ravel(),


def test_view_of_contiguous_input():
    x = numpy.zeros((2, 3), numpy.float32)
    y = F.flatten(chainer.Variable(x))
    assert type(y.creator).__name__ == 'Reshape'
    assert y.shape == (6,)
    assert numpy.shares_memory(x, y.array)
