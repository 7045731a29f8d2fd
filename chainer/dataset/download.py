"""Where datasets are downloaded and cached, and how."""

import contextlib
import gzip
import hashlib
import http.client
import os
import pathlib
import pickle
import shutil
import sys
import tarfile
import urllib.error
import urllib.parse
import warnings
import zipfile
import zlib

import filelock
import numpy
from six.moves.urllib import request


_dataset_root = os.environ.get(
    'CHAINER_DATASET_ROOT',
    os.path.join(os.path.expanduser('~'), '.chainer', 'dataset'))


def get_dataset_root():
    """Returns the root directory of downloaded and cached datasets.

    Returns:
        str: The path set by :func:`set_dataset_root`, else the value of
        the ``CHAINER_DATASET_ROOT`` environment variable when Chainer was
        imported, else ``~/.chainer/dataset``.
    """
    return _dataset_root


def set_dataset_root(path):
    """Sets the root directory of downloaded and cached datasets.

    It takes precedence over the ``CHAINER_DATASET_ROOT`` environment
    variable. The default root is ``~/.chainer/dataset``.

    Args:
        path (str): The new root directory.
    """
    global _dataset_root
    _dataset_root = path


def get_dataset_directory(dataset_name, create_directory=True):
    """Returns the directory of a dataset under the dataset root.

    Args:
        dataset_name (str): The name of the dataset; slashes in it separate
            sub-directories (e.g. ``'pfnet/chainer/mnist'``).
        create_directory (bool): If ``True``, the directory is created when
            it does not exist yet.

    Returns:
        str: The path of the directory.
    """
    path = os.path.join(_dataset_root, dataset_name)
    if create_directory:
        os.makedirs(path, exist_ok=True)
    return path


def cached_download(url):
    """Downloads a file once and returns the path of its cached copy.

    The file is stored under ``<dataset root>/_dl_cache``, named by the MD5
    hash of the URL; later calls with the same URL return that path without
    downloading. Any URL that :mod:`urllib.request` opens is accepted,
    ``file://`` URLs included.

    Nothing broken is cached: the download goes to a temporary file that is
    renamed into place only when it is complete, and a response shorter
    than its ``Content-Length`` or a dropped connection raises. Several
    threads or processes (e.g. MPI ranks) asking for the same URL at once
    download it once: a file lock (:mod:`filelock`) beside the cached file
    makes the others wait for it. A temporary file left by a killed
    download is overwritten by the next one.

    Args:
        url (str): The URL to download.

    Returns:
        str: The path of the cached file.

    Raises:
        OSError: If the cache directory cannot be created or the download
            fails (:class:`urllib.error.ContentTooShortError` when the
            response is cut short).
    """
    cache_path = _cache_path(url)
    cache_root = os.path.dirname(cache_path)
    _make_directory(cache_root)
    if os.path.exists(cache_path):
        return cache_path

    with filelock.FileLock(cache_path + '.lock'):
        if os.path.exists(cache_path):
            return cache_path
        sys.stderr.write('Downloading from {}...\n'.format(url))
        sys.stderr.flush()
        temp_path = cache_path + '.part'
        try:
            _retrieve(url, temp_path)
            # Processes of Chainer 7.8 sharing this cache move their
            # downloads in under this lock.
            with filelock.FileLock(os.path.join(cache_root, '_dl_lock')):
                os.replace(temp_path, cache_path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.remove(temp_path)
            raise
    return cache_path


def _cache_path(url):
    """Returns where :func:`cached_download` keeps the file of ``url``."""
    url_hash = hashlib.md5(url.encode('utf-8'), usedforsecurity=False)
    return os.path.join(_dataset_root, '_dl_cache', url_hash.hexdigest())


def _retrieve(url, path):
    """Downloads ``url`` to ``path`` completely, or raises.

    Raises:
        urllib.error.ContentTooShortError: If fewer bytes than announced
            arrive, or the connection drops in the middle of a chunked
            response.
    """
    try:
        request.urlretrieve(url, path)
    except http.client.IncompleteRead as e:
        raise urllib.error.ContentTooShortError(
            'retrieval incomplete: got only {} bytes from {}'.format(
                len(e.partial), url), None) from e
    except http.client.HTTPException as e:
        raise urllib.error.URLError(
            'download from {} failed: {!r}'.format(url, e)) from e
    with open(path, 'rb') as f:
        os.fsync(f.fileno())


def _evict(path):
    """Removes a cached download found damaged, so that it is fetched again.

    Args:
        path (str): A path returned by :func:`cached_download`.
    """
    with filelock.FileLock(path + '.lock'):
        with contextlib.suppress(FileNotFoundError):
            os.remove(path)


# What reading a damaged or truncated file raises (gzip, zip, tar, pickle,
# NPZ, text).
_DAMAGE_ERRORS = (EOFError, ValueError, KeyError, IndexError, zlib.error,
                  gzip.BadGzipFile, zipfile.BadZipFile, tarfile.TarError,
                  pickle.UnpicklingError)


class _DamagedFileError(ValueError):
    """A downloaded or cached file that cannot be read as what it should be.

    Attributes:
        path (str): The damaged file.
    """

    def __init__(self, path, reason):
        super().__init__('{} is damaged: {}'.format(path, reason))
        self.path = path


@contextlib.contextmanager
def _reading(path):
    """Turns the errors of reading a damaged ``path`` into
    :class:`_DamagedFileError` naming it."""
    try:
        yield
    except _DamagedFileError:
        raise
    except _DAMAGE_ERRORS as e:
        raise _DamagedFileError(path, '{}: {}'.format(
            type(e).__name__, e)) from e


def _load_npz(path, keys):
    """Reads the arrays ``keys`` of an NPZ file into memory.

    Every array is read (and its checksum verified) here, so that a damaged
    cache shows up at once, naming the file.

    Raises:
        _DamagedFileError: If the file is not a complete NPZ file holding
            ``keys``.
    """
    with _reading(path):
        npz = numpy.load(path, allow_pickle=False)
        if not isinstance(npz, numpy.lib.npyio.NpzFile):
            raise ValueError('not an NPZ archive')
        with npz:
            return {key: npz[key] for key in keys}


def cache_or_load_file(path, creator, loader):
    """Loads a cached file, creating it first when it does not exist.

    The creator writes the file at a temporary path (beside ``path``,
    with the same base name, where no file exists yet) and returns its
    content; the file is then renamed to ``path``, so no reader ever sees a
    partial file. When ``path`` exists, the loader reads it instead.

    Several threads or processes asking for the same ``path`` at once are
    safe: a file lock (:mod:`filelock`, ``.<name>.lock`` beside ``path``)
    lets one of them create the file while the others wait, then load it.
    If the loader finds the cached file damaged (it raises one of the
    errors of reading a truncated or corrupt file: :class:`EOFError`,
    :class:`ValueError`, :class:`KeyError`, :class:`zipfile.BadZipFile`,
    :class:`gzip.BadGzipFile`, ...), the file is removed, with a warning,
    and created again.

    Args:
        path (str): The path of the cached file.
        creator: A function taking the temporary path, writing the file
            there and returning the content.
        loader: A function taking ``path`` and returning the content.

    Returns:
        What the creator or the loader returns.

    Raises:
        RuntimeError: If the dataset root or the directory of ``path``
            cannot be created.
    """
    if os.path.exists(path):
        loaded = os.stat(path)
        try:
            return loader(path)
        except _DAMAGE_ERRORS as e:
            _evict_damaged_cache(path, loaded, e)

    directory = os.path.dirname(path) or '.'
    try:
        _make_directory(_dataset_root)
        _make_directory(directory)
    except OSError as e:
        raise RuntimeError('cannot create dataset directory') from e

    name = os.path.basename(path)
    with filelock.FileLock(os.path.join(directory, '.{}.lock'.format(name))):
        if not os.path.exists(path):
            # Under the lock, a temporary directory found here is a stale
            # one of a killed process.
            temp_dir = os.path.join(directory, '.{}.creating'.format(name))
            shutil.rmtree(temp_dir, ignore_errors=True)
            os.mkdir(temp_dir)
            try:
                content = creator(os.path.join(temp_dir, name))
                os.replace(os.path.join(temp_dir, name), path)
            finally:
                shutil.rmtree(temp_dir, ignore_errors=True)
            return content
    return loader(path)


def _evict_damaged_cache(path, loaded, error):
    # Removes ``path`` unless another process has replaced it since
    # ``loaded`` was taken (the stat of the damaged file).
    warnings.warn(
        'The cached file {} is damaged ({}: {}); it is removed and made '
        'again.'.format(path, type(error).__name__, error), RuntimeWarning)
    name = os.path.basename(path)
    directory = os.path.dirname(path) or '.'
    with filelock.FileLock(os.path.join(directory, '.{}.lock'.format(name))):
        with contextlib.suppress(FileNotFoundError):
            now = os.stat(path)
            if (now.st_ino, now.st_mtime_ns, now.st_size) == (
                    loaded.st_ino, loaded.st_mtime_ns, loaded.st_size):
                os.remove(path)


def _make_directory(path):
    """Creates a directory (and its parents) unless it exists.

    Args:
        path (str): The directory.

    Raises:
        OSError: If ``path`` is not a directory and cannot be created.
    """
    try:
        os.makedirs(path)
    except OSError:
        if not os.path.isdir(path):
            raise


def _url_under(base_url, file_name):
    """Joins a base URL (or a local directory path) and a file name.

    Args:
        base_url (str): A URL such as ``'file:///data/mnist/'`` or
            ``'https://host/mnist'``, or a path of a local directory.
        file_name (str): The name of the file under ``base_url``.

    Returns:
        str: The URL of the file.
    """
    if not urllib.parse.urlsplit(base_url).scheme:
        base_url = pathlib.Path(base_url).resolve().as_uri()
    return base_url.rstrip('/') + '/' + file_name


def _download_verified(env_var, default_base_urls, file_names, read):
    """Downloads a dataset's files from the first mirror serving them intact.

    The base URLs are tried in order (one whose files are all cached
    already comes first); the environment variable ``env_var``, when set,
    replaces them with its single base URL (or local directory). For each
    base URL, every file is fetched with :func:`cached_download` and the
    paths are given to ``read``. A download that fails moves on to the next
    base URL; a file that ``read`` finds damaged is removed from the cache
    first, so that a later call downloads it again.

    Args:
        env_var (str): The environment variable that may name a mirror.
        default_base_urls (list of str): The base URLs to try, in order.
        file_names (list of str): The files to fetch under a base URL.
        read: A function taking the list of cached paths and returning the
            content. It raises :class:`_DamagedFileError` naming a damaged
            file (see :func:`_reading`), or another of the errors of reading
            a damaged file when the files do not fit together.

    Returns:
        What ``read`` returns.

    Raises:
        OSError: If no base URL serves intact files; the message names
            every address tried, what went wrong there, and ``env_var``.
    """
    override = os.environ.get(env_var)
    base_urls = [override] if override else list(default_base_urls)

    def urls_of(base_url):
        return [_url_under(base_url, name) for name in file_names]

    def is_cached(url):
        return os.path.exists(_cache_path(url))

    base_urls.sort(key=lambda base: not all(map(is_cached, urls_of(base))))
    failures = []
    for base_url in base_urls:
        urls = urls_of(base_url)
        paths = []
        try:
            for url in urls:
                paths.append(cached_download(url))
        except OSError as e:
            failures.append('{}: {}'.format(url, e))
            continue
        try:
            return read(paths)
        except _DAMAGE_ERRORS as e:
            damaged = getattr(e, 'path', None)
            for url, path in zip(urls, paths):
                if damaged is None or path == damaged:
                    _evict(path)
                    failures.append('{}: damaged ({}), removed from the '
                                    'cache'.format(url, e))
    raise OSError(
        'Could not download {} intact from any of these addresses:\n  {}\n'
        'Set {} to the base URL (http://, https:// or file://) or the local '
        'directory of a mirror holding {}.'.format(
            ', '.join(file_names), '\n  '.join(failures), env_var,
            ', '.join(file_names)))
