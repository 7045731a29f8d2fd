from chainer.functions.connection import convolution_2d


def dilated_convolution_2d(x, W, b=None, stride=1, pad=0, dilate=1,
                           cover_all=False):
    """Two-dimensional dilated convolution.

    :func:`~chainer.functions.convolution_2d` with its filter taps
    ``dilate`` elements apart: a ``kh x kw`` filter covers a window of
    ``(kh - 1) * dy + 1`` by ``(kw - 1) * dx + 1`` input pixels.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The images,
            ``(n, c_I, h, w)``.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): Filters of shape
            ``(c_O, c_I, kh, kw)``.
        b (None or :class:`~chainer.Variable` or :ref:`ndarray`): Bias of
            shape ``(c_O,)`` (optional).
        stride (int or pair of ints): Step ``(sy, sx)`` of the filter.
        pad (int or pair of ints): Zeros ``(ph, pw)`` added on each side.
        dilate (int or pair of ints): Spacing ``(dy, dx)`` of the taps.
        cover_all (bool): If ``True``, every input pixel is covered by some
            window.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c_O, out_h, out_w)``.

    .. seealso::

        :class:`~chainer.links.DilatedConvolution2D`, which holds ``W`` and
        ``b``.

    .. admonition:: Example

        >>> x = np.random.uniform(0, 1, (1, 3, 9, 9)).astype(np.float32)
        >>> W = np.random.uniform(0, 1, (2, 3, 3, 3)).astype(np.float32)
        >>> F.dilated_convolution_2d(x, W, dilate=2).shape
        (1, 2, 5, 5)

    """
    return convolution_2d.convolution_2d(x, W, b, stride, pad, cover_all,
                                         dilate=dilate)
