"""The MNIST dataset of hand-written digits."""

import numpy

from chainer.datasets import _mnist_helper

# yann.lecun.com, where Chainer 7.8 downloads from, refuses downloads
# nowadays; the mirrors that current tools (TensorFlow Datasets,
# torchvision) download from come first.
_BASE_URLS = [
    'https://storage.googleapis.com/cvdf-datasets/mnist/',
    'https://ossci-datasets.s3.amazonaws.com/mnist/',
    'http://yann.lecun.com/exdb/mnist/',
]


def get_mnist(withlabel=True, ndim=1, scale=1., dtype=None,
              label_dtype=numpy.int32, rgb_format=False):
    """Gets the MNIST dataset.

    `MNIST <http://yann.lecun.com/exdb/mnist/>`_ holds 28x28 grey-scale
    images of hand-written digits: 60,000 for training and 10,000 for
    testing. The pixels, bytes in the files, are scaled to floats in
    ``[0, scale]``.

    The four gzipped IDX files are downloaded once (see
    :func:`~chainer.dataset.cached_download`) and their arrays cached as
    ``train.npz`` and ``test.npz`` under
    ``<dataset root>/pfnet/chainer/mnist``, in the same format as
    Chainer's, so either can read the other's cache.

    The files are downloaded from the first of these addresses that serves
    them intact: ``https://storage.googleapis.com/cvdf-datasets/mnist/``,
    ``https://ossci-datasets.s3.amazonaws.com/mnist/`` and
    ``http://yann.lecun.com/exdb/mnist/`` (Chainer's, which refuses
    downloads nowadays). The environment variable ``CHAINER_MNIST_BASE_URL``
    (read at each call) replaces them with another base URL, e.g. a mirror
    or a local directory as ``file:///data/mnist/`` (a plain directory path
    works too), holding ``train-images-idx3-ubyte.gz``,
    ``train-labels-idx1-ubyte.gz``, ``t10k-images-idx3-ubyte.gz`` and
    ``t10k-labels-idx1-ubyte.gz``. Each file is read whole and checked (a
    complete gzip stream, the IDX header, the size); a damaged one is
    removed from the download cache and the next address is tried. When no
    address serves them, the :class:`OSError` names every address tried and
    ``CHAINER_MNIST_BASE_URL``. Downloads are cached by URL, but the
    ``.npz`` cache is used whatever the URL: remove it (or change the
    dataset root) to read another mirror. A damaged ``.npz`` cache is made
    again.

    Args:
        withlabel (bool): If ``True``, the examples are ``(image, label)``
            tuples; otherwise they are images.
        ndim (int): The number of dimensions of an image: 1 for shape
            ``(784,)``, 2 for ``(28, 28)``, 3 for ``(1, 28, 28)``.
        scale (float): The value of a white pixel.
        dtype: The dtype of the images; ``chainer.config.dtype`` by
            default.
        label_dtype: The dtype of the labels.
        rgb_format (bool): With ``ndim == 3``, repeat the grey channel to
            make images of shape ``(3, 28, 28)``.

    Returns:
        tuple: The training and the test datasets:
        :class:`~chainer.datasets.TupleDataset` with labels, arrays of
        images without.
    """
    return _mnist_helper.get_mnist_like(
        'pfnet/chainer/mnist', 'CHAINER_MNIST_BASE_URL', _BASE_URLS,
        withlabel, ndim, scale, dtype, label_dtype, rgb_format)
