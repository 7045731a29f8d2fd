"""Sphinx configuration of the Chainer documentation."""

import logging
import os
import sys

from sphinx import addnodes

_DOCS = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_DOCS)
sys.path.insert(0, _ROOT)
sys.path.insert(0, _DOCS)

import chainer  # NOQA: E402
import _public_names  # NOQA: E402


def _license_copyright():
    # The year and holder of the copyright line of LICENSE
    # ("Copyright (c) <year> <holder>"); the theme's footer shows them
    # after a copyright sign and ends them with a period.
    prefix = 'Copyright (c) '
    with open(os.path.join(_ROOT, 'LICENSE')) as f:
        for line in f:
            if line.startswith(prefix):
                return line[len(prefix):].strip().rstrip('.')
    raise RuntimeError('LICENSE has no line starting with ' + prefix)


project = 'Chainer'
copyright = _license_copyright()
author = copyright.split(' ', 1)[1]
version = '.'.join(chainer.__version__.split('.')[:2])
release = chainer.__version__

extensions = [
    'sphinx.ext.autodoc',
    'sphinx.ext.autosummary',
    'sphinx.ext.doctest',
    'sphinx.ext.napoleon',
]

templates_path = ['_templates']
exclude_patterns = ['_build', 'reference/generated/*.rst~']
root_doc = 'index'
language = 'en'

# The API reference: one page per public name, written at build time
# under reference/generated/ from the autosummary tables.
autosummary_generate = True
autosummary_generate_overwrite = True
autosummary_imported_members = False
# A class page shows the members the class inherits from this project's
# classes too (``Chain`` shows ``Link.params``, ``to_device``, ...), and a
# member overridden without a docstring shows the one it overrides; the
# members of Python's and other packages' classes (``Exception``,
# ``unittest.TestCase``, ``collections.abc``) are left out, see
# ``_skip_foreign_member``.
autodoc_default_options = {
    'member-order': 'groupwise',
    'inherited-members': True,
}
autodoc_typehints = 'none'
autodoc_inherit_docstrings = True
autodoc_mock_imports = []

napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_include_init_with_doc = False
napoleon_use_ivar = True
napoleon_use_rtype = False

# The examples of the docstrings and pages run under the doctest builder
# with these names defined.
doctest_global_setup = '''
import numpy
import numpy as np
import chainer
import chainer.functions as F
import chainer.links as L
from chainer import Chain, ChainList, Function, FunctionNode, Link
from chainer import Variable, datasets, gradient_check, iterators
from chainer import optimizers, serializers, training, utils
from chainer.backends import cuda
from chainer.training import extensions
np.random.seed(0)
chainer.disable_experimental_feature_warning = True
'''
doctest_default_flags = (
    __import__('doctest').ELLIPSIS
    | __import__('doctest').NORMALIZE_WHITESPACE
    | __import__('doctest').DONT_ACCEPT_TRUE_FOR_1)

html_theme = 'alabaster'
html_title = 'Chainer {} documentation'.format(release)
html_static_path = []
html_show_sourcelink = False

# The toctrees of index.rst name pages by glob patterns that may match
# nothing while a page is still to be written. Sphinx logs that warning
# with a subtype but no type, which suppress_warnings cannot name, so a
# filter on the logger of the toctree directive drops it.
suppress_warnings = ['toc.empty_glob']


def _not_an_empty_glob(record):
    return getattr(record, 'subtype', None) != 'empty_glob'


def _defining_module(member):
    # The module that defines a class member: that of the function behind
    # a property or a class or static method, or of the class that owns a
    # descriptor of a built-in type; None for plain data.
    member = getattr(member, 'fget', None) or getattr(
        member, '__func__', None) or member
    owner = getattr(member, '__objclass__', None)
    module = getattr(member if owner is None else owner, '__module__', None)
    return module if isinstance(module, str) else None


def _skip_foreign_member(app, what, name, obj, skip, options):
    # Leaves out of a class page the members that come from a class outside
    # this project (the members of Exception, unittest.TestCase, the
    # collections.abc mixins): their docstrings are not ours to keep
    # valid reStructuredText, and the base classes are linked instead.
    if what not in ('class', 'exception'):
        return None
    module = _defining_module(obj)
    if module is not None and \
            module.split('.')[0] not in _public_names.PROJECT_PACKAGES:
        return True
    return None


def _link_array_types_to_ndarray(app, doctree):
    # "array" as the type of an argument ("x (array): ...") means a NumPy or
    # CuPy array, which the reference describes under the label ndarray.
    # Left to the Python domain, the word would match every attribute named
    # ``array`` (Variable.array, and the Parameter.array that the page of
    # the subclass repeats), which is never what the type means.
    for node in doctree.findall(addnodes.pending_xref):
        if (node.get('refdomain'), node.get('reftype'),
                node.get('reftarget')) == ('py', 'class', 'array'):
            node['refdomain'] = 'std'
            node['reftype'] = 'ref'
            node['reftarget'] = 'ndarray'
            node['refexplicit'] = True


def setup(app):
    logging.getLogger('sphinx.sphinx.directives.other').addFilter(
        _not_an_empty_glob)
    app.connect('autodoc-skip-member', _skip_foreign_member)
    app.connect('doctree-read', _link_array_types_to_ndarray)
