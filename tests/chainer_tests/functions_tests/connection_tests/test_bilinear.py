import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.connection import bilinear
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'e1_shape,e2_shape': [((5, 3), (5, 2)), ((4, 3, 2), (4, 2)),
                          ((0, 3), (0, 2))],
    'full': [False, True],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBilinear(testing.FunctionTestCase):

    check_forward_options = {'atol': 1e-5, 'rtol': 1e-5}
    check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
    check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        j = int(numpy.prod(self.e1_shape[1:]))
        k = int(numpy.prod(self.e2_shape[1:]))
        shapes = [self.e1_shape, self.e2_shape, (j, k, 4)]
        if self.full:
            shapes += [(j, 4), (k, 4), (4,)]
        return tuple(numpy.random.uniform(-1, 1, s).astype(numpy.float32)
                     for s in shapes)

    def forward(self, inputs, device):
        return F.bilinear(*inputs),

    def forward_expected(self, inputs):
        e1, e2 = (a.reshape(len(a), int(numpy.prod(a.shape[1:])))
                  .astype(numpy.float64) for a in inputs[:2])
        y = numpy.einsum('ij,ik,jkl->il', e1, e2, inputs[2])
        if self.full:
            V1, V2, b = inputs[3:]
            y += e1.dot(V1) + e2.dot(V2) + b
        return y.astype(numpy.float32),


def test_node_class():
    e1 = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    y = F.bilinear(e1, numpy.ones((2, 2), numpy.float32),
                   numpy.ones((3, 2, 4), numpy.float32))
    assert type(y.creator) is bilinear.BilinearFunction
    assert y.creator.label == 'BilinearFunction'


def test_some_coefficients_missing():
    a = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='must be None'):
        F.bilinear(a, a, numpy.ones((3, 3, 2), numpy.float32),
                   V1=numpy.ones((3, 2), numpy.float32))


@pytest.mark.parametrize('e1, e2, W', [
    ((2, 3), (2, 2), (3, 3, 4)),
    ((2, 3), (3, 2), (3, 2, 4)),
    ((2,), (2, 2), (1, 2, 4)),
], ids=['W_shape', 'batch', 'e1_ndim'])
def test_invalid_shapes(e1, e2, W):
    with pytest.raises(type_check.InvalidType):
        F.bilinear(numpy.ones(e1, numpy.float32),
                   numpy.ones(e2, numpy.float32),
                   numpy.ones(W, numpy.float32))


def test_only_float32():
    with pytest.raises(type_check.InvalidType):
        F.bilinear(numpy.ones((2, 3)), numpy.ones((2, 2)),
                   numpy.ones((3, 2, 4)))
