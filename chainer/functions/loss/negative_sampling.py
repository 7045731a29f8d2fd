import numpy

from chainer import backend
from chainer.functions import _numerics
from chainer.functions.activation import sigmoid
from chainer.functions.array import get_item
from chainer.functions.array import reshape
from chainer.functions.array import scatter_add
from chainer.functions.loss import _labels
from chainer.functions.loss import _reduce_option
from chainer.functions.math import sum as sum_module
from chainer import function_node
from chainer.utils import argument
from chainer.utils import type_check


def _compute_dtype(dtype):
    # Half precision is computed in float32: the sums lose too much.
    if dtype == numpy.float16:
        return numpy.dtype(numpy.float32)
    return dtype


def _signs(xp, n, dtype):
    # -1 for the positive example (column 0), +1 for the negatives
    signs = xp.ones(n, dtype)
    signs[0] = -1
    return signs


class NegativeSamplingFunction(function_node.FunctionNode):

    """Negative sampling loss."""

    ignore_label = -1
    samples = None

    def __init__(self, sampler, sample_size, reduce='sum'):
        _reduce_option.check(reduce, ('sum', 'no'))
        self.sampler = sampler
        self.sample_size = sample_size
        self.reduce = reduce
        self.wx = None

    def _make_samples(self, t):
        # The positive example first, then the sampled negatives.
        samples = self.sampler((int(t.shape[0]), self.sample_size + 1))
        samples = backend.from_chx(samples)
        samples[:, 0] = t
        return samples

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't', 'W'))
        x_type, t_type, w_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 2,
            t_type.dtype == numpy.int32,
            t_type.ndim == 1,
            w_type.dtype == x_type.dtype,
            w_type.ndim == 2,
        )
        type_check.expect(
            x_type.shape[0] == t_type.shape[0],
            w_type.shape[1] == x_type.shape[1],
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x, t, W = inputs
        xp = backend.get_array_module(x)
        dtype = _compute_dtype(x.dtype)
        n_vocab = len(W)
        _labels.check_labels(t, n_vocab, 't', self.ignore_label, axis=0)
        self.ignore_mask = t != self.ignore_label
        self.samples = samples = self._make_samples(t)
        _labels.check_labels(
            samples[:, 1:], n_vocab, 'samples', axis=0,
            message='sampler must draw words in [0, %d), but it drew {}'
            % n_vocab)

        # wx[i, k] = -x_i . w_t or x_i . w_sample, then the loss is
        # sum_k log(1 + exp(wx[i, k]))
        w = W[samples].astype(dtype, copy=False)
        wx = xp.matmul(w, x.astype(dtype, copy=False)[:, :, None])[:, :, 0]
        wx *= _signs(xp, wx.shape[1], dtype)
        self.wx = wx
        loss = xp.logaddexp(wx, 0).sum(axis=1)
        loss = xp.where(self.ignore_mask, loss, 0)
        if self.reduce == 'sum':
            loss = loss.sum()
        return xp.asarray(loss, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, t, W = self.get_retained_inputs()
        gy, = grad_outputs
        gx, gW = NegativeSamplingFunctionGrad(
            self.reduce, self.ignore_mask, self.sample_size, self.samples,
            self.wx).apply((x, W, gy))
        return gx, None, gW


class NegativeSamplingFunctionGrad(function_node.FunctionNode):

    """Gradients of :class:`NegativeSamplingFunction` for ``x`` and ``W``.

    Inputs are ``(x, W, gy)``; outputs are the gradients of ``x`` and
    ``W``.
    """

    def __init__(self, reduce, ignore_mask, sample_size, samples, wx):
        self.reduce = reduce
        self.ignore_mask = ignore_mask
        self.sample_size = sample_size
        self.samples = samples
        self.wx = wx

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x, W, gy = inputs
        xp = backend.get_array_module(x)
        dtype = _compute_dtype(x.dtype)
        samples = self.samples

        # g[i, k]: the gradient of the loss of example i by x_i . w_k
        g = self.wx.astype(dtype)
        _numerics.sigmoid(g, out=g)
        g *= _signs(xp, g.shape[1], dtype)
        gy = gy.astype(dtype, copy=False)
        if self.reduce == 'no':
            gy = gy[:, None]
        g *= xp.where(self.ignore_mask[:, None], gy, 0)

        w = W[samples].astype(dtype, copy=False)
        gx = xp.matmul(g[:, None, :], w)[:, 0, :]
        gW = xp.zeros(W.shape, dtype)
        rows = g[:, :, None] * x.astype(dtype, copy=False)[:, None, :]
        _numerics.add_at(gW, samples, rows)
        return (gx.astype(x.dtype, copy=False),
                gW.astype(W.dtype, copy=False))

    def backward(self, indexes, grad_outputs):
        x, W, gy = self.get_retained_inputs()
        ggx, ggW = grad_outputs
        xp = backend.get_array_module(x.array)
        dtype = x.dtype
        samples = self.samples
        batch, n_in = x.shape
        n_sample = samples.shape[1]
        signs = _signs(xp, n_sample, dtype)
        mask = self.ignore_mask.astype(dtype)[:, None]

        # The first-order gradients, g (by x_i . w_k) and q (its derivative
        # by x_i . w_k), and h, the gradient of the output gradients by g.
        w = get_item.get_item(W, samples)
        x_row = reshape.reshape(x, (batch, 1, n_in))
        s = sigmoid.sigmoid(sum_module.sum(w * x_row, axis=2) * signs)
        if self.reduce == 'sum':
            a = gy * mask
        else:
            a = reshape.reshape(gy, (batch, 1)) * mask
        h = None
        if ggx is not None:
            h = sum_module.sum(
                w * reshape.reshape(ggx, (batch, 1, n_in)), axis=2)
        if ggW is not None:
            ggw = get_item.get_item(ggW, samples)
            h_w = sum_module.sum(ggw * x_row, axis=2)
            h = h_w if h is None else h + h_w
        if h is None:
            return (None,) * len(indexes)
        g = s * signs * a
        hq = h * a * s * (1 - s)
        shape = (batch, n_sample, 1)

        ret = []
        if 0 in indexes:
            ggx_new = sum_module.sum(reshape.reshape(hq, shape) * w, axis=1)
            if ggW is not None:
                ggx_new += sum_module.sum(
                    reshape.reshape(g, shape) * ggw, axis=1)
            ret.append(ggx_new)
        if 1 in indexes:
            rows = reshape.reshape(hq, shape) * x_row
            if ggx is not None:
                rows += reshape.reshape(g, shape) * reshape.reshape(
                    ggx, (batch, 1, n_in))
            ret.append(scatter_add.scatter_add(
                xp.zeros(W.shape, dtype), samples, rows))
        if 2 in indexes:
            ggy = sum_module.sum(s * signs * h * mask, axis=1)
            if self.reduce == 'sum':
                ggy = sum_module.sum(ggy)
            ret.append(ggy)
        return ret


def negative_sampling(x, t, W, sampler, sample_size, reduce='sum', **kwargs):
    """negative_sampling(x, t, W, sampler, sample_size, reduce='sum', *, \
return_samples=False)

    Negative sampling loss.

    When the vocabulary is large, as in language modeling, the gradient of
    a softmax over all the words is costly. Negative sampling replaces it
    with a few sampled negative examples:

    .. math::

       f(x, p) = - \\log \\sigma(x^\\top w_p) - \\
       k E_{i \\sim P(i)}[\\log \\sigma(- x^\\top w_i)]

    with :math:`\\sigma` the sigmoid function, :math:`w_i` the weight
    vector of word :math:`i` and :math:`p` the positive example, is
    approximated with :math:`k` samples :math:`N` drawn from :math:`P`:

    .. math::

       f(x, p) \\approx - \\log \\sigma(x^\\top w_p) - \\
       \\sum_{n \\in N} \\log \\sigma(-x^\\top w_n).

    :math:`P(w) = \\frac{1}{Z} c(w)^\\alpha` is usually the unigram
    distribution :math:`c(w)` of the words raised to a power :math:`\\alpha`
    and normalized. See `Distributed Representations of Words and Phrases
    and their Compositionality <https://arxiv.org/abs/1310.4546>`_.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The input
            vectors, of shape :math:`(N, D)`.
        t (:class:`~chainer.Variable` or :ref:`ndarray`): The positive
            examples, an ``int32`` vector of shape :math:`(N,)`; the
            examples labelled ``-1`` are ignored. A word beyond ``W``
            raises :class:`IndexError`, another negative label
            :class:`ValueError`.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): The weight
            matrix, of shape :math:`(V, D)`.
        sampler (~types.FunctionType): A function that takes a shape and
            returns an integer array of that shape, of words drawn from
            :math:`P`; a :class:`~chainer.utils.WalkerAlias` is
            recommended. Samples out of the words of ``W`` raise as bad
            labels do.
        sample_size (int): How many negatives, :math:`k`, are drawn.
        reduce (str): ``'sum'`` (default) sums the losses; ``'no'`` keeps
            one loss per example. Any other value raises
            :class:`ValueError`.
        return_samples (bool): If ``True``, the samples are returned too:
            an integer array of shape :math:`(N, k + 1)` whose first column
            holds ``t`` and the others the negative samples.

    Returns:
        ~chainer.Variable or tuple: The scalar loss, or the :math:`(N,)`
        losses when ``reduce`` is ``'no'``; with ``return_samples``, a tuple
        of it and the samples.

    .. seealso::

        :class:`~chainer.links.NegativeSampling`, the link that holds ``W``.

    .. admonition:: Example

        >>> x = np.zeros((2, 3), np.float32)
        >>> W = np.ones((5, 3), np.float32)
        >>> t = np.array([0, 4], np.int32)
        >>> def sampler(shape):
        ...     return np.ones(shape, np.int32)
        >>> loss, samples = F.negative_sampling(
        ...     x, t, W, sampler, 2, return_samples=True)
        >>> bool(abs(loss.array - 6 * np.log(2)) < 1e-6)
        True
        >>> samples
        array([[0, 1, 1],
               [4, 1, 1]], dtype=int32)

    """
    return_samples, = argument.parse_kwargs(
        kwargs, ('return_samples', False))
    func = NegativeSamplingFunction(sampler, sample_size, reduce)
    loss, = func.apply((x, t, W))
    if return_samples:
        return loss, func.samples
    return loss
