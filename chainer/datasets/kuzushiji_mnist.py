"""The Kuzushiji-MNIST dataset of cursive Japanese characters."""

import numpy

from chainer.datasets import _mnist_helper

_BASE_URL = 'http://codh.rois.ac.jp/kmnist/dataset/kmnist/'

_kuzushiji_mnist_labels = [
    ('o', '\u304A'), ('ki', '\u304D'), ('su', '\u3059'), ('tsu', '\u3064'),
    ('na', '\u306A'), ('ha', '\u306F'), ('ma', '\u307E'), ('ya', '\u3084'),
    ('re', '\u308C'), ('wo', '\u3092')]


def get_kuzushiji_mnist_labels():
    """Returns the characters of the Kuzushiji-MNIST classes.

    Returns:
        list of tuples: For each label value, the romaji name of the
        character and the character itself.
    """
    return _kuzushiji_mnist_labels


def get_kuzushiji_mnist(withlabel=True, ndim=1, scale=1., dtype=None,
                        label_dtype=numpy.int32, rgb_format=False):
    """Gets the Kuzushiji-MNIST dataset.

    `Kuzushiji-MNIST <http://codh.rois.ac.jp/kmnist/>`_ holds 28x28
    grey-scale images of 10 hiragana characters in cursive script (see
    :func:`get_kuzushiji_mnist_labels`), 60,000 for training and 10,000 for
    testing, in the files and layout of MNIST. It is loaded and cached as
    :func:`~chainer.datasets.get_mnist` does, under
    ``<dataset root>/pfnet/chainer/kuzushiji_mnist``; the environment
    variable ``CHAINER_KUZUSHIJI_MNIST_BASE_URL`` may name a mirror of the
    files; the error raised when the files cannot be downloaded intact
    names it.

    It takes the arguments of :func:`~chainer.datasets.get_mnist`.

    Returns:
        tuple: The training and the test datasets, as
        :func:`~chainer.datasets.get_mnist` makes them.
    """
    return _mnist_helper.get_mnist_like(
        'pfnet/chainer/kuzushiji_mnist', 'CHAINER_KUZUSHIJI_MNIST_BASE_URL',
        [_BASE_URL], withlabel, ndim, scale, dtype, label_dtype, rgb_format)
