"""The cuDNN nodes of the stacked RNNs.

Chainer 7.8 runs the n-step functions on the GPU through these nodes:
:func:`cudnn_rnn_weight_concat` packs the weight matrices and biases of all
the layers into the single array cuDNN reads, and a :class:`BaseNStepRNN`
node runs the whole stacked RNN over the time-major concatenation of the
input sequence in one cuDNN call. The n-step functions of this package are
built from differentiable functions and run anywhere, without them; the
nodes are here for code that builds on them, and need cuDNN.
"""

import itertools

import numpy

from chainer.backends import cuda
from chainer import configuration
from chainer import function
from chainer.utils import argument
from chainer.utils import type_check


# The directions and their numbers of directions.
_DIRECTIONS = {'uni': 1, 'bi': 2}
# The modes: the number of weight matrices of a layer and direction, and
# whether the RNN has a cell state.
_MODES = {
    'rnn_relu': (2, False),
    'rnn_tanh': (2, False),
    'gru': (6, False),
    'lstm': (8, True),
}


def _check_direction_and_mode(rnn_dir, rnn_mode):
    if rnn_dir not in _DIRECTIONS:
        raise ValueError('Invalid rnn_dir: "%s". Please select from [%s]'
                         % (rnn_dir, ','.join(_DIRECTIONS)))
    if rnn_mode not in _MODES:
        raise ValueError('Invalid rnn_mode: "%s". Please select from [%s]'
                         % (rnn_mode, ','.join(_MODES)))


def _cudnn_enums(node, rnn_dir, rnn_mode):
    # cuDNN's codes of a direction and a mode; cuDNN must be enabled.
    if not cuda.cudnn_enabled:
        raise RuntimeError(
            '{} runs on cuDNN, which is not available: it needs CuPy with '
            'cuDNN and a GPU. The n-step functions (such as '
            'chainer.functions.n_step_lstm) run without it.'.format(
                type(node).__name__))
    lib = cuda.libcudnn
    directions = {'uni': lib.CUDNN_UNIDIRECTIONAL,
                  'bi': lib.CUDNN_BIDIRECTIONAL}
    modes = {'rnn_relu': lib.CUDNN_RNN_RELU, 'rnn_tanh': lib.CUDNN_RNN_TANH,
             'gru': lib.CUDNN_GRU, 'lstm': lib.CUDNN_LSTM}
    return directions[rnn_dir], modes[rnn_mode]


def _weight_in_size(layer, index, n_W, n_directions, in_size, out_size):
    # The number of columns of weight matrix ``index`` of a layer and
    # direction: the first half of the matrices act on the layer's input,
    # the others on the hidden state.
    if index >= n_W // 2:
        return out_size
    if layer == 0:
        return in_size
    return out_size * n_directions


class CudnnRNNWeightConcat(function.Function):

    """Packs the weights and biases of a stacked RNN in cuDNN's layout.

    The inputs are the weight matrices of each layer and direction, in the
    order of the ``ws`` of the n-step functions, then the biases in the
    same order; the output is cuDNN's weight array.

    Args:
        n_layers (int): How many layers are stacked.
        states: The :class:`cupy.cudnn.DropoutStates` of the RNN.
        rnn_dir (str): ``'uni'`` or ``'bi'``.
        rnn_mode (str): ``'rnn_relu'``, ``'rnn_tanh'``, ``'gru'`` or
            ``'lstm'``.

    Raises:
        RuntimeError: If cuDNN is not available.
    """

    def __init__(self, n_layers, states, rnn_dir, rnn_mode):
        _check_direction_and_mode(rnn_dir, rnn_mode)
        self.rnn_dir, self.rnn_mode = _cudnn_enums(self, rnn_dir, rnn_mode)
        self.n_layers = n_layers
        self.states = states
        self.rnn_direction = _DIRECTIONS[rnn_dir]
        self.n_W = _MODES[rnn_mode][0]

    def _indexes(self):
        # (layer, index of the matrix, position in ws) of every matrix.
        position = 0
        for layer in range(self.n_layers):
            for _ in range(self.rnn_direction):
                for index in range(self.n_W):
                    yield layer, index, position
                    position += 1

    def check_type_forward(self, in_types):
        n_params = self.n_layers * self.rnn_direction * self.n_W
        type_check.expect(in_types.size() == n_params * 2)
        w_types = in_types[:n_params]
        b_types = in_types[n_params:]
        out_size = w_types[0].shape[0]
        in_size = w_types[0].shape[1]
        dtype = w_types[0].dtype
        type_check.expect(dtype.kind == 'f')
        for layer, index, position in self._indexes():
            w_type = w_types[position]
            b_type = b_types[position]
            type_check.expect(
                w_type.dtype == dtype,
                w_type.ndim == 2,
                w_type.shape[0] == out_size,
                w_type.shape[1] == _weight_in_size(
                    layer, index, self.n_W, self.rnn_direction, in_size,
                    out_size),
                b_type.dtype == dtype,
                b_type.ndim == 1,
                b_type.shape[0] == out_size,
            )

    def _regions(self, w, x_desc, w_desc):
        # The matrix and the bias of each (layer, direction, index) inside
        # cuDNN's weight array ``w``, in the order of the inputs.
        cudnn = cuda.cudnn
        handle = cudnn.get_handle()
        for position in range(
                self.n_layers * self.rnn_direction * self.n_W):
            pseudo_layer, lin_layer = divmod(position, self.n_W)
            matrix = cudnn.get_rnn_lin_layer_matrix_params(
                handle, self.rnn_desc, pseudo_layer, x_desc, w_desc, w,
                lin_layer)
            bias = cudnn.get_rnn_lin_layer_bias_params(
                handle, self.rnn_desc, pseudo_layer, x_desc, w_desc, w,
                lin_layer)
            yield matrix, bias

    def forward_gpu(self, inputs):
        cudnn = cuda.cudnn
        libcudnn = cuda.libcudnn
        n_params = len(inputs) // 2
        ws, bs = inputs[:n_params], inputs[n_params:]
        out_size, in_size = ws[0].shape
        dtype = ws[0].dtype
        data_type = cudnn.get_data_type(dtype)
        self.rnn_desc = cudnn.create_rnn_descriptor(
            out_size, self.n_layers, self.states._desc,
            libcudnn.CUDNN_LINEAR_INPUT, self.rnn_dir, self.rnn_mode,
            data_type)
        self.x_desc = cudnn.create_tensor_nd_descriptor(
            cuda.cupy.empty((1, in_size, 1), dtype))
        size = libcudnn.getRNNParamsSize(
            cudnn.get_handle(), self.rnn_desc.value, self.x_desc.value,
            data_type)
        w = cuda.cupy.empty((size // dtype.itemsize, 1, 1), dtype)
        self.w_desc = cudnn.create_filter_descriptor(w)
        for (matrix, bias), w_i, b_i in zip(
                self._regions(w, self.x_desc, self.w_desc), ws, bs):
            matrix.reshape(matrix.size)[...] = w_i.ravel()
            bias.reshape(bias.size)[...] = b_i
        return w,

    def backward(self, inputs, grad_outputs):
        n_params = len(inputs) // 2
        ws, bs = inputs[:n_params], inputs[n_params:]
        gw, = grad_outputs
        gw_desc = cuda.cudnn.create_filter_descriptor(gw)
        gws = []
        gbs = []
        for (matrix, bias), w_i, b_i in zip(
                self._regions(gw, self.x_desc, gw_desc), ws, bs):
            gws.append(matrix.reshape(w_i.shape))
            gbs.append(bias.reshape(b_i.shape))
        return tuple(gws + gbs)


def cudnn_rnn_weight_concat(
        n_layers, states, use_bi_direction, rnn_mode, ws, bs):
    """Packs the weights and biases of a stacked RNN for cuDNN.

    Args:
        n_layers (int): How many layers are stacked.
        states: The :class:`cupy.cudnn.DropoutStates` of the RNN.
        use_bi_direction (bool): Whether the RNN is bi-directional.
        rnn_mode (str): ``'rnn_relu'``, ``'rnn_tanh'``, ``'gru'`` or
            ``'lstm'``.
        ws (list of list of :class:`~chainer.Variable`): The weight
            matrices of each layer and direction.
        bs (list of list of :class:`~chainer.Variable`): The biases.

    Returns:
        ~chainer.Variable: cuDNN's weight array.

    Raises:
        RuntimeError: If cuDNN is not available.
    """
    rnn_dir = 'bi' if use_bi_direction else 'uni'
    inputs = itertools.chain(itertools.chain.from_iterable(ws),
                             itertools.chain.from_iterable(bs))
    return CudnnRNNWeightConcat(n_layers, states, rnn_dir, rnn_mode)(*inputs)


class BaseNStepRNN(function.Function):

    """A stacked RNN run by cuDNN over a whole input sequence.

    The inputs are ``hx``, ``cx`` (for LSTMs only), the weight array made
    by :func:`cudnn_rnn_weight_concat` and the time-major concatenation of
    the inputs of all the time steps; the outputs are ``hy``, ``cy`` (for
    LSTMs only) and the concatenation of the outputs of the last layer.

    Args:
        n_layers (int): How many layers are stacked.
        states: The :class:`cupy.cudnn.DropoutStates` of the RNN.
        lengths (list of int): The mini-batch size of each time step.
        rnn_dir (str): ``'uni'`` or ``'bi'``.
        rnn_mode (str): ``'rnn_relu'``, ``'rnn_tanh'``, ``'gru'`` or
            ``'lstm'``.

    Raises:
        ValueError: If ``rnn_dir`` or ``rnn_mode`` is not one of the above.
        RuntimeError: If cuDNN is not available.
    """

    def __init__(self, n_layers, states, lengths, rnn_dir, rnn_mode,
                 **kwargs):
        if kwargs:
            argument.check_unexpected_kwargs(
                kwargs, train='train argument is not supported anymore. '
                'Use chainer.using_config')
            argument.assert_kwargs_empty(kwargs)
        _check_direction_and_mode(rnn_dir, rnn_mode)
        self.rnn_dir, self.rnn_mode = _cudnn_enums(self, rnn_dir, rnn_mode)
        self.rnn_direction = _DIRECTIONS[rnn_dir]
        self.use_cell = _MODES[rnn_mode][1]
        self.n_layers = n_layers
        self.states = states
        self.lengths = lengths
        self.sections = numpy.cumsum(lengths)

    def check_type_forward(self, in_types):
        h_size = self.n_layers * self.rnn_direction
        if self.use_cell:
            type_check.expect(in_types.size() == 4)
            h_type, c_type, w_type, x_type = in_types
            type_check.expect(
                c_type.dtype == x_type.dtype,
                c_type.ndim == 3,
                c_type.shape[0] == h_size,
                h_type.shape[1] == c_type.shape[1],
                h_type.shape[2] == c_type.shape[2],
            )
        else:
            type_check.expect(in_types.size() == 3)
            h_type, w_type, x_type = in_types
        type_check.expect(
            h_type.dtype == x_type.dtype,
            h_type.ndim == 3,
            h_type.shape[0] == h_size,
            x_type.dtype.kind == 'f',
            x_type.ndim == 2,
            x_type.shape[0] == self.sections[-1],
        )

    def forward_gpu(self, inputs):
        cudnn = cuda.cudnn
        if self.use_cell:
            hx, cx, w, xs = inputs
        else:
            (hx, w, xs), cx = inputs, None
        args = (self.states, self.rnn_dir, self.rnn_mode, hx, cx, w, xs,
                self.lengths)
        if configuration.config.train:
            self.reserve_space, hy, cy, ys = cudnn.rnn_forward_training(
                *args)
        else:
            hy, cy, ys = cudnn.rnn_forward_inference(*args)
        if self.use_cell:
            self.retain_outputs((2,))
            return hy, cy, ys
        self.retain_outputs((1,))
        return hy, ys

    def backward(self, inputs, grad_outputs):
        if not configuration.config.train:
            raise RuntimeError('cuDNN does not support backward computation '
                               'of RNN in testing mode')
        cudnn = cuda.cudnn
        cupy = cuda.cupy
        if self.use_cell:
            hx, cx, w, xs = inputs
            dhy, dcy, dys = grad_outputs
            if dcy is None:
                dcy = cupy.zeros_like(cx)
        else:
            hx, w, xs = inputs
            dhy, dys = grad_outputs
            cx = dcy = None
        ys = self.output_data[-1]
        if dhy is None:
            dhy = cupy.zeros_like(hx)
        if dys is None:
            dys = cupy.zeros_like(ys)
        dhx, dcx, dxs = cudnn.rnn_backward_data(
            self.states, self.rnn_dir, self.rnn_mode, hx, cx, w, xs, ys,
            self.reserve_space, dhy, dcy, dys, self.lengths)
        dw = cudnn.rnn_backward_weights(
            self.states, self.rnn_dir, self.rnn_mode, xs, hx, ys, w,
            self.reserve_space, self.lengths)
        if self.use_cell:
            return dhx, dcx, dw, dxs
        return dhx, dw, dxs
