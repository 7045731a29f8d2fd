"""The Fashion-MNIST dataset of clothing images."""

import numpy

from chainer.datasets import _mnist_helper

_BASE_URL = 'http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/'

_fashion_mnist_labels = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress',
                         'Coat', 'Sandal', 'Shirt', 'Sneaker', 'Bag',
                         'Ankle boot']


def get_fashion_mnist_labels():
    """Returns the names of the Fashion-MNIST classes.

    Returns:
        list of str: The name of each label, by label value.
    """
    return list(_fashion_mnist_labels)


def get_fashion_mnist(withlabel=True, ndim=1, scale=1., dtype=None,
                      label_dtype=numpy.int32, rgb_format=False):
    """Gets the Fashion-MNIST dataset.

    `Fashion-MNIST <https://github.com/zalandoresearch/fashion-mnist/>`_
    holds 28x28 grey-scale images of clothes of 10 classes (see
    :func:`get_fashion_mnist_labels`), 60,000 for training and 10,000 for
    testing, in the files and layout of MNIST. It is loaded and cached as
    :func:`~chainer.datasets.get_mnist` does, under
    ``<dataset root>/pfnet/chainer/fashion-mnist``; the environment
    variable ``CHAINER_FASHION_MNIST_BASE_URL`` may name a mirror of the
    files (e.g. ``file:///data/fashion-mnist/``); the error raised when
    the files cannot be downloaded intact names it.

    Args:
        withlabel (bool): If ``True``, the examples are ``(image, label)``
            tuples; otherwise they are images.
        ndim (int): 1 for images of shape ``(784,)``, 2 for ``(28, 28)``, 3
            for ``(1, 28, 28)``.
        scale (float): The value of a white pixel.
        dtype: The dtype of the images; ``chainer.config.dtype`` by
            default.
        label_dtype: The dtype of the labels.
        rgb_format (bool): With ``ndim == 3``, repeat the grey channel to
            make images of shape ``(3, 28, 28)``.

    Returns:
        tuple: The training and the test datasets.
    """
    return _mnist_helper.get_mnist_like(
        'pfnet/chainer/fashion-mnist', 'CHAINER_FASHION_MNIST_BASE_URL',
        [_BASE_URL], withlabel, ndim, scale, dtype, label_dtype, rgb_format)
