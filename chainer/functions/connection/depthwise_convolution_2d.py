import chainer


def depthwise_convolution_2d(x, W, b=None, stride=1, pad=0):
    """Two-dimensional depthwise convolution.

    Every input channel is convolved with its own ``c_M`` filters
    (``c_M`` is the channel multiplier), with no mixing across channels:
    output channel ``c * c_M + m`` is input channel ``c`` convolved with
    ``W[m, c]``. It is a grouped :func:`~chainer.functions.convolution_2d`
    with one group per input channel.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The images,
            ``(n, c_I, h, w)``.
        W (:class:`~chainer.Variable` or :ref:`ndarray`): Filters of shape
            ``(c_M, c_I, kh, kw)``.
        b (None or :class:`~chainer.Variable` or :ref:`ndarray`): Bias of
            shape ``(c_M * c_I,)`` (optional).
        stride (int or pair of ints): Step ``(sy, sx)`` of the filters.
        pad (int or pair of ints): Zeros ``(ph, pw)`` added on each side.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c_M * c_I, out_h, out_w)``.

    .. seealso::

        :class:`~chainer.links.DepthwiseConvolution2D`, which holds ``W``
        and ``b``.

    .. admonition:: Example

        >>> x = np.random.uniform(0, 1, (2, 3, 4, 7)).astype(np.float32)
        >>> W = np.random.uniform(0, 1, (2, 3, 3, 3)).astype(np.float32)
        >>> F.depthwise_convolution_2d(x, W).shape
        (2, 6, 2, 5)

    """
    F = chainer.functions
    multiplier, in_channels, kh, kw = W.shape
    W = F.reshape(F.transpose(W, (1, 0, 2, 3)),
                  (multiplier * in_channels, 1, kh, kw))
    return F.convolution_2d(x, W, b, stride, pad, groups=in_channels)
