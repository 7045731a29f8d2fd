import gzip
import os

import numpy
import pytest

import chainer
from chainer.dataset import download
from chainer import datasets

# Numbers computed by Chainer 7.8.1 on the same mirror (the real test set,
# first 8,000 images as training files, last 2,000 as test files).
ORIGINAL_TRAIN_PIXEL_SUM = 208058241
ORIGINAL_TEST_PIXEL_SUM = 56864959
ORIGINAL_TRAIN_LABEL_COUNTS = [773, 905, 834, 803, 788, 723, 756, 813, 787,
                               818]
ORIGINAL_TEST_LABEL_COUNTS = [207, 230, 198, 207, 194, 169, 202, 215, 187,
                              191]
ORIGINAL_TRAIN_FIRST_LABELS = [7, 2, 1, 0, 4, 1, 4, 9, 5, 9]
# get_mnist() training images (float32), summed in float64.
ORIGINAL_TRAIN_SUM = 815914.7174947211
# get_mnist(ndim=2, scale=3., dtype=float64) test images, summed.
ORIGINAL_TEST_SUM_SCALE3 = 668999.5176470592
ORIGINAL_IMAGE_123_FIRST_NONZERO = [
    0.847058892250061, 0.9960784912109375, 0.10196079313755035,
    0.09803922474384308, 0.6078431606292725]


@pytest.fixture(scope='module')
def mnist_root(mnist_mirror, tmp_path_factory):
    return tmp_path_factory.mktemp('mnist_root')


@pytest.fixture
def mnist_env(mnist_root, mnist_mirror, monkeypatch):
    """The dataset root of this module and the mirror as the base URL."""
    original = download.get_dataset_root()
    download.set_dataset_root(str(mnist_root))
    monkeypatch.setenv('CHAINER_MNIST_BASE_URL', mnist_mirror.as_uri())
    yield mnist_root
    download.set_dataset_root(original)


def _raw_arrays(raw_mnist):
    image_bytes, label_bytes = raw_mnist
    images = numpy.frombuffer(image_bytes, numpy.uint8, offset=16)
    labels = numpy.frombuffer(label_bytes, numpy.uint8, offset=8)
    return images.reshape(10000, 784), labels


def test_default(mnist_env, raw_mnist, mnist_test_first_labels):
    train, test = datasets.get_mnist()
    assert isinstance(train, datasets.TupleDataset)
    assert (len(train), len(test)) == (8000, 2000)
    x, t = train[0]
    assert x.shape == (784,) and x.dtype == numpy.float32
    assert t.dtype == numpy.int32
    images, labels = _raw_arrays(raw_mnist)
    train_x = train._datasets[0]
    expected = images[:8000].astype(numpy.float32)
    expected *= 1 / 255.
    numpy.testing.assert_array_equal(train_x, expected)
    numpy.testing.assert_array_equal(train._datasets[1], labels[:8000])
    numpy.testing.assert_array_equal(test._datasets[1], labels[8000:])
    assert train_x.min() == 0 and train_x.max() == 1
    # Against Chainer 7.8.1's numbers.
    assert float(train_x.astype(numpy.float64).sum()) == pytest.approx(
        ORIGINAL_TRAIN_SUM, rel=1e-12)
    assert train_x[123][train_x[123] > 0][:5].tolist() == \
        ORIGINAL_IMAGE_123_FIRST_NONZERO
    assert train._datasets[1][:10].tolist() == ORIGINAL_TRAIN_FIRST_LABELS
    assert test._datasets[1][:10].tolist() == mnist_test_first_labels
    assert numpy.bincount(train._datasets[1]).tolist() == \
        ORIGINAL_TRAIN_LABEL_COUNTS
    assert numpy.bincount(test._datasets[1]).tolist() == \
        ORIGINAL_TEST_LABEL_COUNTS


def test_npz_cache_like_original(mnist_env, capsys, monkeypatch):
    datasets.get_mnist()
    directory = mnist_env / 'pfnet' / 'chainer' / 'mnist'
    # Beside them, only the hidden lock files of concurrent loaders.
    assert sorted(name for name in os.listdir(directory)
                  if not name.startswith('.')) == ['test.npz', 'train.npz']
    for name, n, pixel_sum in (('train', 8000, ORIGINAL_TRAIN_PIXEL_SUM),
                               ('test', 2000, ORIGINAL_TEST_PIXEL_SUM)):
        with numpy.load(directory / (name + '.npz')) as raw:
            assert sorted(raw.files) == ['x', 'y']
            assert raw['x'].dtype == numpy.uint8
            assert raw['x'].shape == (n, 784)
            assert raw['y'].dtype == numpy.uint8 and raw['y'].shape == (n,)
            assert int(raw['x'].sum(dtype=numpy.int64)) == pixel_sum
    # The cache is used: no download, even from a mirror that is gone.
    capsys.readouterr()
    monkeypatch.setenv('CHAINER_MNIST_BASE_URL', 'file:///nonexistent/')
    train, _ = datasets.get_mnist(withlabel=False)
    assert train.shape == (8000, 784)
    assert capsys.readouterr().err == ''


def test_options(mnist_env):
    train, test = datasets.get_mnist(ndim=2, scale=3., dtype=numpy.float64,
                                     label_dtype=numpy.int64)
    x, t = test[5]
    assert x.shape == (28, 28) and x.dtype == numpy.float64
    assert t.dtype == numpy.int64
    test_x = test._datasets[0]
    assert test_x.max() == 3.
    assert float(test_x.sum()) == pytest.approx(
        ORIGINAL_TEST_SUM_SCALE3, rel=1e-12)


def test_ndim3_and_rgb(mnist_env):
    train, _ = datasets.get_mnist(withlabel=False, ndim=3)
    assert train.shape == (8000, 1, 28, 28)
    rgb, _ = datasets.get_mnist(withlabel=False, ndim=3, rgb_format=True)
    assert rgb.shape == (8000, 3, 28, 28)
    for c in range(3):
        numpy.testing.assert_array_equal(rgb[:, c], train[:, 0])
    # rgb_format only applies to ndim=3.
    flat, _ = datasets.get_mnist(withlabel=False, rgb_format=True)
    assert flat.shape == (8000, 784)


def test_default_dtype_from_config(mnist_env):
    with chainer.using_config('dtype', numpy.float16):
        train, _ = datasets.get_mnist(withlabel=False)
    assert train.dtype == numpy.float16


def test_invalid_ndim(mnist_env):
    with pytest.raises(ValueError, match='invalid ndim'):
        datasets.get_mnist(ndim=4)


def test_wrong_pair(dataset_root, mnist_mirror, tmp_path, monkeypatch):
    # Labels of the test files paired with the training images.
    bad = tmp_path / 'bad_mirror'
    bad.mkdir()
    for name in ('train-images-idx3-ubyte.gz', 't10k-images-idx3-ubyte.gz',
                 't10k-labels-idx1-ubyte.gz'):
        (bad / name).write_bytes((mnist_mirror / name).read_bytes())
    (bad / 'train-labels-idx1-ubyte.gz').write_bytes(
        (mnist_mirror / 't10k-labels-idx1-ubyte.gz').read_bytes())
    monkeypatch.setenv('CHAINER_MNIST_BASE_URL', str(bad))
    with pytest.raises(OSError, match='wrong pair'):
        datasets.get_mnist()
    assert not os.path.exists(
        dataset_root / 'pfnet' / 'chainer' / 'mnist' / 'train.npz')


_MNIST_FILES = ('train-images-idx3-ubyte.gz', 'train-labels-idx1-ubyte.gz',
                't10k-images-idx3-ubyte.gz', 't10k-labels-idx1-ubyte.gz')


def _copy_mirror(source, destination, damage=None):
    # A copy of the mirror, with one file damaged by ``damage(bytes)``.
    destination.mkdir()
    for name in _MNIST_FILES:
        data = (source / name).read_bytes()
        if damage is not None and name == 'train-labels-idx1-ubyte.gz':
            data = damage(data)
        (destination / name).write_bytes(data)
    return destination


def _gzip(data):
    return gzip.compress(data, compresslevel=1)


def _ungzip(data):
    return gzip.decompress(data)


@pytest.mark.parametrize('damage', [
    pytest.param(lambda d: d[:len(d) // 2], id='truncated-gzip'),
    pytest.param(lambda d: _gzip(_ungzip(d)[:-10]), id='short-idx'),
    pytest.param(lambda d: _gzip(b'\0\0\x08\x03' + _ungzip(d)[4:]),
                 id='wrong-magic'),
    pytest.param(lambda d: b'<html>moved</html>', id='not-gzip'),
])
def test_damaged_mirror_is_not_cached(damage, dataset_root, mnist_mirror,
                                      tmp_path, monkeypatch):
    bad = _copy_mirror(mnist_mirror, tmp_path / 'mirror', damage)
    monkeypatch.setenv('CHAINER_MNIST_BASE_URL', bad.as_uri())
    with pytest.raises(OSError) as info:
        datasets.get_mnist()
    message = str(info.value)
    assert (bad.as_uri() + '/train-labels-idx1-ubyte.gz') in message
    assert 'damaged' in message and 'CHAINER_MNIST_BASE_URL' in message
    assert not (dataset_root / 'pfnet' / 'chainer' / 'mnist' /
                'train.npz').exists()
    # The mirror is fixed: the next run downloads the damaged file again
    # (and only that one).
    (bad / 'train-labels-idx1-ubyte.gz').write_bytes(
        (mnist_mirror / 'train-labels-idx1-ubyte.gz').read_bytes())
    train, test = datasets.get_mnist()
    assert (len(train), len(test)) == (8000, 2000)
    assert train._datasets[1][:10].tolist() == ORIGINAL_TRAIN_FIRST_LABELS


def test_mirrors_tried_in_order(dataset_root, mnist_mirror, http_server,
                                monkeypatch,
                                mnist_test_first_labels):
    from chainer.datasets import mnist
    base, files = http_server
    for name in _MNIST_FILES:
        data = (mnist_mirror / name).read_bytes()
        files.serve('/refuses/' + name, b'', 403)
        files.serve('/truncates/' + name, data, 'short')
        files.serve('/serves/' + name, data)
    monkeypatch.delenv('CHAINER_MNIST_BASE_URL', raising=False)
    monkeypatch.setattr(mnist, '_BASE_URLS', [
        base + '/refuses/', base + '/truncates/', base + '/serves/'])
    train, test = datasets.get_mnist()
    assert (len(train), len(test)) == (8000, 2000)
    assert test._datasets[1][:10].tolist() == mnist_test_first_labels
    assert files.requests['/serves/train-images-idx3-ubyte.gz'] == 1


def test_all_mirrors_fail(dataset_root, http_server, monkeypatch):
    from chainer.datasets import mnist
    base, files = http_server
    monkeypatch.delenv('CHAINER_MNIST_BASE_URL', raising=False)
    monkeypatch.setattr(mnist, '_BASE_URLS', [base + '/a/', base + '/b/'])
    with pytest.raises(OSError) as info:
        datasets.get_mnist()
    message = str(info.value)
    assert base + '/a/train-images-idx3-ubyte.gz' in message
    assert base + '/b/train-images-idx3-ubyte.gz' in message
    assert 'CHAINER_MNIST_BASE_URL' in message


def test_default_mirrors():
    from chainer.datasets import mnist
    assert mnist._BASE_URLS[-1] == 'http://yann.lecun.com/exdb/mnist/'
    assert all(url.endswith('/') for url in mnist._BASE_URLS)


@pytest.mark.parametrize('damage', ['truncated', 'wrong-shape'])
def test_damaged_npz_cache_is_made_again(damage, dataset_root, mnist_mirror,
                                         monkeypatch):
    monkeypatch.setenv('CHAINER_MNIST_BASE_URL', mnist_mirror.as_uri())
    datasets.get_mnist()
    cache = dataset_root / 'pfnet' / 'chainer' / 'mnist' / 'train.npz'
    if damage == 'truncated':
        cache.write_bytes(cache.read_bytes()[:1000])
    else:
        numpy.savez_compressed(cache, x=numpy.zeros((5, 10), numpy.uint8),
                               y=numpy.zeros(5, numpy.uint8))
    with pytest.warns(RuntimeWarning, match='train.npz is damaged'):
        train, _ = datasets.get_mnist()
    assert len(train) == 8000
    with numpy.load(cache) as raw:
        assert raw['x'].shape == (8000, 784)


def test_make_npz_evicts_damaged_download(dataset_root, mnist_mirror,
                                          tmp_path):
    from chainer.datasets import _mnist_helper
    bad = _copy_mirror(mnist_mirror, tmp_path / 'mirror',
                       lambda d: d[:len(d) // 3])
    urls = [(bad / name).as_uri() for name in
            ('train-images-idx3-ubyte.gz', 'train-labels-idx1-ubyte.gz')]
    with pytest.raises(ValueError, match='train-labels'):
        _mnist_helper.make_npz(str(tmp_path / 'train.npz'), urls)
    # The images stay cached, the damaged labels do not.
    assert os.path.exists(download.cached_download(urls[0]))
    cache = dataset_root / '_dl_cache'
    assert len([n for n in os.listdir(cache)
                if not n.endswith('lock')]) == 1
    assert not (tmp_path / 'train.npz').exists()


def _get_mnist_in_process(root, queue):
    download.set_dataset_root(root)
    train, test = datasets.get_mnist(withlabel=False)
    queue.put((train.shape, float(train.sum()), float(test.sum())))


def test_concurrent_processes_download_once(dataset_root, mnist_mirror,
                                            http_server, monkeypatch):
    # As MPI ranks do: several processes load MNIST at the same time.
    import multiprocessing
    base, files = http_server
    for name in _MNIST_FILES:
        files.serve('/m/' + name, (mnist_mirror / name).read_bytes(),
                    ('slow', 0.2))
    monkeypatch.setenv('CHAINER_MNIST_BASE_URL', base + '/m/')
    context = multiprocessing.get_context('fork')
    queue = context.Queue()
    processes = [context.Process(target=_get_mnist_in_process,
                                 args=(str(dataset_root), queue))
                 for _ in range(3)]
    for p in processes:
        p.start()
    results = [queue.get(timeout=120) for _ in processes]
    for p in processes:
        p.join(timeout=60)
        assert p.exitcode == 0
    assert len(set(results)) == 1 and results[0][0] == (8000, 784)
    assert [files.requests['/m/' + name] for name in _MNIST_FILES] == \
        [1, 1, 1, 1]
