import numpy

from chainer import _kernels
from chainer import backend
from chainer.backends import cuda
from chainer import function
from chainer import function_node
from chainer.functions import _numerics
from chainer.utils import type_check


def _reshape_gates(x, n_gates, interleaved):
    # ``x`` with its second axis split into gates and units. The gates are
    # interleaved (each unit's gates side by side, as LSTM lays them out)
    # or one after another (as TreeLSTM does). Returns the reshaped view
    # and the axis of its gates.
    units = x.shape[1] // n_gates
    if interleaved:
        return x.reshape((len(x), units, n_gates) + x.shape[2:]), 2
    return x.reshape((len(x), n_gates, units) + x.shape[2:]), 1


def _gates(x, n_gates, interleaved):
    """Views of the ``n_gates`` gates packed in the second axis of ``x``."""
    r, axis = _reshape_gates(x, n_gates, interleaved)
    if axis == 2:
        return [r[:, :, k] for k in range(n_gates)]
    return [r[:, k] for k in range(n_gates)]


def _activate_gates(x, n_gates, interleaved):
    """The gates of ``x``, the first through tanh and the others through the
    sigmoid, as views of one new array.

    The sigmoid is applied to the whole array at once (contiguous loops
    are much faster than loops over one gate, strided), then the first
    gate is overwritten with its tanh.
    """
    xp = backend.get_array_module(x)
    g = _numerics.sigmoid(x)
    gates = _gates(g, n_gates, interleaved)
    xp.tanh(_gates(x, n_gates, interleaved)[0], out=gates[0])
    return gates


def _check_cell_and_input(c_type, x_type, n_gates):
    # Shared contract of a cell state and its input array.
    type_check.expect(
        c_type.ndim >= 2,
        x_type.ndim == c_type.ndim,
    )
    type_check.expect(x_type.shape[1] == n_gates * c_type.shape[1])
    for i in range(2, type_check.eval(c_type.ndim)):
        type_check.expect(x_type.shape[i] == c_type.shape[i])


class LSTM(function_node.FunctionNode):

    """LSTM cell with a forget gate, as a function node.

    Inputs are the previous cell state ``c`` and the gate pre-activations
    ``x``, whose second axis is four times as wide as ``c``'s; outputs are
    the new cell state ``c`` and the output ``h``.

    """

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('c', 'x'))
        c_type, x_type = in_types
        type_check.expect(
            c_type.dtype.kind == 'f',
            x_type.dtype == c_type.dtype,
        )
        _check_cell_and_input(c_type, x_type, 4)
        type_check.expect(x_type.shape[0] <= c_type.shape[0])

    def forward_cpu(self, inputs):
        self.retain_inputs((0, 1))
        c_prev, x = inputs
        outputs = _kernels.call((c_prev, x), _kernels.FLOATS, lambda k: (
            k.lstm_forward(numpy.asarray(c_prev, order='C'),
                           numpy.asarray(x, order='C'))))
        if outputs is not None:
            self.retain_outputs((0,))
            return outputs
        batch = len(x)
        a, i, f, o = _activate_gates(x, 4, True)
        c_next = numpy.empty_like(c_prev)
        c = c_next[:batch]
        numpy.multiply(a, i, out=c)
        f *= c_prev[:batch]
        c += f
        c_next[batch:] = c_prev[batch:]
        h = numpy.tanh(c)
        h *= o
        self.retain_outputs((0,))
        return c_next, h

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1))
        c_prev, x = inputs
        batch = len(x)
        a, i, f, o = _gates(x, 4, True)
        c_next = cuda.cupy.empty_like(c_prev)
        h = cuda.cupy.empty((batch,) + c_prev.shape[1:], c_prev.dtype)
        # ``i`` and ``n`` are reserved names in CuPy kernels.
        cuda.elementwise(
            'T c_prev, T a_x, T i_x, T f_x, T o_x', 'T c, T h',
            '''
            c = tanh(a_x) * sigmoid(i_x) + sigmoid(f_x) * c_prev;
            h = tanh(c) * sigmoid(o_x);
            ''',
            'chainer_lstm_fwd', preamble=_numerics.SIGMOID_CUDA_PREAMBLE)(
                c_prev[:batch], a, i, f, o, c_next[:batch], h)
        c_next[batch:] = c_prev[batch:]
        self.retain_outputs((0,))
        return c_next, h

    def backward(self, indexes, grad_outputs):
        c_prev, x = self.get_retained_inputs()
        c_next, = self.get_retained_outputs()
        gc, gh = grad_outputs
        return LSTMGrad()(c_prev, x, c_next, gc, gh)


class LSTMGrad(function.Function):

    """Gradient of :class:`LSTM`, differentiable once more."""

    def forward_cpu(self, inputs):
        c_prev, x, c_next, gc, gh = inputs
        grads = _kernels.call(inputs, _kernels.FLOATS, lambda k: (
            k.lstm_backward(*[
                None if a is None else numpy.asarray(a, order='C')
                for a in inputs])))
        if grads is not None:
            return grads
        batch = len(x)
        a, i, f, o = _activate_gates(x, 4, True)
        co = numpy.tanh(c_next[:batch])
        gc_prev = numpy.empty_like(c_prev)
        # total = gc + gh * o * tanh'(c): the gradient reaching c.
        if gh is None:
            total = numpy.zeros_like(co)
        else:
            total = o * gh
            total *= 1 - co * co
        if gc is None:
            gc_prev[batch:] = 0
        else:
            total += gc[:batch]
            gc_prev[batch:] = gc[batch:]
        numpy.multiply(total, f, out=gc_prev[:batch])
        gx = numpy.empty(x.shape, x.dtype)
        ga, gi, gf, go = _gates(gx, 4, True)
        numpy.multiply(total, i * (1 - a * a), out=ga)
        numpy.multiply(total, a * i * (1 - i), out=gi)
        numpy.multiply(total, c_prev[:batch] * f * (1 - f), out=gf)
        if gh is None:
            go[...] = 0
        else:
            numpy.multiply(gh, co * o * (1 - o), out=go)
        return gc_prev, gx

    def forward_gpu(self, inputs):
        cupy = cuda.cupy
        c_prev, x, c_next, gc, gh = inputs
        batch = len(x)
        zero = x.dtype.type(0)
        gx = cupy.empty(x.shape, x.dtype)
        ga, gi, gf, go = _gates(gx, 4, True)
        a, i, f, o = _gates(x, 4, True)
        gc_prev = cupy.empty_like(c_prev)
        if gc is None:
            gc_prev[batch:] = 0
            gc_b = zero
        else:
            gc_prev[batch:] = gc[batch:]
            gc_b = gc[:batch]
        cuda.elementwise(
            'T c_prev, T c, T gc, T gh, T a_x, T i_x, T f_x, T o_x',
            'T gc_prev, T ga, T gi, T gf, T go',
            '''
            T aa = tanh(a_x);
            T ai = sigmoid(i_x);
            T af = sigmoid(f_x);
            T ao = sigmoid(o_x);
            T co = tanh(c);
            T total = gc + gh * ao * (1 - co * co);
            gc_prev = total * af;
            ga = total * ai * (1 - aa * aa);
            gi = total * aa * ai * (1 - ai);
            gf = total * c_prev * af * (1 - af);
            go = gh * co * ao * (1 - ao);
            ''',
            'chainer_lstm_bwd', preamble=_numerics.SIGMOID_CUDA_PREAMBLE)(
                c_prev[:batch], c_next[:batch], gc_b,
                zero if gh is None else gh, a, i, f, o,
                gc_prev[:batch], ga, gi, gf, go)
        return gc_prev, gx

    def backward(self, inputs, grad_outputs):
        xp = backend.get_array_module(*inputs)
        c_prev, x, c_next, gc, gh = inputs
        ggc_prev, ggx = grad_outputs
        batch = len(x)
        zero = x.dtype.type(0)
        gg_gates = (zero,) * 4 if ggx is None else _gates(ggx, 4, True)
        g_c_prev = xp.zeros_like(c_prev)
        g_x = xp.empty_like(x)
        g_c_next = xp.zeros_like(c_next)
        g_gc = xp.empty_like(c_prev)
        g_gc[batch:] = 0 if ggc_prev is None else ggc_prev[batch:]
        g_gh = xp.empty(x.shape[:1] + c_prev.shape[1:], x.dtype)
        lstm_grad_grad(
            c_prev[:batch], *_gates(x, 4, True), c_next[:batch],
            zero if gc is None else gc[:batch], zero if gh is None else gh,
            zero if ggc_prev is None else ggc_prev[:batch], *gg_gates,
            g_c_prev[:batch], *_gates(g_x, 4, True), g_c_next[:batch],
            g_gc[:batch], g_gh)
        return (g_c_prev, g_x, g_c_next, None if gc is None else g_gc,
                None if gh is None else g_gh)


def _input_gates_grad_grad(total, c_prev, a, i, f, ggc_prev, gga, ggi, ggf):
    # The part of an LSTM's double backward that concerns one cell state
    # input ``c_prev`` and its activated gates ``a``, ``i`` and ``f``;
    # ``total`` is the gradient reaching the new cell state in the first
    # backward. Returns the gradient reaching ``total`` from this input,
    # then those of ``c_prev``, ``a``, ``i`` and ``f``.
    da = 1 - a * a
    di = i * (1 - i)
    df = f * (1 - f)
    g_total = ggc_prev * f + gga * i * da + ggi * a * di + ggf * c_prev * df
    return (g_total,
            ggf * total * df,
            total * da * (ggi * di - 2 * gga * i * a),
            total * di * (gga * da + ggi * a * (1 - 2 * i)),
            total * df * (ggc_prev + ggf * c_prev * (1 - 2 * f)))


def _output_gate_grad_grad(g_total, gh, o, co, ggo):
    # The part of an LSTM's double backward that concerns the activated
    # output gate ``o`` and ``co = tanh(c)``, given the gradient
    # ``g_total`` reaching the first backward's total. Returns the
    # gradients of ``o``, ``c`` and ``gh``.
    do = o * (1 - o)
    dco = 1 - co * co
    return (gh * do * (g_total * dco + ggo * co * (1 - 2 * o)),
            gh * dco * (ggo * do - 2 * g_total * o * co),
            g_total * o * dco + ggo * co * do)


def lstm_grad_grad(
        c_prev, a, i, f, o, c, gc, gh, ggc_prev, gga, ggi, ggf, ggo,
        gc_prev, ga, gi, gf, go, gc_next, ggc, ggh):
    """Computes the double backward of the LSTM cell into given arrays.

    It is what :class:`LSTMGrad` differentiates with, for the rows of the
    mini-batch that ``x`` covers. Each argument may be an array or, for the
    gradients, a zero scalar.

    Args:
        c_prev: The previous cell state.
        a, i, f, o: The pre-activations of the four gates.
        c: The new cell state.
        gc, gh: The gradients of the new cell state and of the output
            received by the first backward.
        ggc_prev, gga, ggi, ggf, ggo: The gradients of the outputs of the
            first backward: of the gradient of ``c_prev`` and of the
            gradients of the four gates.
        gc_prev, ga, gi, gf, go, gc_next, ggc, ggh: The arrays to write the
            gradients of ``c_prev``, of the four gates, of ``c``, of ``gc``
            and of ``gh`` to.

    Returns:
        tuple: ``gc_prev``, ``ga``, ``gi``, ``gf``, ``go``, ``gc_next``,
        ``ggc`` and ``ggh``, filled.
    """
    xp = backend.get_array_module(a)
    o = _numerics.sigmoid(o)
    co = xp.tanh(c)
    total = gc + gh * o * (1 - co * co)
    ggc[...], gc_prev[...], ga[...], gi[...], gf[...] = \
        _input_gates_grad_grad(total, c_prev, xp.tanh(a), _numerics.sigmoid(i),
                               _numerics.sigmoid(f), ggc_prev, gga, ggi, ggf)
    go[...], gc_next[...], ggh[...] = _output_gate_grad_grad(
        ggc, gh, o, co, ggo)
    return gc_prev, ga, gi, gf, go, gc_next, ggc, ggh


def lstm(c_prev, x):
    """Applies LSTM cells to gate pre-activations.

    The input array ``x`` holds the pre-activations of four gates for
    each unit of the cell state ``c_prev``: along the second axis, ``x`` has
    ``4 * n_units`` channels laid out unit by unit, each unit's four
    consecutive values being :math:`a` (the cell input), :math:`i` (the
    input gate), :math:`f` (the forget gate) and :math:`o` (the output
    gate). It computes

    .. math::

        c &= \\tanh(a) \\sigma(i) + c_{\\text{prev}} \\sigma(f), \\\\
        h &= \\tanh(c) \\sigma(o),

    where :math:`\\sigma` is the logistic sigmoid.

    Sequences of different lengths are handled by a mini-batch that shrinks
    with time: ``x`` may have fewer rows than ``c_prev``, in which case
    only ``c[:len(x)]`` is updated and ``c[len(x):]`` is passed through
    unchanged. Sort the sequences by decreasing length for this.

    Args:
        c_prev (:class:`~chainer.Variable` or :ref:`ndarray`): The previous
            cell state, of shape ``(B, n_units, ...)``: zeros at the first
            step, then the ``c`` of the previous call.
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The gate
            pre-activations, of shape ``(B', 4 * n_units, ...)`` with
            ``B' <= B``.

    Returns:
        tuple: Two :class:`~chainer.Variable` objects ``c`` (the new cell
        state, shaped as ``c_prev``) and ``h`` (the output, of shape
        ``(B', n_units, ...)``).

    .. seealso:: :class:`~chainer.links.LSTM`

    .. admonition:: Example

        The gate pre-activations usually come from the input ``y`` and the
        previous output ``h`` through two linear maps:

        >>> n_units = 3
        >>> y = np.zeros((2, 5), np.float32)
        >>> h = np.zeros((2, n_units), np.float32)
        >>> c = np.zeros((2, n_units), np.float32)
        >>> w = np.ones((4 * n_units, 5), np.float32)
        >>> v = np.ones((4 * n_units, n_units), np.float32)
        >>> x = F.matmul(y, w, transb=True) + F.matmul(h, v, transb=True)
        >>> c, h = F.lstm(c, x)
        >>> c.shape, h.shape
        ((2, 3), (2, 3))

    """
    return LSTM().apply((c_prev, x))
