import chainer


def spatial_pyramid_pooling_2d(x, pyramid_height, pooling=None):
    """Spatial pyramid pooling: a fixed-length vector from any image size.

    Level ``i`` (from 0) max-pools the input into ``2^i x 2^i`` bins: the
    window is ``ceil(h / 2^i)`` by ``ceil(w / 2^i)``, as is the stride,
    with the input padded (half on each side) to cover the bins exactly.
    The pooled maps of all levels are flattened and concatenated.

    See: `Spatial Pyramid Pooling in Deep Convolutional Networks for
    Visual Recognition <https://arxiv.org/abs/1406.4729>`_

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The feature maps,
            ``(n, c, h, w)``.
        pyramid_height (int): How many levels the pyramid has.
        pooling (str): The pooling; only ``'max'`` is supported.

    Returns:
        ~chainer.Variable: Output of shape
        ``(n, c * (4^pyramid_height - 1) / 3, 1, 1)``.

    Raises:
        ValueError: If ``pooling`` is not ``'max'``.

    .. admonition:: Example

        >>> x = np.random.uniform(0, 1, (2, 3, 7, 5)).astype(np.float32)
        >>> F.spatial_pyramid_pooling_2d(x, 3, 'max').shape
        (2, 63, 1, 1)

    """
    F = chainer.functions
    h, w = x.shape[2:]
    ys = []
    for level in range(pyramid_height):
        n_bins = 2 ** level
        ksize_h = -(-h // n_bins)
        ksize_w = -(-w // n_bins)
        pad = ((ksize_h * n_bins - h) // 2, (ksize_w * n_bins - w) // 2)
        if pooling != 'max':
            raise ValueError('Unsupported pooling operation: ', pooling)
        y = F.max_pooling_2d(x, (ksize_h, ksize_w), pad=pad, cover_all=True)
        n, c, out_h, out_w = y.shape
        ys.append(y.reshape(n, c * out_h * out_w, 1, 1))
    return F.concat(ys)
