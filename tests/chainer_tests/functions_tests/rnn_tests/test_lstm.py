import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.functions.rnn import lstm as lstm_module
from chainer import gradient_check
from chainer import testing
from chainer.utils import type_check


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def lstm_reference(c_prev, x):
    """c and h of an LSTM cell in float64, written gate by gate."""
    c_prev = c_prev.astype(numpy.float64)
    x = x.astype(numpy.float64)
    batch, units = len(x), c_prev.shape[1]
    # The second axis of x holds (a, i, f, o) for unit 0, then unit 1, ...
    gates = x.reshape((batch, units, 4) + x.shape[2:])
    a = numpy.tanh(gates[:, :, 0])
    i = _sigmoid(gates[:, :, 1])
    f = _sigmoid(gates[:, :, 2])
    o = _sigmoid(gates[:, :, 3])
    c = c_prev.copy()
    c[:batch] = a * i + f * c_prev[:batch]
    h = o * numpy.tanh(c[:batch])
    return c, h


def _tolerances(dtype):
    if dtype == numpy.float16:
        return ({'atol': 5e-3, 'rtol': 5e-3},
                {'atol': 5e-2, 'rtol': 5e-2})
    return {'atol': 1e-6, 'rtol': 1e-5}, {'atol': 1e-3, 'rtol': 1e-3}


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'shape': [(3, 4), (3, 2, 2), (0, 3)],
    'batch': ['same', 'shrunk', 'empty'],
    'grad': ['both', 'c_only', 'h_only'],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
# check_backward warns when an output gets no gradient, as here on purpose.
@pytest.mark.filterwarnings('ignore:outputs contains a Variable without grad')
class TestLSTM(testing.FunctionTestCase):

    def setUp(self):
        forward, backward = _tolerances(self.dtype)
        self.check_forward_options = forward
        self.check_backward_options = dict(backward)
        self.check_double_backward_options = dict(backward)
        if self.dtype == numpy.float16:
            self.check_double_backward_options.update(
                {'atol': 1e-1, 'rtol': 1e-1})

    def generate_inputs(self):
        c_shape = self.shape
        batch = {'same': c_shape[0], 'shrunk': c_shape[0] // 2,
                 'empty': 0}[self.batch]
        x_shape = (batch, 4 * c_shape[1]) + c_shape[2:]
        c = numpy.random.uniform(-1, 1, c_shape).astype(self.dtype)
        x = numpy.random.uniform(-1, 1, x_shape).astype(self.dtype)
        return c, x

    def generate_grad_outputs(self, outputs_template):
        gc, gh = super().generate_grad_outputs(outputs_template)
        if self.grad == 'c_only':
            return gc, None
        if self.grad == 'h_only':
            return None, gh
        return gc, gh

    def forward(self, inputs, device):
        c, x = inputs
        return F.lstm(c, x)

    def forward_expected(self, inputs):
        c, h = lstm_reference(*inputs)
        return c.astype(self.dtype), h.astype(self.dtype)


def test_rest_of_cell_state_passes_through():
    c = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    x = numpy.random.uniform(-1, 1, (1, 12)).astype(numpy.float32)
    c_next, h = F.lstm(c, x)
    assert c_next.shape == (4, 3)
    assert h.shape == (1, 3)
    numpy.testing.assert_array_equal(c_next.array[1:], c[1:])


def test_gradient_of_passed_through_rows():
    c = chainer.Variable(numpy.ones((3, 2), numpy.float32))
    x = chainer.Variable(numpy.zeros((1, 8), numpy.float32))
    c_next, h = F.lstm(c, x)
    c_next.grad = numpy.full((3, 2), 2, numpy.float32)
    c_next.backward()
    # sigma(0) = 1/2 scales the updated row; the others pass as they are.
    numpy.testing.assert_allclose(c.grad, [[1, 1], [2, 2], [2, 2]])


def test_node_classes_and_labels():
    c = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    c_next, h = F.lstm(c, numpy.zeros((2, 12), numpy.float32))
    node = h.creator
    assert type(node) is lstm_module.LSTM
    assert node.label == 'LSTM'
    gc, = chainer.grad([F.sum(h)], [c], enable_double_backprop=True)
    assert gc.creator_node.label == 'LSTMGrad'
    assert isinstance(gc.creator, lstm_module.LSTMGrad)


def test_triple_backward_is_refused():
    # LSTMGrad is an old-style Function: differentiable once, as in the
    # original.
    c = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    x = chainer.Variable(numpy.ones((2, 12), numpy.float32))
    _, h = F.lstm(c, x)
    gc, gx = chainer.grad([F.sum(h * h)], [c, x],
                          enable_double_backprop=True)
    ggc, ggx = chainer.grad([F.sum(gc * gc) + F.sum(gx * gx)], [c, x],
                            enable_double_backprop=True)
    with pytest.raises(RuntimeError, match='twice-differentiate'):
        F.sum(ggx * ggx).backward()


@pytest.mark.parametrize('c_shape, x_shape, dtypes', [
    ((3, 2), (3, 6), 'ff'),
    ((3, 2), (3, 9), 'ff'),
    ((2, 2), (3, 8), 'ff'),
    ((3, 2), (3, 8), 'fd'),
    ((3, 2), (3, 8), 'ii'),
    ((3, 2, 1), (3, 8), 'ff'),
    ((3, 2, 1), (3, 8, 2), 'ff'),
    ((3,), (3,), 'ff'),
    ((3, 2), (8,), 'ff'),
], ids=['narrow', 'wide', 'larger-batch', 'dtype-mismatch', 'int',
        'ndim-mismatch', 'trailing-mismatch', '1d', '1d-x'])
def test_invalid_type(c_shape, x_shape, dtypes):
    c = numpy.zeros(c_shape, dtypes[0])
    x = numpy.zeros(x_shape, dtypes[1])
    with pytest.raises(type_check.InvalidType):
        F.lstm(c, x)


def test_invalid_type_message_names_arguments():
    with pytest.raises(type_check.InvalidType) as e:
        F.lstm(numpy.zeros((3, 2), numpy.float32),
               numpy.zeros((3, 6), numpy.float32))
    assert 'x.shape[1] == 4 * c.shape[1]' in str(e.value)
    assert 'LSTM' in str(e.value)


def test_double_backward_with_shrunk_batch_float64():
    rng = numpy.random.RandomState(0)
    c = rng.uniform(-1, 1, (4, 3))
    x = rng.uniform(-1, 1, (2, 12))
    gc = rng.uniform(-1, 1, (4, 3))
    gh = rng.uniform(-1, 1, (2, 3))
    ggc = rng.uniform(-1, 1, c.shape)
    ggx = rng.uniform(-1, 1, x.shape)
    gradient_check.check_double_backward(
        F.lstm, (c, x), (gc, gh), (ggc, ggx), atol=1e-5, rtol=1e-4)


testing.run_module(__name__, __file__)
