"""Import-time layering of the ``chainer`` package.

The layers are those of docs/architecture.rst ("Layers"), with each module
placed as docs/layers.rst explains; ``LAYERS`` below is the table. A
module may import, at import time, modules of its own layer or below,
never one above: a higher layer reaches a lower one at call time through
``chainer.<name>``, or installs itself into it.

A fresh interpreter (this file run as a script) makes the ``chainer``
package without running ``chainer/__init__.py`` (which imports everything)
and imports every module layer by layer, from the bottom. It records each
import statement a module runs (an import hook: importer, imported module
and the packages above it) and the modules each import loads; the tests
check both against the table.
"""

import builtins
import importlib
import importlib.util
import json
import os
import subprocess
import sys
import traceback

import pytest

# From the bottom up. A module belongs to the layer of the longest prefix
# that names it or a package above it.
LAYERS = (
    ('configuration, pure utils, types', (
        'chainer.configuration', 'chainer._core_fields',
        'chainer._constant_operands', 'chainer.types',
        'chainer.warnings',
        'chainer._version', 'chainer._environment_check',
        'chainer.utils.argument', 'chainer.utils.type_check')),
    ('backend, backends/, array utils', (
        'chainer.backend', 'chainer._backend', 'chainer.backends',
        'chainer.cuda', 'chainer._kernels', 'chainer._runtime_info',
        'chainer.device_resident', 'chainer.utils')),
    ('initializers/', (
        'chainer.initializer', 'chainer.initializers')),
    ('variable, function_node, _backprop', (
        'chainer.variable', 'chainer.function_node', 'chainer._backprop',
        'chainer._backprop_mode', 'chainer._backprop_utils',
        'chainer._compiled_core', 'chainer.function',
        'chainer.function_hook')),
    ('functions/', (
        'chainer.functions', 'chainer.function_hooks',
        'chainer.distribution', 'chainer.distributions',
        'chainer.computational_graph', 'chainer.memory_layouts',
        'chainer.graph_optimizations')),
    ('link', (
        'chainer.link', 'chainer.link_hook', 'chainer.sequential',
        'chainer.serializer', 'chainer.reporter')),
    ('links/', (
        'chainer.links', 'chainer.link_hooks')),
    ('optimizer, optimizers/', (
        'chainer.optimizer', 'chainer.optimizer_hooks',
        'chainer.optimizers')),
    ('dataset/, iterators/, serializers/', (
        'chainer.dataset', 'chainer.datasets', 'chainer.iterators',
        'chainer.serializers')),
    ('training/', (
        'chainer.training',)),
    ('tools for users', (
        'chainer.gradient_check', 'chainer.testing', 'chainer.exporters')),
)

# Packages above the whole of chainer: chainer never imports them.
_ABOVE_CHAINER = ('chainermn', 'onnx_chainer')


def layer_of(module):
    """Returns the index in ``LAYERS`` of a module, or ``None``."""
    best = None
    best_length = -1
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + '.')) \
                    and len(prefix) > best_length:
                best, best_length = index, len(prefix)
    if best is None and module.split('.')[0] in _ABOVE_CHAINER:
        return len(LAYERS)
    return best


def _layer_name(index):
    return LAYERS[index][0] if index < len(LAYERS) else 'above chainer'


def _list_modules(root):
    # Every module of the package in ``root``, found on disk (importing
    # packages to walk them would run them out of order).
    modules = []
    for path, dirs, files in os.walk(root):
        dirs[:] = sorted(
            d for d in dirs
            if os.path.exists(os.path.join(path, d, '__init__.py')))
        rel = os.path.relpath(path, os.path.dirname(root))
        package = rel.replace(os.sep, '.')
        if package != 'chainer':
            modules.append(package)
        for name in sorted(files):
            if name.endswith('.py') and name != '__init__.py':
                modules.append(package + '.' + name[:-3])
    return modules


def _import_order_key(module):
    # A module is imported with its packages: not before the layer of any
    # of them (``chainer.utils.argument`` comes with ``chainer.utils``).
    parts = module.split('.')
    layers = [layer_of('.'.join(parts[:i])) for i in range(2, len(parts) + 1)]
    return max([-1 if layer is None else layer for layer in layers]), module


def _watched(name):
    return name.split('.')[0] in ('chainer',) + _ABOVE_CHAINER \
        and name != 'chainer'


def _with_packages(name):
    parts = name.split('.')
    return ['.'.join(parts[:i]) for i in range(2, len(parts) + 1)]


def _collect():
    """Imports the modules bottom up; returns what the tests check."""
    spec = importlib.util.find_spec('chainer')
    sys.modules['chainer'] = importlib.util.module_from_spec(spec)
    root = spec.submodule_search_locations[0]

    edges = set()
    real_import = builtins.__import__

    def recording_import(name, globals=None, locals=None, fromlist=(),
                         level=0):
        importer = (globals or {}).get('__name__') or ''
        if not importer.startswith('chainer.'):
            return real_import(name, globals, locals, fromlist, level)
        target = name
        if level:
            target = importlib.util.resolve_name(
                '.' * level + name, globals.get('__package__'))
        try:
            return real_import(name, globals, locals, fromlist, level)
        finally:
            targets = _with_packages(target)
            for item in fromlist or ():
                if target + '.' + item in sys.modules:
                    targets.append(target + '.' + item)
            edges.update(
                (importer, t) for t in targets
                if _watched(t) and t != importer)

    modules = sorted(_list_modules(root), key=_import_order_key)
    loads = []
    failures = {}
    skipped = {}
    builtins.__import__ = recording_import
    try:
        for module in modules:
            if layer_of(module) is None:
                continue
            before = set(sys.modules)
            try:
                importlib.import_module(module)
            except ModuleNotFoundError as e:
                if e.name and not _watched(e.name):
                    skipped[module] = str(e)  # an optional dependency
                else:
                    failures[module] = traceback.format_exc()
            except Exception:
                failures[module] = traceback.format_exc()
            loads.extend(
                (module, new) for new in sorted(set(sys.modules) - before)
                if _watched(new))
    finally:
        builtins.__import__ = real_import
    return {
        'modules': modules, 'edges': sorted(edges), 'loads': loads,
        'failures': failures, 'skipped': skipped}


@pytest.fixture(scope='module')
def imports(tmp_path_factory):
    out = str(tmp_path_factory.mktemp('layering') / 'imports.json')
    spec = importlib.util.find_spec('chainer')
    repo = os.path.dirname(spec.submodule_search_locations[0])
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join(
        [repo] + [p for p in [env.get('PYTHONPATH')] if p])
    result = subprocess.run(
        [sys.executable, os.path.abspath(__file__), out], cwd=repo,
        env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    with open(out) as f:
        return json.load(f)


def _upward(pairs):
    return [
        '{} ({}) -> {} ({})'.format(
            a, _layer_name(layer_of(a)), b, _layer_name(layer_of(b)))
        for a, b in pairs
        if layer_of(a) is not None and layer_of(b) is not None
        and layer_of(b) > layer_of(a)]


def test_every_module_has_a_layer(imports):
    assert len(imports['modules']) > 400
    unplaced = [m for m in imports['modules'] if layer_of(m) is None]
    assert not unplaced, 'add them to LAYERS: {}'.format(unplaced)


def test_every_module_imports_bottom_up(imports):
    # Each module imports on its own, once the layers below it are there.
    assert not imports['failures'], '\n'.join(imports['failures'].values())


def test_no_module_imports_a_higher_layer(imports):
    upward = _upward(imports['edges'])
    assert not upward, 'imports of a higher layer:\n' + '\n'.join(upward)


def test_no_import_loads_a_higher_layer(imports):
    # Catches what the hook does not see (importlib calls, for instance).
    upward = _upward(imports['loads'])
    assert not upward, 'modules loaded by a lower layer:\n' + '\n'.join(
        upward)


def test_the_check_sees_the_core():
    # The table is what it checks: the core sits where the architecture
    # document puts it.
    assert layer_of('chainer.configuration') < layer_of('chainer.backend') \
        < layer_of('chainer.initializers.normal') \
        < layer_of('chainer.variable') \
        < layer_of('chainer.functions.array.concat') \
        < layer_of('chainer.link') < layer_of('chainer.links.model') \
        < layer_of('chainer.optimizers.adam') \
        < layer_of('chainer.serializers.npz') \
        < layer_of('chainer.training.trainer') < layer_of('chainermn')
    assert layer_of('chainer.utils.argument') < layer_of('chainer.utils')


if __name__ == '__main__':
    with open(sys.argv[1], 'w') as f:
        json.dump(_collect(), f)
