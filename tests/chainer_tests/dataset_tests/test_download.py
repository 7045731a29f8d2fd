import hashlib
import importlib.util
import os
import pathlib
import threading
import urllib.error

import numpy
import pytest

from chainer.dataset import download


@pytest.fixture
def dataset_root(tmp_path):
    original = download.get_dataset_root()
    root = tmp_path / 'root'
    download.set_dataset_root(str(root))
    yield root
    download.set_dataset_root(original)


def _fresh_download_module():
    # Runs the module's code again, as at the import of Chainer.
    spec = importlib.util.spec_from_file_location(
        '_fresh_download', download.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_root_default_and_environment(tmp_path, monkeypatch):
    monkeypatch.delenv('CHAINER_DATASET_ROOT', raising=False)
    monkeypatch.setenv('HOME', str(tmp_path))
    assert _fresh_download_module().get_dataset_root() == os.path.join(
        str(tmp_path), '.chainer', 'dataset')
    monkeypatch.setenv('CHAINER_DATASET_ROOT', str(tmp_path / 'elsewhere'))
    assert _fresh_download_module().get_dataset_root() == str(
        tmp_path / 'elsewhere')


def test_set_dataset_root(dataset_root):
    assert download.get_dataset_root() == str(dataset_root)


def test_get_dataset_directory(dataset_root):
    path = download.get_dataset_directory('a/b', create_directory=False)
    assert path == os.path.join(str(dataset_root), 'a/b')
    assert not os.path.exists(path)
    assert download.get_dataset_directory('a/b') == path
    assert os.path.isdir(path)
    # An existing directory is fine.
    assert download.get_dataset_directory('a/b') == path


def test_cached_download_file_url(dataset_root, tmp_path, capsys):
    source = tmp_path / 'data.bin'
    source.write_bytes(b'\x00\x01payload')
    url = source.as_uri()
    path = download.cached_download(url)
    assert capsys.readouterr().err == 'Downloading from {}...\n'.format(url)
    assert path == os.path.join(
        str(dataset_root), '_dl_cache',
        hashlib.md5(url.encode('utf-8')).hexdigest())
    assert pathlib.Path(path).read_bytes() == b'\x00\x01payload'
    # The second call uses the cache, even if the source changed.
    source.write_bytes(b'changed')
    assert download.cached_download(url) == path
    assert pathlib.Path(path).read_bytes() == b'\x00\x01payload'
    assert capsys.readouterr().err == ''
    assert os.listdir(os.path.dirname(path)) == [os.path.basename(path)]


def test_cached_download_failure_leaves_nothing(dataset_root, tmp_path):
    url = (tmp_path / 'missing.bin').as_uri()
    with pytest.raises(urllib.error.URLError):
        download.cached_download(url)
    assert os.listdir(os.path.join(str(dataset_root), '_dl_cache')) == []


def test_url_under():
    assert download._url_under('file:///data/mnist/', 'a.gz') == \
        'file:///data/mnist/a.gz'
    assert download._url_under('https://host/x', 'a.gz') == \
        'https://host/x/a.gz'
    local = download._url_under('/data/mnist', 'a.gz')
    assert local == pathlib.Path('/data/mnist/a.gz').as_uri()


def test_mirrored_url(monkeypatch):
    monkeypatch.delenv('CHAINER_TEST_BASE', raising=False)
    assert download._mirrored_url(
        'CHAINER_TEST_BASE', 'http://a/b/', 'f') == 'http://a/b/f'
    monkeypatch.setenv('CHAINER_TEST_BASE', 'file:///m')
    assert download._mirrored_url(
        'CHAINER_TEST_BASE', 'http://a/b/', 'f') == 'file:///m/f'


def _npz_creator(calls):
    def creator(path):
        calls.append(path)
        assert not os.path.exists(path)
        numpy.savez(path, x=numpy.arange(5))
        return {'x': numpy.arange(5)}
    return creator


def test_cache_or_load_file(dataset_root):
    path = os.path.join(download.get_dataset_directory('d'), 'c.npz')
    calls = []
    content = download.cache_or_load_file(
        path, _npz_creator(calls), numpy.load)
    numpy.testing.assert_array_equal(content['x'], numpy.arange(5))
    assert len(calls) == 1 and calls[0] != path
    assert os.path.basename(calls[0]) == 'c.npz'
    assert os.listdir(os.path.dirname(path)) == ['c.npz']
    loaded = download.cache_or_load_file(
        path, _npz_creator(calls), numpy.load)
    numpy.testing.assert_array_equal(loaded['x'], numpy.arange(5))
    assert len(calls) == 1


def test_cache_or_load_file_creator_error(dataset_root):
    path = os.path.join(download.get_dataset_directory('d'), 'c.txt')

    def creator(temp_path):
        with open(temp_path, 'w') as f:
            f.write('partial')
        raise RuntimeError('creator failed')

    with pytest.raises(RuntimeError, match='creator failed'):
        download.cache_or_load_file(path, creator, None)
    assert os.listdir(os.path.dirname(path)) == []


def test_cache_or_load_file_concurrent(dataset_root):
    path = os.path.join(str(dataset_root), 'shared.txt')
    barrier = threading.Barrier(4)
    results = []

    def creator(temp_path):
        barrier.wait(timeout=10)
        with open(temp_path, 'w') as f:
            f.write('content')
        return 'created'

    def loader(p):
        with open(p) as f:
            return f.read()

    def work():
        results.append(download.cache_or_load_file(path, creator, loader))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == ['created'] * 4
    assert loader(path) == 'content'
    assert os.listdir(str(dataset_root)) == ['shared.txt']


def test_cache_or_load_file_root_is_a_file(tmp_path):
    original = download.get_dataset_root()
    root = tmp_path / 'root'
    root.write_text('')
    download.set_dataset_root(str(root))
    try:
        with pytest.raises(RuntimeError):
            download.cache_or_load_file(
                str(tmp_path / 'elsewhere' / 'c'), None, None)
    finally:
        download.set_dataset_root(original)


def test_cached_download_uses_urlretrieve(dataset_root, monkeypatch):
    calls = []

    def urlretrieve(*args, **kwargs):
        calls.append((args, kwargs))
        pathlib.Path(args[1]).write_text('test')

    monkeypatch.setattr(download.urllib.request, 'urlretrieve', urlretrieve)
    path = download.cached_download('https://example.com')
    assert len(calls) == 1
    assert calls[0][0][0] == 'https://example.com' and calls[0][1] == {}
    assert pathlib.Path(path).read_text() == 'test'
