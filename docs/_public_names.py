"""The public names that the API reference documents.

``public_names(module_name)`` lists a module's public names: its
``__all__`` where it has one, else every attribute whose name does not
start with an underscore, less submodules, classes and functions that
come from outside this project, and the names in ``IGNORED``.
``all_public_names()`` gathers them over ``MODULES``, with the classes of
``EXTRA_NAMES`` that the reference documents from other modules.
``referenced_names(reference_dir)`` reads the names that the reference
pages list (``autosummary`` tables and ``auto*`` directives, under the
``currentmodule`` in force). ``tests/test_docs.py`` checks that the two
agree and that every public class and function has a docstring.
"""

import importlib
import inspect
import os
import re

#: The modules whose public names the reference documents.
MODULES = (
    'chainer',
    'chainer.functions',
    'chainer.links',
    'chainer.links.caffe',
    'chainer.optimizers',
    'chainer.optimizer_hooks',
    'chainer.initializers',
    'chainer.memory_layouts',
    'chainer.training',
    'chainer.training.extensions',
    'chainer.training.triggers',
    'chainer.training.updaters',
    'chainer.dataset',
    'chainer.datasets',
    'chainer.iterators',
    'chainer.serializers',
    'chainer.function_hooks',
    'chainer.link_hooks',
    'chainer.distributions',
    'chainer.gradient_check',
    'chainer.testing',
    'chainer.utils',
    'chainer.backend',
    'chainer.backends.cuda',
    'chainer.backends.intel64',
    'chainermn',
    'chainermn.communicators',
    'chainermn.datasets',
    'chainermn.extensions',
    'chainermn.functions',
    'chainermn.iterators',
    'chainermn.links',
    'chainermn.optimizers',
    'onnx_chainer',
    'onnx_chainer.replace_func',
    'chainerx_cpp',
)

#: Names the reference documents from modules not in ``MODULES``: classes
#: whose objects the public API hands out (``Variable.node``).
EXTRA_NAMES = ('chainer.variable.VariableNode',)

PROJECT_PACKAGES = ('chainer', 'chainermn', 'onnx_chainer', 'chainerx_cpp')

#: Public-looking attributes that are not this project's API.
IGNORED = {
    # CuPy's own modules and classes, re-exported (None without CuPy),
    # and the configuration object, imported for the module's own use.
    'chainer.backends.cuda': {
        'cupy', 'cupyx', 'cudnn', 'libcudnn', 'config', 'Device', 'Event',
        'Stream', 'ndarray',
    },
    # iDeep's module and array class (None here: no iDeep).
    'chainer.backends.intel64': {'ideep', 'mdarray'},
}


def _is_foreign(obj):
    module = getattr(obj, '__module__', None)
    if not (inspect.isclass(obj) or inspect.isroutine(obj)):
        return False
    return module is None or module.split('.')[0] not in PROJECT_PACKAGES


def public_names(module_name):
    """Returns the sorted public names of the module ``module_name``."""
    module = importlib.import_module(module_name)
    names = getattr(module, '__all__', None)
    if names is None:
        names = [
            name for name, obj in vars(module).items()
            if not name.startswith('_') and not inspect.ismodule(obj)
            and not _is_foreign(obj)]
    ignored = IGNORED.get(module_name, set())
    return sorted(name for name in names if name not in ignored)


def all_public_names():
    """Returns the qualified public names of all of ``MODULES``, and
    ``EXTRA_NAMES``."""
    return sorted(
        ['{}.{}'.format(module, name)
         for module in MODULES for name in public_names(module)]
        + list(EXTRA_NAMES))


def needs_docstring(obj):
    """Tells whether an object must carry a docstring of its own.

    Classes, functions and other callables (a converter object) must; data
    (constants, configuration objects) cannot carry one.
    """
    return inspect.isclass(obj) or callable(obj)


def own_docstring(obj):
    """Returns the docstring written for ``obj`` itself, or None."""
    if inspect.isclass(obj):
        doc = obj.__dict__.get('__doc__')
    else:
        doc = getattr(obj, '__doc__', None)
        if doc is not None and doc == type(obj).__doc__ and \
                not inspect.isroutine(obj):
            doc = None
    if doc is None or not doc.strip():
        return None
    return doc


_DOCUMENTING = {
    prefix + kind
    for prefix in ('auto', 'py:', '')
    for kind in ('function', 'class', 'exception', 'data')
}
_DIRECTIVE = re.compile(r'^(\s*)\.\. (\S+)::\s*(\S*)')


def referenced_names(reference_dir):
    """Returns the qualified names listed by the ``.rst`` files of a folder.

    A name counts when it is an entry of an ``autosummary`` table or the
    argument of an ``autofunction``, ``autoclass``, ``autodata``,
    ``autoexception`` directive or of their ``py:`` counterparts
    (``py:class``, ``py:data``, ...), qualified by the
    ``currentmodule`` (or ``module``) in force.
    """
    found = set()
    for root, _, files in os.walk(reference_dir):
        for filename in sorted(files):
            if filename.endswith('.rst'):
                with open(os.path.join(root, filename)) as f:
                    found.update(_names_in_page(f.read().splitlines()))
    return found


def _names_in_page(lines):
    current = None
    table_indent = None
    for line in lines:
        match = _DIRECTIVE.match(line)
        if table_indent is not None:
            stripped = line.strip()
            indent = len(line) - len(line.lstrip())
            if not stripped or stripped.startswith(':'):
                continue
            if indent > table_indent and not match:
                yield _qualify(current, stripped.lstrip('~'))
                continue
            table_indent = None
        if not match:
            continue
        indent, directive, argument = match.groups()
        if directive in ('currentmodule', 'module', 'py:currentmodule',
                         'py:module'):
            current = argument
        elif directive == 'autosummary':
            table_indent = len(indent)
        elif directive in _DOCUMENTING:
            yield _qualify(current, argument)


def _qualify(current, name):
    if current is None or name.split('.')[0] in PROJECT_PACKAGES:
        return name
    return '{}.{}'.format(current, name)
