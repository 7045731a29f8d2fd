import hashlib
import importlib.util
import multiprocessing
import os
import pathlib
import threading
import time
import urllib.error

import numpy
import pytest
import six

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
    assert _cache_files(dataset_root) == [os.path.basename(path)]


def test_cached_download_failure_leaves_nothing(dataset_root, tmp_path):
    url = (tmp_path / 'missing.bin').as_uri()
    with pytest.raises(urllib.error.URLError):
        download.cached_download(url)
    assert _cache_files(dataset_root) == []


def test_url_under():
    assert download._url_under('file:///data/mnist/', 'a.gz') == \
        'file:///data/mnist/a.gz'
    assert download._url_under('https://host/x', 'a.gz') == \
        'https://host/x/a.gz'
    local = download._url_under('/data/mnist', 'a.gz')
    assert local == pathlib.Path('/data/mnist/a.gz').as_uri()


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
    assert _visible_files(os.path.dirname(path)) == ['c.npz']
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
    assert _visible_files(os.path.dirname(path)) == []


def test_cache_or_load_file_concurrent(dataset_root):
    # One thread creates the file while the others wait, then load it.
    path = os.path.join(str(dataset_root), 'shared.txt')
    barrier = threading.Barrier(4)
    calls = []
    results = []

    def creator(temp_path):
        calls.append(temp_path)
        time.sleep(0.2)
        with open(temp_path, 'w') as f:
            f.write('content')
        return 'content'

    def loader(p):
        with open(p) as f:
            return f.read()

    def work():
        barrier.wait(timeout=10)
        results.append(download.cache_or_load_file(path, creator, loader))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert results == ['content'] * 4
    assert _visible_files(dataset_root) == ['shared.txt']


def test_cache_or_load_file_stale_temporary_directory(dataset_root):
    # A killed creator leaves its temporary directory; the next one starts
    # afresh there.
    directory = download.get_dataset_directory('d')
    stale = os.path.join(directory, '.c.txt.creating')
    os.makedirs(stale)
    pathlib.Path(stale, 'c.txt').write_text('partial')

    def creator(temp_path):
        assert not os.path.exists(temp_path)
        pathlib.Path(temp_path).write_text('whole')
        return 'made'

    path = os.path.join(directory, 'c.txt')
    assert download.cache_or_load_file(path, creator, None) == 'made'
    assert pathlib.Path(path).read_text() == 'whole'
    assert not os.path.exists(stale)


@pytest.mark.parametrize('damage', ['truncated', 'garbage', 'missing key'])
def test_cache_or_load_file_evicts_damaged_npz(dataset_root, damage):
    path = os.path.join(download.get_dataset_directory('d'), 'c.npz')
    numpy.savez_compressed(path, x=numpy.arange(1000))
    data = pathlib.Path(path).read_bytes()
    if damage == 'truncated':
        pathlib.Path(path).write_bytes(data[:len(data) // 2])
    elif damage == 'garbage':
        pathlib.Path(path).write_bytes(b'\x93NUMPY' + b'\0' * 100)
    else:
        numpy.savez_compressed(path, y=numpy.arange(3))
    calls = []
    with pytest.warns(RuntimeWarning, match='c.npz is damaged'):
        content = download.cache_or_load_file(
            path, _npz_creator(calls),
            lambda p: download._load_npz(p, ('x',)))
    assert len(calls) == 1
    numpy.testing.assert_array_equal(content['x'], numpy.arange(5))
    assert download._load_npz(path, ('x',))['x'].tolist() == list(range(5))


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
    # As Chainer does, through six.moves (which user tests patch).
    calls = []

    def urlretrieve(*args, **kwargs):
        calls.append((args, kwargs))
        pathlib.Path(args[1]).write_text('test')

    monkeypatch.setattr(six.moves.urllib.request, 'urlretrieve', urlretrieve)
    path = download.cached_download('https://example.com')
    assert len(calls) == 1
    assert calls[0][0][0] == 'https://example.com' and calls[0][1] == {}
    assert pathlib.Path(path).read_text() == 'test'


def _cache_files(dataset_root):
    # The cached downloads, without the lock files.
    return sorted(name for name in os.listdir(dataset_root / '_dl_cache')
                  if not name.endswith('.lock') and name != '_dl_lock')


def _visible_files(directory):
    return sorted(name for name in os.listdir(directory)
                  if not name.startswith('.'))


def test_http_download(dataset_root, http_server):
    base, files = http_server
    files.serve('/a.bin', b'payload' * 1000)
    path = download.cached_download(base + '/a.bin')
    assert pathlib.Path(path).read_bytes() == b'payload' * 1000
    assert download.cached_download(base + '/a.bin') == path
    assert files.requests['/a.bin'] == 1


@pytest.mark.parametrize('behaviour, error', [
    ('short', urllib.error.ContentTooShortError),
    ('drop', urllib.error.ContentTooShortError),
    (404, urllib.error.HTTPError),
])
def test_http_failure_caches_nothing(dataset_root, http_server, behaviour,
                                     error):
    base, files = http_server
    files.serve('/a.bin', b'x' * 10000, behaviour)
    with pytest.raises(error):
        download.cached_download(base + '/a.bin')
    assert _cache_files(dataset_root) == []
    # Once the server is fixed, the next call downloads the whole file.
    files.serve('/a.bin', b'x' * 10000)
    path = download.cached_download(base + '/a.bin')
    assert pathlib.Path(path).read_bytes() == b'x' * 10000
    assert _cache_files(dataset_root) == [os.path.basename(path)]


def test_stale_partial_download_is_replaced(dataset_root, http_server):
    # A download killed midway leaves its .part file, never a cached one.
    base, files = http_server
    files.serve('/a.bin', b'whole')
    url = base + '/a.bin'
    cache = dataset_root / '_dl_cache'
    cache.mkdir(parents=True)
    name = hashlib.md5(url.encode('utf-8')).hexdigest()
    (cache / (name + '.part')).write_bytes(b'par')
    path = download.cached_download(url)
    assert pathlib.Path(path).read_bytes() == b'whole'
    assert _cache_files(dataset_root) == [name]


def _download_in_process(root, url, queue):
    download.set_dataset_root(root)
    path = download.cached_download(url)
    with open(path, 'rb') as f:
        queue.put((path, f.read()))


def test_concurrent_downloads_from_processes(dataset_root, http_server):
    base, files = http_server
    body = bytes(range(256)) * 400
    files.serve('/big.bin', body, ('slow', 0.5))
    context = multiprocessing.get_context('fork')
    queue = context.Queue()
    processes = [
        context.Process(target=_download_in_process,
                        args=(str(dataset_root), base + '/big.bin', queue))
        for _ in range(4)]
    for p in processes:
        p.start()
    results = [queue.get(timeout=60) for _ in processes]
    for p in processes:
        p.join(timeout=60)
        assert p.exitcode == 0
    assert files.requests['/big.bin'] == 1
    assert len({path for path, _ in results}) == 1
    assert all(data == body for _, data in results)
    assert _cache_files(dataset_root) == [os.path.basename(results[0][0])]


def _read_text(paths):
    path, = paths
    with download._reading(path):
        with open(path, encoding='ascii') as f:
            text = f.read()
        if not text.endswith('.'):
            raise ValueError('no final dot')
    return text


def test_download_verified_tries_mirrors_in_order(dataset_root, http_server,
                                                  monkeypatch):
    base, files = http_server
    monkeypatch.delenv('CHAINER_TEST_BASE_URL', raising=False)
    files.serve('/m1/f.txt', b'x', 503)
    files.serve('/m2/f.txt', b'cut', 'short')
    files.serve('/m3/f.txt', b'damaged')
    files.serve('/m4/f.txt', b'good.')
    mirrors = [base + '/m{}/'.format(i) for i in range(1, 5)]
    text = download._download_verified(
        'CHAINER_TEST_BASE_URL', mirrors, ['f.txt'], _read_text)
    assert text == 'good.'
    assert [files.requests['/m{}/f.txt'.format(i)] for i in range(1, 5)] \
        == [1, 1, 1, 1]
    # The damaged download was evicted; only the good one is cached.
    assert len(_cache_files(dataset_root)) == 1
    # Next time the mirror already cached comes first: no request at all.
    assert download._download_verified(
        'CHAINER_TEST_BASE_URL', mirrors, ['f.txt'], _read_text) == 'good.'
    assert sum(files.requests.values()) == 4


def test_download_verified_error_names_addresses(dataset_root, http_server,
                                                 monkeypatch):
    base, files = http_server
    monkeypatch.delenv('CHAINER_TEST_BASE_URL', raising=False)
    files.serve('/m2/f.txt', b'damaged')
    mirrors = [base + '/m1', base + '/m2']
    with pytest.raises(OSError) as info:
        download._download_verified(
            'CHAINER_TEST_BASE_URL', mirrors, ['f.txt'], _read_text)
    message = str(info.value)
    assert base + '/m1/f.txt' in message and base + '/m2/f.txt' in message
    assert 'CHAINER_TEST_BASE_URL' in message and 'damaged' in message
    assert _cache_files(dataset_root) == []
    # The mirror is fixed: the next call downloads again and succeeds.
    files.serve('/m2/f.txt', b'fixed.')
    assert download._download_verified(
        'CHAINER_TEST_BASE_URL', mirrors, ['f.txt'], _read_text) == 'fixed.'


def test_download_verified_environment_replaces_mirrors(
        dataset_root, http_server, monkeypatch, tmp_path):
    base, files = http_server
    (tmp_path / 'f.txt').write_text('local.')
    monkeypatch.setenv('CHAINER_TEST_BASE_URL', str(tmp_path))
    assert download._download_verified(
        'CHAINER_TEST_BASE_URL', [base + '/m1'], ['f.txt'],
        _read_text) == 'local.'
    assert sum(files.requests.values()) == 0
