"""Sphinx configuration of the Chainer documentation."""

import logging
import os
import sys

sys.path.insert(0, os.path.abspath('..'))

import chainer  # NOQA: E402

project = 'Chainer'
copyright = 'Preferred Networks, Inc. and Preferred Infrastructure, Inc.'
author = 'Chainer developers'
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
autodoc_default_options = {
    'member-order': 'groupwise',
}
autodoc_typehints = 'none'
autodoc_inherit_docstrings = False
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


def setup(app):
    logging.getLogger('sphinx.sphinx.directives.other').addFilter(
        _not_an_empty_glob)
