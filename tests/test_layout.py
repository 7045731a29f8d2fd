"""The tests mirror the package: one test file per module.

The tests of ``chainer/a/b/c.py`` live in
``tests/chainer_tests/a_tests/b_tests/test_c.py``; a private module
``_c.py`` is tested by ``test_c.py`` too, and a package whose
``__init__.py`` defines functions or classes of its own (not only imports)
by ``test_<package>.py`` in its folder (``utils_tests/test_utils.py``). The
few files that test the package as a whole are listed in
``WHOLE_PACKAGE_TESTS``, each with its reason.
"""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / 'chainer'
TESTS = ROOT / 'tests' / 'chainer_tests'

# Test files that check behaviour across modules, by design.
WHOLE_PACKAGE_TESTS = {
    # Every module and public name of Chainer 7.8.1 imports.
    'test_public_names.py',
    # No module imports a module of a higher layer.
    'test_layering.py',
    # A tabular dataset through the iterators, the converter and a Trainer.
    'dataset_tests/tabular_tests/test_pipeline.py',
    # A variational autoencoder of distributions and links trains on MNIST.
    'distributions_tests/test_vae_training.py',
    # Whole training runs, with snapshots, against Chainer 7.8.1's logs.
    'training_tests/test_training_run.py',
    # ``import chainer`` loads the submodules Chainer 7.8.1 loads.
    'test_init.py',
}

# Test files still to be split by module (remove an entry once it is).
NOT_YET_SPLIT = set()


def _defines_something(path):
    tree = ast.parse(path.read_text(encoding='utf-8'))
    return any(isinstance(node, (ast.FunctionDef, ast.ClassDef))
               for node in tree.body)


def _tested_module(test_file):
    """The module file that ``test_file`` mirrors, or None."""
    rel = test_file.relative_to(TESTS)
    folders = rel.parts[:-1]
    if not all(folder.endswith('_tests') for folder in folders):
        return None
    package = PACKAGE.joinpath(*(f[:-len('_tests')] for f in folders))
    name = rel.name[len('test_'):-len('.py')]
    candidates = [package / (name + '.py'), package / ('_' + name + '.py')]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    init = package / '__init__.py'
    if package != PACKAGE and name == package.name and init.is_file() \
            and _defines_something(init):
        return init
    return None


def _test_files():
    return sorted(TESTS.rglob('test_*.py'))


def test_every_test_file_mirrors_a_module():
    unmatched = [
        str(path.relative_to(TESTS)) for path in _test_files()
        if _tested_module(path) is None
        and path.relative_to(TESTS).as_posix()
        not in WHOLE_PACKAGE_TESTS | NOT_YET_SPLIT]
    assert unmatched == [], (
        'test files that mirror no module of chainer/ (name them after the '
        'module they test): {}'.format(unmatched))


def test_listed_exceptions_exist():
    present = {path.relative_to(TESTS).as_posix() for path in _test_files()}
    assert sorted((WHOLE_PACKAGE_TESTS | NOT_YET_SPLIT) - present) == []


def test_mirroring_rule():
    assert _tested_module(
        TESTS / 'optimizers_tests' / 'test_adam.py') == \
        PACKAGE / 'optimizers' / 'adam.py'
    assert _tested_module(
        TESTS / 'test_backprop.py') == PACKAGE / '_backprop.py'
    assert _tested_module(
        TESTS / 'utils_tests' / 'test_utils.py') == \
        PACKAGE / 'utils' / '__init__.py'
    assert _tested_module(TESTS / 'test_chainer.py') is None
    assert _tested_module(TESTS / 'fixtures' / 'test_sgd.py') is None
    assert _tested_module(
        TESTS / 'optimizers_tests' / 'test_optimizers.py') is None
