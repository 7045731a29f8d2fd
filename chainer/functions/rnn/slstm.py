import numpy

from chainer import backend
from chainer.backends import cuda
from chainer import function
from chainer import function_node
from chainer.functions import _numerics
from chainer.functions.rnn import lstm
from chainer.utils import type_check


class SLSTM(function_node.FunctionNode):

    """S-LSTM unit.

    Inputs are the two children's cell states ``c1`` and ``c2`` and their
    gate pre-activations ``x1`` and ``x2``, each four times as wide as a
    cell state along the second axis; outputs are the cell state ``c`` and
    the output ``h``.

    """

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('c_prev1', 'c_prev2', 'x1', 'x2'))
        c1_type, c2_type, x1_type, x2_type = in_types
        type_check.expect(
            c1_type.dtype.kind == 'f',
            c2_type.dtype == c1_type.dtype,
            x1_type.dtype == c1_type.dtype,
            x2_type.dtype == c1_type.dtype,
        )
        lstm._check_cell_and_input(c1_type, x1_type, 4)
        lstm._check_cell_and_input(c2_type, x2_type, 4)
        type_check.expect(
            c2_type.ndim == c1_type.ndim,
            x1_type.shape[0] == c1_type.shape[0],
            c2_type.shape[0] == c1_type.shape[0],
            x2_type.shape[0] == c1_type.shape[0],
        )
        for i in range(2, type_check.eval(c1_type.ndim)):
            type_check.expect(x2_type.shape[i] == x1_type.shape[i])

    def forward_cpu(self, inputs):
        self.retain_inputs((0, 1, 2, 3))
        c_prev1, c_prev2, x1, x2 = inputs
        a1, i1, f1, _ = lstm._activate_gates(x1, 4, True)
        a2, i2, f2, _ = lstm._activate_gates(x2, 4, True)
        o = _numerics.sigmoid(
            lstm._gates(x1, 4, True)[3] + lstm._gates(x2, 4, True)[3])
        c = a1 * i1
        a2 *= i2
        c += a2
        f1 *= c_prev1
        c += f1
        f2 *= c_prev2
        c += f2
        h = numpy.tanh(c)
        h *= o
        self.retain_outputs((0,))
        return c, h

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1, 2, 3))
        c_prev1, c_prev2, x1, x2 = inputs
        a1, i1, f1, o1 = lstm._gates(x1, 4, True)
        a2, i2, f2, o2 = lstm._gates(x2, 4, True)
        c, h = cuda.elementwise(
            'T c_prev1, T a1, T i1, T f1, T o1, '
            'T c_prev2, T a2, T i2, T f2, T o2',
            'T c, T h',
            '''
            c = tanh(a1) * sigmoid(i1) + tanh(a2) * sigmoid(i2)
                + sigmoid(f1) * c_prev1 + sigmoid(f2) * c_prev2;
            h = tanh(c) * sigmoid(o1 + o2);
            ''',
            'chainer_slstm_fwd', preamble=_numerics.SIGMOID_CUDA_PREAMBLE)(
                c_prev1, a1, i1, f1, o1, c_prev2, a2, i2, f2, o2)
        self.retain_outputs((0,))
        return c, h

    def backward(self, indexes, grad_outputs):
        c_prev1, c_prev2, x1, x2 = self.get_retained_inputs()
        c, = self.get_retained_outputs()
        gc, gh = grad_outputs
        return SLSTMGrad()(c_prev1, c_prev2, x1, x2, c, gc, gh)


class SLSTMGrad(function.Function):

    """Gradient of :class:`SLSTM`, differentiable once more."""

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        c_prev1, c_prev2, x1, x2, c, gc, gh = inputs
        zero = x1.dtype.type(0)
        gx1 = xp.empty(x1.shape, x1.dtype)
        gx2 = xp.empty(x2.shape, x2.dtype)
        ga1, gi1, gf1, go1 = lstm._gates(gx1, 4, True)
        ga2, gi2, gf2, go2 = lstm._gates(gx2, 4, True)
        if xp is numpy:
            a1, i1, f1, _ = lstm._activate_gates(x1, 4, True)
            a2, i2, f2, _ = lstm._activate_gates(x2, 4, True)
            o = _numerics.sigmoid(
                lstm._gates(x1, 4, True)[3] + lstm._gates(x2, 4, True)[3])
            co = numpy.tanh(c)
            if gh is None:
                total = numpy.zeros_like(c)
                go1[...] = 0
            else:
                total = o * gh
                total *= 1 - co * co
                numpy.multiply(gh, co * o * (1 - o), out=go1)
            if gc is not None:
                total += gc
            go2[...] = go1
            for ga, gi, gf, a, i, f, c_prev in (
                    (ga1, gi1, gf1, a1, i1, f1, c_prev1),
                    (ga2, gi2, gf2, a2, i2, f2, c_prev2)):
                numpy.multiply(total, i * (1 - a * a), out=ga)
                numpy.multiply(total, a * i * (1 - i), out=gi)
                numpy.multiply(total, c_prev * f * (1 - f), out=gf)
            return total * f1, total * f2, gx1, gx2

        a1, i1, f1, o1 = lstm._gates(x1, 4, True)
        a2, i2, f2, o2 = lstm._gates(x2, 4, True)
        gc_prev1 = xp.empty_like(c_prev1)
        gc_prev2 = xp.empty_like(c_prev2)
        cuda.elementwise(
            'T c_prev1, T a1, T i1, T f1, T o1, T c_prev2, T a2, T i2, '
            'T f2, T o2, T c, T gc, T gh',
            'T gc_prev1, T gc_prev2, T ga1, T gi1, T gf1, T go1, T ga2, '
            'T gi2, T gf2, T go2',
            '''
            T aa1 = tanh(a1);
            T ai1 = sigmoid(i1);
            T af1 = sigmoid(f1);
            T aa2 = tanh(a2);
            T ai2 = sigmoid(i2);
            T af2 = sigmoid(f2);
            T ao = sigmoid(o1 + o2);
            T co = tanh(c);
            T total = gc + gh * ao * (1 - co * co);
            gc_prev1 = total * af1;
            gc_prev2 = total * af2;
            ga1 = total * ai1 * (1 - aa1 * aa1);
            gi1 = total * aa1 * ai1 * (1 - ai1);
            gf1 = total * c_prev1 * af1 * (1 - af1);
            ga2 = total * ai2 * (1 - aa2 * aa2);
            gi2 = total * aa2 * ai2 * (1 - ai2);
            gf2 = total * c_prev2 * af2 * (1 - af2);
            go1 = gh * co * ao * (1 - ao);
            go2 = go1;
            ''',
            'chainer_slstm_bwd', preamble=_numerics.SIGMOID_CUDA_PREAMBLE)(
                c_prev1, a1, i1, f1, o1, c_prev2, a2, i2, f2, o2, c,
                zero if gc is None else gc, zero if gh is None else gh,
                gc_prev1, gc_prev2, ga1, gi1, gf1, go1, ga2, gi2, gf2, go2)
        return gc_prev1, gc_prev2, gx1, gx2

    def backward(self, inputs, grad_outputs):
        xp = backend.get_array_module(*inputs)
        c_prev1, c_prev2, x1, x2, c, gc, gh = inputs
        ggc_prev1, ggc_prev2, ggx1, ggx2 = grad_outputs
        zero = x1.dtype.type(0)

        def gates_or_zero(ggx):
            return (zero,) * 4 if ggx is None else lstm._gates(ggx, 4, True)

        a1, i1, f1, o1 = lstm._gates(x1, 4, True)
        a2, i2, f2, o2 = lstm._gates(x2, 4, True)
        gga1, ggi1, ggf1, ggo1 = gates_or_zero(ggx1)
        gga2, ggi2, ggf2, ggo2 = gates_or_zero(ggx2)
        g_c_prev1 = xp.empty_like(c_prev1)
        g_c_prev2 = xp.empty_like(c_prev2)
        g_x1 = xp.empty_like(x1)
        g_x2 = xp.empty_like(x2)
        g_c = xp.empty_like(c)
        g_gc = xp.empty_like(c)
        g_gh = xp.empty_like(c)
        outputs = ((g_c_prev1,) + tuple(lstm._gates(g_x1, 4, True))
                   + (g_c_prev2,) + tuple(lstm._gates(g_x2, 4, True))
                   + (g_c, g_gc, g_gh))
        values = slstm_grad_grad(
            c_prev1, a1, i1, f1, c_prev2, a2, i2, f2, o1 + o2, c,
            zero if gc is None else gc, zero if gh is None else gh,
            zero if ggc_prev1 is None else ggc_prev1, gga1, ggi1, ggf1, ggo1,
            zero if ggc_prev2 is None else ggc_prev2, gga2, ggi2, ggf2, ggo2)
        for output, value in zip(outputs, values):
            output[...] = value
        return (g_c_prev1, g_c_prev2, g_x1, g_x2, g_c,
                None if gc is None else g_gc, None if gh is None else g_gh)


def slstm_grad_grad(c_prev1, a1, i1, f1,
                    c_prev2, a2, i2, f2,
                    o, c, gc, gh,
                    ggc_prev1, gga1, ggi1, ggf1, ggo1,
                    ggc_prev2, gga2, ggi2, ggf2, ggo2):
    """Computes the double backward of the S-LSTM cell.

    It is what :class:`SLSTMGrad` differentiates with. Each argument may be
    an array or, for the gradients, a zero scalar; the results broadcast to
    the shapes of the arrays they are the gradients of.

    Args:
        c_prev1, c_prev2: The cell states of the two children.
        a1, i1, f1, a2, i2, f2: The pre-activations of the cell input, the
            input gate and the forget gate of each child.
        o: The pre-activation of the output gate, ``o1 + o2``.
        c: The new cell state.
        gc, gh: The gradients of the new cell state and of the output
            received by the first backward.
        ggc_prev1, gga1, ggi1, ggf1, ggo1: The gradients of the outputs
            of the first backward that concern the first child: of the
            gradient of its cell state and of the gradients of its gates.
        ggc_prev2, gga2, ggi2, ggf2, ggo2: The same for the second child.

    Returns:
        tuple: The gradients of ``c_prev1``, ``a1``, ``i1``, ``f1``,
        ``o1``, ``c_prev2``, ``a2``, ``i2``, ``f2``, ``o2``, ``c``, ``gc``
        and ``gh``.
    """
    xp = backend.get_array_module(a1)
    o = _numerics.sigmoid(o)
    co = xp.tanh(c)
    total = gc + gh * o * (1 - co * co)
    share1, gc_prev1, ga1, gi1, gf1 = lstm._input_gates_grad_grad(
        total, c_prev1, xp.tanh(a1), _numerics.sigmoid(i1),
        _numerics.sigmoid(f1), ggc_prev1, gga1, ggi1, ggf1)
    share2, gc_prev2, ga2, gi2, gf2 = lstm._input_gates_grad_grad(
        total, c_prev2, xp.tanh(a2), _numerics.sigmoid(i2),
        _numerics.sigmoid(f2), ggc_prev2, gga2, ggi2, ggf2)
    ggc = share1 + share2
    go, gc_next, ggh = lstm._output_gate_grad_grad(
        ggc, gh, o, co, ggo1 + ggo2)
    return (gc_prev1, ga1, gi1, gf1, go, gc_prev2, ga2, gi2, gf2, go,
            gc_next, ggc, ggh)


def slstm(c_prev1, c_prev2, x1, x2):
    """Applies S-LSTM cells, which merge two children, to their gates.

    The S-LSTM unit extends the LSTM unit to binary trees: a node merges the
    cell states ``c_prev1`` and ``c_prev2`` of its two children with the
    input arrays ``x1`` and ``x2`` computed from them. Each input array has
    ``4 * n_units`` channels along its second axis, laid out unit by unit
    as in :func:`~chainer.functions.lstm`: the pre-activations
    :math:`a_k` (cell input), :math:`i_k` (input gate), :math:`f_k` (forget
    gate) and :math:`o_k` (output gate) of child :math:`k`. It computes

    .. math::

        c &= \\tanh(a_1) \\sigma(i_1) + \\tanh(a_2) \\sigma(i_2)
           + c_{\\text{prev}1} \\sigma(f_1)
           + c_{\\text{prev}2} \\sigma(f_2), \\\\
        h &= \\tanh(c) \\sigma(o_1 + o_2),

    where :math:`\\sigma` is the logistic sigmoid.

    Args:
        c_prev1 (:class:`~chainer.Variable` or :ref:`ndarray`): The cell
            state of the first child, of shape ``(B, n_units, ...)``.
        c_prev2 (:class:`~chainer.Variable` or :ref:`ndarray`): The cell
            state of the second child, of the same shape.
        x1 (:class:`~chainer.Variable` or :ref:`ndarray`): The gate
            pre-activations from the first child, of shape
            ``(B, 4 * n_units, ...)``.
        x2 (:class:`~chainer.Variable` or :ref:`ndarray`): The gate
            pre-activations from the second child, of the same shape.

    Returns:
        tuple: Two :class:`~chainer.Variable` objects ``c`` (the cell state)
        and ``h`` (the output), both of shape ``(B, n_units, ...)``.

    See `Long Short-Term Memory Over Tree Structures
    <https://arxiv.org/abs/1503.04881>`_.

    .. admonition:: Example

        >>> c1 = np.zeros((2, 3), np.float32)
        >>> c2 = np.zeros((2, 3), np.float32)
        >>> x1 = np.ones((2, 12), np.float32)
        >>> x2 = np.ones((2, 12), np.float32)
        >>> c, h = F.slstm(c1, c2, x1, x2)
        >>> c.shape, h.shape
        ((2, 3), (2, 3))

    """
    return SLSTM().apply((c_prev1, c_prev2, x1, x2))
