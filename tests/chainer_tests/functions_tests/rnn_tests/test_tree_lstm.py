import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.rnn import tree_lstm as tree_lstm_module
from chainer import testing
from chainer.utils import type_check


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def tree_lstm_reference(*inputs):
    c_prevs = [c.astype(numpy.float64) for c in inputs[:-1]]
    x = inputs[-1].astype(numpy.float64)
    units = c_prevs[0].shape[1]
    # a, i, o, f_1, ..., f_N follow one another along the second axis.
    a, i, o, *fs = [x[:, k * units:(k + 1) * units]
                    for k in range(len(c_prevs) + 3)]
    c = numpy.tanh(a) * _sigmoid(i)
    for f, c_prev in zip(fs, c_prevs):
        c = c + _sigmoid(f) * c_prev
    h = _sigmoid(o) * numpy.tanh(c)
    return c, h


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'n_children': [1, 2, 3],
    'shape': [(3, 4), (2, 3, 2), (0, 3)],
    'grad': ['both', 'c_only', 'h_only'],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
# check_backward warns when an output gets no gradient, as here on purpose.
@pytest.mark.filterwarnings('ignore:outputs contains a Variable without grad')
class TestTreeLSTM(testing.FunctionTestCase):

    # TreeLSTM is an old-style Function: first order only, as the original.
    skip_double_backward_test = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_forward_options = {'atol': 1e-6, 'rtol': 1e-5}
            self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        x_shape = ((self.shape[0], (self.n_children + 3) * self.shape[1])
                   + self.shape[2:])
        shapes = [self.shape] * self.n_children + [x_shape]
        return tuple(
            numpy.random.uniform(-1, 1, shape).astype(self.dtype)
            for shape in shapes)

    def generate_grad_outputs(self, outputs_template):
        gc, gh = super().generate_grad_outputs(outputs_template)
        if self.grad == 'c_only':
            return gc, None
        if self.grad == 'h_only':
            return None, gh
        return gc, gh

    def forward(self, inputs, device):
        return F.tree_lstm(*inputs)

    def forward_expected(self, inputs):
        return tuple(y.astype(self.dtype)
                     for y in tree_lstm_reference(*inputs))


def test_node_class_and_label():
    c = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    _, h = F.tree_lstm(c, c, numpy.zeros((2, 15), numpy.float32))
    assert isinstance(h.creator, tree_lstm_module.TreeLSTM)
    assert h.creator_node.label == 'TreeLSTM'


def test_double_backward_is_refused():
    c = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    x = chainer.Variable(numpy.ones((2, 12), numpy.float32))
    _, h = F.tree_lstm(c, x)
    gc, gx = chainer.grad([F.sum(h * h)], [c, x],
                          enable_double_backprop=True)
    with pytest.raises(RuntimeError, match='twice-differentiate'):
        F.sum(gx * gx).backward()


@pytest.mark.parametrize('shapes', [
    [(3, 2), (3, 6)],
    [(3, 2), (3, 2), (3, 8)],
    [(3, 2), (2, 2), (3, 10)],
    [(3, 2), (3, 2), (2, 10)],
    [(3, 2), (3, 1), (3, 10)],
    [(3, 2, 1), (3, 8)],
    [(3, 2, 1), (3, 8, 2)],
    [(3,), (3,)],
    [(3, 8)],
], ids=['narrow', 'too-few-gates', 'batch-c', 'batch-x', 'units', 'ndim',
        'trailing', '1d', 'x-only'])
def test_invalid_shapes(shapes):
    arrays = [numpy.zeros(s, numpy.float32) for s in shapes]
    with pytest.raises(type_check.InvalidType):
        F.tree_lstm(*arrays)


@pytest.mark.parametrize('dtypes', ['ii', 'fd', 'df'])
def test_invalid_dtypes(dtypes):
    c = numpy.zeros((3, 2), dtypes[0])
    x = numpy.zeros((3, 8), dtypes[1])
    with pytest.raises(type_check.InvalidType):
        F.tree_lstm(c, x)


testing.run_module(__name__, __file__)
