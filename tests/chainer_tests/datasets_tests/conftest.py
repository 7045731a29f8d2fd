import gzip
import importlib.util
import pathlib
import struct

import pytest

from chainer.dataset import download

# The real MNIST test set lies beside the checkout, in ../shared.
MNIST_DIR = pathlib.Path(__file__).resolve().parents[3].parent / \
    'shared' / 'data' / 'mnist'


@pytest.fixture
def dataset_root(tmp_path):
    """Points the dataset root at an empty temporary directory."""
    original = download.get_dataset_root()
    root = tmp_path / 'dataset_root'
    download.set_dataset_root(str(root))
    yield root
    download.set_dataset_root(original)


@pytest.fixture(scope='session')
def raw_mnist():
    """The decompressed IDX bytes of the images and labels of the real test
    set.

    Skips the test when ../shared/data/mnist is not there (a user's clone).
    """
    images = MNIST_DIR / 't10k-images-idx3-ubyte.gz'
    labels = MNIST_DIR / 't10k-labels-idx1-ubyte.gz'
    if not (images.exists() and labels.exists()):
        pytest.skip('the real MNIST test set is not at {} (it is there in '
                    'CI, beside the checkout)'.format(MNIST_DIR))
    with gzip.open(images) as f:
        image_bytes = f.read()
    with gzip.open(labels) as f:
        label_bytes = f.read()
    return image_bytes, label_bytes


@pytest.fixture(scope='session')
def mnist_mirror(raw_mnist, tmp_path_factory):
    """A file:// mirror of MNIST made of the real test set.

    The first 8,000 test images become the training files and the last
    2,000 the test files, gzipped IDX files as published.
    """
    image_bytes, label_bytes = raw_mnist
    mirror = tmp_path_factory.mktemp('mnist_mirror')

    def write(name, header, body):
        with gzip.open(mirror / name, 'wb', compresslevel=1) as f:
            f.write(header + body)

    for prefix, start, stop in (('train', 0, 8000), ('t10k', 8000, 10000)):
        n = stop - start
        write(prefix + '-images-idx3-ubyte.gz',
              struct.pack('>iiii', 2051, n, 28, 28),
              image_bytes[16 + start * 784:16 + stop * 784])
        write(prefix + '-labels-idx1-ubyte.gz',
              struct.pack('>ii', 2049, n), label_bytes[8 + start:8 + stop])
    return mirror


@pytest.fixture
def mnist_test_first_labels():
    """The first labels of the test split of the mirror, as Chainer 7.8.1
    reads them."""
    return [4, 9, 9, 7, 1, 1, 9, 0, 7, 8]


@pytest.fixture
def check_mnist_like_loader(dataset_root, mnist_mirror, monkeypatch,
                            mnist_test_first_labels):
    """Checks a loader of an MNIST-like dataset, given the MNIST mirror."""
    def check(getter, env, directory):
        monkeypatch.setenv(env, mnist_mirror.as_uri())
        train, test = getter(ndim=3)
        assert (len(train), len(test)) == (8000, 2000)
        assert train[0][0].shape == (1, 28, 28)
        assert test._datasets[1][:10].tolist() == mnist_test_first_labels
        assert (dataset_root / 'pfnet' / 'chainer' / directory /
                'train.npz').exists()
    return check


@pytest.fixture
def http_server():
    """``(base_url, files)`` of a local HTTP server on 127.0.0.1 (see
    ``dataset_tests/http_server.py``)."""
    path = pathlib.Path(__file__).parents[1] / 'dataset_tests' / \
        'http_server.py'
    spec = importlib.util.spec_from_file_location('_http_server', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with module.running() as server:
        yield server
