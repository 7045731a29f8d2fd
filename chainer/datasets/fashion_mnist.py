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

    It takes the arguments of :func:`~chainer.datasets.get_mnist`.

    Returns:
        tuple: The training and the test datasets, as
        :func:`~chainer.datasets.get_mnist` makes them.
    """
    return _mnist_helper.get_mnist_like(
        'pfnet/chainer/fashion-mnist', 'CHAINER_FASHION_MNIST_BASE_URL',
        [_BASE_URL], withlabel, ndim, scale, dtype, label_dtype, rgb_format)
