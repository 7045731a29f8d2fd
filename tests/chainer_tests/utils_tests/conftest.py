"""Shared helpers of the utils tests."""

import warnings

import pytest


class _NoWarning:
    """Fails if a warning is raised inside the block."""

    def __enter__(self):
        self._catch = warnings.catch_warnings(record=True)
        self._records = self._catch.__enter__()
        warnings.simplefilter('always')

    def __exit__(self, *args):
        self._catch.__exit__(*args)
        assert not self._records


@pytest.fixture
def no_warning():
    """A context manager that fails if a warning is raised inside it."""
    return _NoWarning
