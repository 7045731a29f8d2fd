"""Where datasets are downloaded and cached, and how."""

import hashlib
import os
import pathlib
import sys
import urllib.parse
import urllib.request

from chainer import utils


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
    downloading. The download goes to a temporary file first, renamed into
    place when complete, so that an interrupted download or concurrent
    calls (threads or processes) never leave a partial file in the cache.
    Any URL that :mod:`urllib.request` opens is accepted, ``file://`` URLs
    included.

    Args:
        url (str): The URL to download.

    Returns:
        str: The path of the cached file.

    Raises:
        OSError: If the cache directory cannot be created or the download
            fails.
    """
    cache_root = os.path.join(_dataset_root, '_dl_cache')
    _make_directory(cache_root)
    url_hash = hashlib.md5(url.encode('utf-8'), usedforsecurity=False)
    cache_path = os.path.join(cache_root, url_hash.hexdigest())
    if os.path.exists(cache_path):
        return cache_path

    sys.stderr.write('Downloading from {}...\n'.format(url))
    sys.stderr.flush()
    with utils.tempdir(prefix='_dl_', dir=cache_root) as temp_dir:
        temp_path = os.path.join(temp_dir, 'dl')
        urllib.request.urlretrieve(url, temp_path)
        os.replace(temp_path, cache_path)
    return cache_path


def cache_or_load_file(path, creator, loader):
    """Loads a cached file, creating it first when it does not exist.

    The creator writes the file at a temporary path (beside ``path``,
    where no file exists yet) and returns its content; the file is then
    renamed to ``path`` atomically, so concurrent callers never see a
    partial file. When ``path`` exists, the loader reads it instead.

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
        return loader(path)

    directory = os.path.dirname(path) or '.'
    try:
        _make_directory(_dataset_root)
        _make_directory(directory)
    except OSError as e:
        raise RuntimeError('cannot create dataset directory') from e

    with utils.tempdir(prefix='_create_', dir=directory) as temp_dir:
        temp_path = os.path.join(temp_dir, os.path.basename(path))
        content = creator(temp_path)
        if not os.path.exists(path):
            os.replace(temp_path, path)
    return content


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


def _mirrored_url(env_var, default_base_url, file_name):
    """Returns the URL of a dataset file, honouring a mirror override.

    Args:
        env_var (str): The environment variable that may hold a base URL
            (or a local directory) replacing ``default_base_url``.
        default_base_url (str): The dataset's official base URL.
        file_name (str): The file's name under the base URL.

    Returns:
        str: The URL to download.
    """
    return _url_under(os.environ.get(env_var) or default_base_url, file_name)
