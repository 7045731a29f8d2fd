import importlib.util
import pathlib

import pytest


def load_http_server():
    """The module of the local test HTTP server (``http_server.py``)."""
    path = pathlib.Path(__file__).with_name('http_server.py')
    spec = importlib.util.spec_from_file_location('_http_server', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def http_server():
    """``(base_url, files)`` of a local HTTP server on 127.0.0.1."""
    with load_http_server().running() as server:
        yield server
