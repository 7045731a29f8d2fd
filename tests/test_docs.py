"""The API reference covers every public name, and each has a docstring.

``docs/_public_names.py`` lists the public names of the modules that the
reference documents; the pages under ``docs/reference/`` must list each of
them, and each public class and function must carry a docstring of its
own. A class page shows the members with a docstring only, those it
inherits included, so every public property needs one, of its own or of
the member it overrides. A small build of a few class pages with the
project's configuration (where Sphinx is installed) checks what the pages
show; building the whole site (``sphinx-build``) is left to ``.ci/run``.
"""

import ast
import functools
import importlib
import importlib.util
import inspect
import io
import os
import re
import shutil
import warnings

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, 'docs')


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


# Class pages: the members they show --------------------------------------


def _conf_values():
    """The literal assignments of ``docs/conf.py``, read without running
    it (it needs Sphinx)."""
    with open(os.path.join(DOCS, 'conf.py')) as f:
        tree = ast.parse(f.read())
    values = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name):
            try:
                values[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    return values


def _inherits_docstrings():
    # Sphinx's default is True.
    return _conf_values().get('autodoc_inherit_docstrings', True)


def _is_property(attr, project_packages):
    # A property, or a descriptor of this project that computes a value on
    # each read (chainer.utils.cache.cached_property): autodoc shows it only
    # with a docstring.
    if isinstance(attr, (property, functools.cached_property)):
        return True
    return inspect.isdatadescriptor(attr) and not \
        inspect.ismemberdescriptor(attr) and \
        type(attr).__module__.split('.')[0] in project_packages


def _docstring_shown(cls, name, inherit):
    """The docstring autodoc shows for the member ``name`` of ``cls``: the
    member's own or, with ``inherit``, the first one up the MRO."""
    for klass in cls.__mro__:
        attr = klass.__dict__.get(name)
        if attr is None:
            continue
        doc = getattr(attr, '__doc__', None)
        if doc == type(attr).__doc__:
            doc = None
        if doc and doc.strip():
            return doc
        if not inherit:
            return None
    return None


def _attributes_section(cls):
    doc = cls.__dict__.get('__doc__') or ''
    match = re.search(r'^\s*Attributes:\n((?:\s*\n|\s{8}.*\n?)*)', doc,
                      re.M)
    return match.group(1) if match else ''


def _hidden_members(cls, project_packages, inherit):
    """Public properties and slots of ``cls`` (its own and those it
    inherits from this project's classes) that its page would not show."""
    hidden = []
    for name in dir(cls):
        if name.startswith('_'):
            continue
        owner = next(
            (k for k in cls.__mro__ if name in k.__dict__), None)
        if owner is None or \
                owner.__module__.split('.')[0] not in project_packages:
            continue
        attr = owner.__dict__[name]
        if inspect.ismemberdescriptor(attr):
            # A slot: an instance attribute, documented in the Attributes
            # section of its class's docstring (or by a dict __slots__).
            slots = owner.__dict__.get('__slots__')
            if not (isinstance(slots, dict) and slots.get(name)) and \
                    not re.search(r'^\s+{}\b'.format(re.escape(name)),
                                  _attributes_section(owner), re.M):
                hidden.append('{}.{}'.format(owner.__qualname__, name))
        elif _is_property(attr, project_packages) and \
                _docstring_shown(cls, name, inherit) is None:
            hidden.append('{}.{}'.format(owner.__qualname__, name))
    return hidden


def test_public_properties_have_docstrings(names, public):
    inherit = _inherits_docstrings()
    hidden = set()
    for path in public:
        obj = _resolve(path)
        if inspect.isclass(obj):
            hidden.update(_hidden_members(
                obj, names.PROJECT_PACKAGES, inherit))
    assert sorted(hidden) == []


def test_hidden_members_finds_undocumented_properties(names):
    class Base:
        """Base."""

        @property
        def documented(self):
            """A docstring."""

        @property
        def bare(self):
            pass

    class Derived(Base):
        """Derived.

        Attributes:
            listed: A slot described here.
        """

        __slots__ = ('listed', 'unlisted')

        @property
        def documented(self):
            pass

    def hidden(inherit):
        return sorted(
            '.'.join(path.split('.')[-2:]) for path in _hidden_members(
                Derived, names.PROJECT_PACKAGES, inherit))

    Base.__module__ = Derived.__module__ = 'chainer.fake'
    assert hidden(True) == ['Base.bare', 'Derived.unlisted']
    assert hidden(False) == [
        'Base.bare', 'Derived.documented', 'Derived.unlisted']


def _class_template_options():
    with open(os.path.join(DOCS, '_templates', 'autosummary',
                           'class.rst')) as f:
        return re.findall(r'^\s+:([\w-]+):', f.read(), re.M)


def test_class_pages_are_configured_to_show_inherited_members():
    # The configuration the build below exercises, for where Sphinx is not
    # installed: inherited members on (conf.py or the class template), and
    # docstrings inherited, so that an override without one (Chain.params)
    # still shows.
    options = _conf_values().get('autodoc_default_options', {})
    template = _class_template_options()
    assert 'members' in template
    assert 'no-inherited-members' not in template
    assert options.get('inherited-members') or \
        'inherited-members' in template
    assert _inherits_docstrings()


def _license_holder():
    with open(os.path.join(ROOT, 'LICENSE')) as f:
        for line in f:
            if line.startswith('Copyright (c) '):
                return line[len('Copyright (c) '):].strip()
    raise AssertionError('LICENSE has no copyright line')


def _ids(page):
    return set(re.findall(
        r'<dt class="sig sig-object py" id="([^"]+)"', page))


@pytest.fixture(scope='module')
def class_pages(tmp_path_factory):
    """HTML of the pages of a few classes, built with docs/conf.py and the
    class template as the site is, and the warnings of that build."""
    application = pytest.importorskip(
        'sphinx.application', reason='the build needs Sphinx (the docs '
        'extra)')
    classes = ('chainer.Chain', 'chainer.ChainList', 'chainer.Variable',
               'chainer.Parameter', 'chainer.gradient_check.'
               'NondifferentiableError')
    src = tmp_path_factory.mktemp('docs')
    out = os.path.join(str(src), '_build')
    shutil.copytree(os.path.join(DOCS, '_templates'),
                    os.path.join(str(src), '_templates'))
    # The label stands for the page of the full site that the docstrings
    # refer to.
    with open(os.path.join(str(src), 'index.rst'), 'w') as f:
        f.write('.. _ndarray:\n\nClasses\n=======\n\n'
                '.. autosummary::\n   :toctree: generated/\n\n')
        f.writelines('   {}\n'.format(name) for name in classes)
    warning = io.StringIO()
    app = application.Sphinx(
        str(src), DOCS, out, os.path.join(out, '.doctrees'), 'html',
        status=None, warning=warning, freshenv=True)
    app.build()
    pages = {}
    for name in classes:
        with open(os.path.join(out, 'generated', name + '.html')) as f:
            pages[name] = f.read()
    return pages, warning.getvalue()


def test_class_pages_build_without_warnings(class_pages):
    _, warning = class_pages
    assert warning == ''


def test_variable_page_shows_properties(class_pages):
    pages, _ = class_pages
    shown = _ids(pages['chainer.Variable'])
    for name in ('shape', 'dtype', 'ndim', 'size', 'name', 'rank', 'array',
                 'data', 'grad', 'grad_var', 'label', 'creator',
                 'creator_node', 'node', 'requires_grad', 'T', 'xp',
                 'device'):
        assert 'chainer.Variable.' + name in shown
    shown = _ids(pages['chainer.Parameter'])
    for name in ('shape', 'dtype', 'device', 'rank', 'is_initialized',
                 'initialize', 'backward'):
        assert 'chainer.Parameter.' + name in shown


def test_chain_page_shows_inherited_members(class_pages):
    pages, _ = class_pages
    shown = _ids(pages['chainer.Chain'])
    for name in ('add_link', 'params', 'namedparams', 'children', 'links',
                 'to_device', 'to_cpu', 'cleargrads', 'serialize',
                 'add_hook', 'init_scope', 'xp', 'device', '__call__'):
        assert 'chainer.Chain.' + name in shown


def test_class_pages_leave_out_members_of_foreign_bases(class_pages):
    pages, _ = class_pages
    # collections.abc.MutableSequence and Exception.
    shown = _ids(pages['chainer.ChainList'])
    assert 'chainer.ChainList.params' in shown
    assert not {'chainer.ChainList.' + name
                for name in ('count', 'index', 'pop', 'extend')} & shown
    shown = _ids(pages['chainer.gradient_check.NondifferentiableError'])
    assert shown == {'chainer.gradient_check.NondifferentiableError'}


def test_footer_carries_the_license_copyright(class_pages):
    pages, _ = class_pages
    footer = '&#169;{}.'.format(_license_holder().rstrip('.'))
    assert footer in pages['chainer.Chain']
    assert '..' not in footer
