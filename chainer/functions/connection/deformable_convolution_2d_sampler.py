import numpy

from chainer import backend
from chainer.functions.array import broadcast
from chainer.functions.array import concat
from chainer.functions.array import pad as pad_module
from chainer.functions.array import spatial_transformer_sampler
from chainer.functions.connection import convolution_2d
from chainer.functions.math import matmul


def _sampling_grid(offset, kh, kw, sy, sx, h, w):
    # Where each filter tap samples the padded input of size (h, w), in the
    # normalized coordinates of spatial_transformer_sampler ([-1, 1] from
    # the first to the last pixel): shape (n, 2, kh * kw, out_h * out_w),
    # x coordinates first.
    n, _, out_h, out_w = offset.shape
    xp = backend.get_array_module(offset)
    taps_y, taps_x = numpy.divmod(numpy.arange(kh * kw), kw)
    base_x = (xp.asarray(taps_x, numpy.float32)[:, None, None]
              + xp.arange(out_w, dtype=numpy.float32) * sx)
    base_y = (xp.asarray(taps_y, numpy.float32)[:, None, None]
              + xp.arange(out_h, dtype=numpy.float32)[:, None] * sy)
    x_coord = offset[:, :kh * kw] + base_x
    y_coord = offset[:, kh * kw:] + base_y
    x_coord = x_coord * (2. / (w - 1)) - 1
    y_coord = y_coord * (2. / (h - 1)) - 1
    grid = concat.concat([x_coord, y_coord], axis=1)
    return grid.reshape(n, 2, kh * kw, out_h * out_w)


def deformable_convolution_2d_sampler(x, offset, W, b=None, stride=1, pad=0):
    """Two-dimensional deformable convolution with given offsets.

    A :func:`~chainer.functions.convolution_2d` whose filter taps do not
    sit on a fixed grid: tap ``(p, q)`` of the window at output position
    ``(i, j)`` reads the zero-padded input at
    ``(i * sy + p + dy, j * sx + q + dx)``, where the real-valued shift
    ``(dy, dx)`` comes from ``offset`` and the input is interpolated
    bilinearly there. The gradient flows to ``offset`` as well.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The images,
            ``(n, c_I, h, w)``.
        offset (:class:`~chainer.Variable` or :ref:`ndarray`): Shifts of
            shape ``(n, 2 * kh * kw, out_h, out_w)``: the ``kh * kw``
            horizontal shifts of the taps (in C order of the filter), then
            the ``kh * kw`` vertical ones.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): Filters of shape
            ``(c_O, c_I, kh, kw)``.
        b (None or :class:`~chainer.Variable` or :ref:`ndarray`): Bias of
            shape ``(c_O,)`` (optional).
        stride (int or pair of ints): Step ``(sy, sx)`` of the filter.
        pad (int or pair of ints): Zeros ``(ph, pw)`` added on each side.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c_O, out_h, out_w)``.

    Raises:
        ValueError: If ``offset`` does not have ``2 * kh * kw`` channels.

    See: `Deformable Convolutional Networks
    <https://arxiv.org/abs/1703.06211>`_

    .. seealso::

        :class:`~chainer.links.DeformableConvolution2D`, which holds ``W``
        and ``b`` and computes the offsets.

    .. admonition:: Example

        >>> x = np.random.uniform(0, 1, (2, 3, 4, 7)).astype(np.float32)
        >>> offset = np.random.uniform(
        ...     0, 1, (2, 2 * 3 * 3, 2, 5)).astype(np.float32)
        >>> W = np.random.uniform(0, 1, (4, 3, 3, 3)).astype(np.float32)
        >>> F.deformable_convolution_2d_sampler(x, offset, W).shape
        (2, 4, 2, 5)

    """
    sy, sx = convolution_2d._pair(stride)
    ph, pw = convolution_2d._pair(pad)
    out_c, _, kh, kw = W.shape
    n, c, h, w = x.shape
    _, khkw2, out_h, out_w = offset.shape
    if khkw2 != 2 * kh * kw:
        raise ValueError(
            'The shape of the offset does not match the kernel size')

    grid = _sampling_grid(offset, kh, kw, sy, sx, h + 2 * ph, w + 2 * pw)
    x_pad = pad_module.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)),
                           'constant')
    # (n, c_I, kh * kw, out_h * out_w): the input under every tap.
    sampled = spatial_transformer_sampler.spatial_transformer_sampler(
        x_pad, grid)
    y = matmul.matmul(W.reshape(1, out_c, c * kh * kw),
                      sampled.reshape(n, c * kh * kw, out_h * out_w))
    y = y.reshape(n, out_c, out_h, out_w)
    if b is not None:
        y += broadcast.broadcast_to(b[None, :, None, None], y.shape)
    return y
