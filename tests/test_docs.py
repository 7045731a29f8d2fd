"""The API reference covers every public name, and each has a docstring.

``docs/_public_names.py`` lists the public names of the modules that the
reference documents; the pages under ``docs/reference/`` must list each of
them, and each public class and function must carry a docstring of its
own. Building the site (``sphinx-build``) is left to ``.ci/run``.
"""

import importlib
import importlib.util
import os
import warnings

import pytest

DOCS = os.path.join(os.path.dirname(os.path.dirname(__file__)), 'docs')


@pytest.fixture(scope='module')
def names():
    spec = importlib.util.spec_from_file_location(
        '_public_names', os.path.join(DOCS, '_public_names.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope='module')
def public(names):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return names.all_public_names()


def _resolve(path):
    module, _, name = path.rpartition('.')
    return getattr(importlib.import_module(module), name)


def test_every_module_has_public_names(names):
    for module in names.MODULES:
        assert names.public_names(module), module


def test_public_names_have_docstrings(names, public):
    missing = [
        path for path in public
        if names.needs_docstring(_resolve(path))
        and names.own_docstring(_resolve(path)) is None]
    assert missing == []


def test_public_names_are_in_the_reference(names, public):
    listed = names.referenced_names(os.path.join(DOCS, 'reference'))
    assert sorted(set(public) - listed) == []


def test_the_reference_lists_only_public_names(names, public):
    listed = names.referenced_names(os.path.join(DOCS, 'reference'))
    assert sorted(listed - set(public)) == []


def test_referenced_names_follow_the_current_module(names):
    page = [
        '.. module:: chainer.links',
        '',
        '.. autosummary::',
        '   :toctree: generated/',
        '',
        '   Linear',
        '   ~chainer.functions.relu',
        '',
        'Text.',
        '',
        '.. currentmodule:: chainer',
        '',
        '.. py:data:: config',
        '.. autofunction:: grad',
    ]
    assert set(names._names_in_page(page)) == {
        'chainer.links.Linear', 'chainer.functions.relu', 'chainer.config',
        'chainer.grad'}


def test_own_docstring_ignores_inherited_ones(names):
    class Base:
        """Documented."""

    class Derived(Base):
        pass

    assert names.own_docstring(Base) == 'Documented.'
    assert names.own_docstring(Derived) is None
