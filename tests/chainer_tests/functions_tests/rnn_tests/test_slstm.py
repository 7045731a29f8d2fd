import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.rnn import slstm as slstm_module
from chainer import testing
from chainer.utils import type_check


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _split(x):
    # (a, i, f, o) lie side by side for each unit along the second axis.
    x = x.astype(numpy.float64)
    gates = x.reshape((len(x), x.shape[1] // 4, 4) + x.shape[2:])
    return [gates[:, :, k] for k in range(4)]


def slstm_reference(c_prev1, c_prev2, x1, x2):
    a1, i1, f1, o1 = _split(x1)
    a2, i2, f2, o2 = _split(x2)
    c = (numpy.tanh(a1) * _sigmoid(i1) + numpy.tanh(a2) * _sigmoid(i2)
         + _sigmoid(f1) * c_prev1 + _sigmoid(f2) * c_prev2)
    h = _sigmoid(o1 + o2) * numpy.tanh(c)
    return c, h


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'shape': [(3, 4), (2, 3, 2), (0, 3)],
    'grad': ['both', 'c_only', 'h_only'],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
# check_backward warns when an output gets no gradient, as here on purpose.
@pytest.mark.filterwarnings('ignore:outputs contains a Variable without grad')
class TestSLSTM(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 1e-1, 'rtol': 1e-1}
        else:
            self.check_forward_options = {'atol': 1e-6, 'rtol': 1e-5}
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        x_shape = (self.shape[0], 4 * self.shape[1]) + self.shape[2:]
        return tuple(
            numpy.random.uniform(-1, 1, shape).astype(self.dtype)
            for shape in (self.shape, self.shape, x_shape, x_shape))

    def generate_grad_outputs(self, outputs_template):
        gc, gh = super().generate_grad_outputs(outputs_template)
        if self.grad == 'c_only':
            return gc, None
        if self.grad == 'h_only':
            return None, gh
        return gc, gh

    def forward(self, inputs, device):
        return F.slstm(*inputs)

    def forward_expected(self, inputs):
        return tuple(y.astype(self.dtype) for y in slstm_reference(*inputs))


def test_node_classes_and_labels():
    c = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    x = numpy.zeros((2, 12), numpy.float32)
    _, h = F.slstm(c, numpy.zeros((2, 3), numpy.float32), x, x)
    assert type(h.creator) is slstm_module.SLSTM
    assert h.creator.label == 'SLSTM'
    gc, = chainer.grad([F.sum(h)], [c], enable_double_backprop=True)
    assert isinstance(gc.creator, slstm_module.SLSTMGrad)
    assert gc.creator_node.label == 'SLSTMGrad'


_SHAPES = {
    'ok': ((3, 2), (3, 2), (3, 8), (3, 8)),
    'narrow-x1': ((3, 2), (3, 2), (3, 6), (3, 8)),
    'narrow-x2': ((3, 2), (3, 2), (3, 8), (3, 6)),
    'c2-units': ((3, 2), (3, 1), (3, 8), (3, 8)),
    'batch-x1': ((3, 2), (3, 2), (2, 8), (3, 8)),
    'batch-x2': ((3, 2), (3, 2), (3, 8), (2, 8)),
    'batch-c2': ((3, 2), (2, 2), (3, 8), (3, 8)),
    'ndim': ((3, 2, 1), (3, 2), (3, 8), (3, 8)),
    'trailing': ((3, 2, 1), (3, 2, 1), (3, 8, 1), (3, 8, 2)),
    '1d': ((3,), (3,), (3,), (3,)),
}


@pytest.mark.parametrize('name', [k for k in _SHAPES if k != 'ok'])
def test_invalid_shapes(name):
    arrays = [numpy.zeros(s, numpy.float32) for s in _SHAPES[name]]
    with pytest.raises(type_check.InvalidType):
        F.slstm(*arrays)


@pytest.mark.parametrize('dtypes', ['iiii', 'fdff', 'ffdf', 'fffd'])
def test_invalid_dtypes(dtypes):
    arrays = [numpy.zeros(s, d) for s, d in zip(_SHAPES['ok'], dtypes)]
    with pytest.raises(type_check.InvalidType):
        F.slstm(*arrays)


testing.run_module(__name__, __file__)
