"""Compares the public API of two Chainers: names, kinds and signatures.

The same modules are imported by two Pythons — one whose ``chainer`` is
the original Chainer 7.8.1, one whose ``chainer`` is this project — each
from an empty folder, so that a checkout in the current folder does not
shadow the installed package. Each Python writes what it sees (the script
run with ``--dump``) and the two are compared::

    python tools/compare_api.py --original ORIGINAL_ENV/bin/python \\
        [--project PYTHON] [--modules chainer.links chainer.optimizers] \\
        [--all] [--strict]

For every module it lists the public names (no leading underscore; other
modules and objects that do not come from the compared packages, such as
``numpy`` imported by a module, are left out), with their kind (class,
function, module, constant) and, for callables, their parameters: names,
kinds (positional, keyword-only, ``*args``, ``**kwargs``) and defaults
(annotations are ignored). For a class it also lists its members,
inherited ones included: the public ones and the special methods a class
of the compared packages defines (``__call__``, ``__getitem__``, ...),
with the kind of each as the class stores it (method, classmethod,
staticmethod, property, slot, attribute).

The report has one line per difference::

    missing   chainer.links.Linear.foo (method)
    extra     chainer.links.Linear.bar (method)
    kind      chainer.links.NStepLSTM.n_cells: attribute here, property there
    signature chainer.links.Linear.__init__: ...

``missing`` is a name of the original that this project lacks, ``extra``
the reverse; a member is named where its class defines it. A difference
listed in the file given by ``--accepted`` (default:
``tools/api_differences.txt`` beside this script; one difference per line
as the report writes it, then ``  #`` and the reason) is reported under
"accepted" with its reason. The exit status is 1 when a difference other
than an extra name (with ``--strict``, any) is not accepted, so the script
can gate a check.

``--all`` compares every submodule the original imports too (the function
node classes of ``chainer.functions.*``, say), where most differences are
internal: parameter names of ``forward`` and ``backward``, which the
framework passes by position, and incidental imports.
"""

import argparse
import importlib
import inspect
import json
import os
import re
import subprocess
import sys
import tempfile
import types
import warnings

# The modules compared by default: the public packages and the modules
# whose classes users reach by their full path.
DEFAULT_MODULES = (
    'chainer', 'chainer.backend', 'chainer.backends',
    'chainer.backends.cuda', 'chainer.backends.intel64',
    'chainer.computational_graph', 'chainer.configuration',
    'chainer.dataset', 'chainer.dataset.convert', 'chainer.dataset.iterator',
    'chainer.dataset.tabular', 'chainer.datasets', 'chainer.distributions',
    'chainer.function', 'chainer.function_hook', 'chainer.function_hooks',
    'chainer.function_node', 'chainer.functions', 'chainer.gradient_check',
    'chainer.initializer', 'chainer.initializers', 'chainer.iterators',
    'chainer.link', 'chainer.link_hook', 'chainer.link_hooks',
    'chainer.links', 'chainer.memory_layouts', 'chainer.optimizer',
    'chainer.optimizer_hooks', 'chainer.optimizers', 'chainer.reporter',
    'chainer.sequential', 'chainer.serializer', 'chainer.serializers',
    'chainer.testing', 'chainer.training', 'chainer.training.extensions',
    'chainer.training.triggers', 'chainer.training.updaters',
    'chainer.utils', 'chainer.utils.type_check', 'chainer.variable',
)

# The packages whose objects count as part of the compared API.
_PACKAGES = ('chainer', 'chainerx', 'chainermn', 'onnx_chainer')
_ADDRESS = re.compile(r' at 0x[0-9a-fA-F]+')
_PARAMETER_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: '/',
    inspect.Parameter.POSITIONAL_OR_KEYWORD: '',
    inspect.Parameter.VAR_POSITIONAL: '*',
    inspect.Parameter.KEYWORD_ONLY: 'kw:',
    inspect.Parameter.VAR_KEYWORD: '**',
}


# Dump: what one Python sees --------------------------------------------

def _ours(obj):
    """Whether ``obj`` comes from one of the compared packages."""
    module = getattr(obj, '__module__', None)
    if isinstance(obj, types.ModuleType):
        module = obj.__name__
    if not isinstance(module, str):
        return False
    return module.split('.')[0] in _PACKAGES


def _signature(obj):
    """The parameters of a callable as a list of ``kind + name [= default]``
    texts, or ``None`` where Python cannot tell them."""
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    params = []
    for param in signature.parameters.values():
        text = _PARAMETER_KINDS[param.kind] + param.name
        if param.default is not inspect.Parameter.empty:
            text += '=' + _ADDRESS.sub('', repr(param.default))
        params.append(text)
    return params


def _kind_of(obj):
    if isinstance(obj, types.ModuleType):
        return 'module'
    if inspect.isclass(obj):
        return 'class'
    if callable(obj):
        return 'function'
    return 'constant'


def _static_member(cls, name):
    """The member ``name`` as stored in the class or a base, and that class.
    """
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name], klass
    return None, None


def _member_kind(raw):
    if isinstance(raw, property):
        return 'property'
    if isinstance(raw, classmethod):
        return 'classmethod'
    if isinstance(raw, staticmethod):
        return 'staticmethod'
    if isinstance(raw, types.MemberDescriptorType):
        return 'slot'
    if inspect.isfunction(raw) or inspect.ismethoddescriptor(raw) or (
            inspect.isbuiltin(raw)):
        return 'method'
    if inspect.isdatadescriptor(raw):
        return 'property'
    if inspect.isclass(raw):
        return 'class'
    return 'attribute'


def _qualname(obj):
    # A callable object (a converter, say) is named by its class.
    qualname = getattr(obj, '__qualname__', None)
    if qualname is None:
        qualname = type(obj).__qualname__
    return '{}.{}'.format(obj.__module__, qualname)


def _class_members(cls):
    members = {}
    for name in dir(cls):
        raw, owner = _static_member(cls, name)
        if owner is None:
            continue
        special = name.startswith('__') and name.endswith('__')
        if name.startswith('_') and not (special and _ours(owner)):
            continue
        if special and name in ('__dict__', '__weakref__', '__module__',
                                '__doc__', '__slots__', '__annotations__',
                                '__init_subclass__'):
            continue
        kind = _member_kind(raw)
        entry = {'kind': kind, 'owner': _qualname(owner)}
        if kind in ('method', 'classmethod', 'staticmethod'):
            entry['signature'] = _signature(getattr(cls, name))
        members[name] = entry
    return members


def submodules(package_names):
    """The names of the packages and of all their submodules that import
    (test modules aside)."""
    import pkgutil
    warnings.simplefilter('ignore')
    names = []
    for package_name in package_names:
        try:
            package = importlib.import_module(package_name)
        except Exception:
            continue
        names.append(package_name)
        for info in pkgutil.walk_packages(
                getattr(package, '__path__', []), package_name + '.',
                onerror=lambda name: None):
            if '.testing.' in info.name and 'test_' in info.name:
                continue
            try:
                importlib.import_module(info.name)
            except Exception:
                continue
            names.append(info.name)
    return names


def dump(module_names):
    """Returns ``{module: {name: entry}}`` for the modules that import."""
    warnings.simplefilter('ignore')
    result = {}
    for module_name in module_names:
        try:
            module = importlib.import_module(module_name)
        except Exception as e:  # reported, not fatal
            result[module_name] = {'__error__': '{}: {}'.format(
                type(e).__name__, e)}
            continue
        names = {}
        for name in dir(module):
            if name.startswith('_'):
                continue
            obj = getattr(module, name)
            kind = _kind_of(obj)
            if kind in ('module', 'class', 'function') and not _ours(obj):
                continue
            if kind == 'module' and not obj.__name__.startswith(
                    module_name + '.'):
                continue
            entry = {'kind': kind}
            if kind in ('class', 'function'):
                entry['signature'] = _signature(obj)
                entry['qualname'] = _qualname(obj)
            if kind == 'class':
                entry['members'] = _class_members(obj)
            names[name] = entry
        result[module_name] = names
    return result


# Compare ---------------------------------------------------------------

def _describe_signature(params):
    return '(' + ', '.join(params) + ')' if params is not None else '?'


def _member_path(name, *entries):
    # A member is reported once, at the class that defines it (in the
    # original, where it has it).
    for entry in entries:
        if entry is not None:
            return entry['owner'] + '.' + name


def _compare_entries(path, original, project, report):
    # ``path`` names the object where it is defined (a class or function
    # reached by several names is compared once).
    if original['kind'] != project['kind']:
        report.add('kind      {}: {} here, {} there'.format(
            path, project['kind'], original['kind']))
        return
    sig_o = original.get('signature')
    sig_p = project.get('signature')
    if sig_o is not None and sig_p is not None and sig_o != sig_p:
        report.add('signature {}: {} here, {} there'.format(
            path, _describe_signature(sig_p), _describe_signature(sig_o)))
    members_o = original.get('members')
    members_p = project.get('members')
    if members_o is None or members_p is None:
        return
    for name in sorted(set(members_o) | set(members_p)):
        member_o = members_o.get(name)
        member_p = members_p.get(name)
        member_path = _member_path(name, member_o, member_p)
        if member_p is None:
            report.add('missing   {} ({})'.format(
                member_path, member_o['kind']))
        elif member_o is None:
            report.add('extra     {} ({})'.format(
                member_path, member_p['kind']))
        else:
            _compare_entries(member_path, member_o, member_p, report)


def compare(original, project):
    """Returns the report lines of the differences, sorted."""
    report = set()
    for module_name in sorted(set(original) | set(project)):
        names_o = original.get(module_name)
        names_p = project.get(module_name)
        if names_p is None or '__error__' in names_p:
            if names_o is not None and '__error__' not in names_o:
                report.add('missing   {} (module{})'.format(
                    module_name, '' if names_p is None else ': ' +
                    names_p['__error__']))
            continue
        if names_o is None or '__error__' in names_o:
            continue
        for name in sorted(set(names_o) | set(names_p)):
            path = module_name + '.' + name
            if name not in names_p:
                report.add('missing   {} ({})'.format(
                    path, names_o[name]['kind']))
            elif name not in names_o:
                report.add('extra     {} ({})'.format(
                    path, names_p[name]['kind']))
            else:
                entry = names_p[name]
                _compare_entries(entry.get('qualname', path), names_o[name],
                                 entry, report)
    return sorted(report)


def read_accepted(path):
    """``{difference: reason}`` from the file of accepted differences."""
    accepted = {}
    if not path or not os.path.exists(path):
        return accepted
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith('#'):
                continue
            text, _, reason = line.rstrip('\n').partition('  #')
            accepted[' '.join(text.split())] = reason.strip()
    return accepted


def _run(python, option, modules):
    # This script run by ``python`` with ``option``, from an empty folder.
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, 'out.json')
        subprocess.run(
            [python, os.path.abspath(__file__), option, out, '--modules']
            + list(modules), cwd=folder, check=True)
        with open(out) as f:
            return json.load(f)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split('\n\n')[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--original', help='Python of the original Chainer')
    parser.add_argument('--project', default=sys.executable,
                        help="Python of this project (default: this one)")
    parser.add_argument('--modules', nargs='+', default=DEFAULT_MODULES,
                        help='the modules to compare')
    parser.add_argument(
        '--accepted', default=os.path.join(
            os.path.dirname(os.path.abspath(__file__)),
            'api_differences.txt'),
        help='file of accepted differences, with their reasons')
    parser.add_argument(
        '--all', action='store_true',
        help='compare every submodule of the given modules that the '
        'original imports, too')
    parser.add_argument(
        '--strict', action='store_true',
        help='let extra names (public here only) fail the check too')
    parser.add_argument('--dump', metavar='FILE',
                        help='write what this Python sees to FILE and stop')
    parser.add_argument('--list-modules', metavar='FILE',
                        help='write the submodules of the modules to FILE '
                        'and stop')
    args = parser.parse_args(argv)

    if args.dump or args.list_modules:
        result = dump(args.modules) if args.dump else submodules(
            args.modules)
        with open(args.dump or args.list_modules, 'w') as f:
            json.dump(result, f)
        return 0
    if not args.original:
        parser.error('--original is required')
    modules = args.modules
    if args.all:
        modules = _run(args.original, '--list-modules', modules)
    report = compare(_run(args.original, '--dump', modules),
                     _run(args.project, '--dump', modules))
    accepted = read_accepted(args.accepted)
    remaining = [line for line in report
                 if ' '.join(line.split()) not in accepted]
    kept = [line for line in report if ' '.join(line.split()) in accepted]
    for line in remaining:
        print(line)
    if kept:
        print('\naccepted ({}):'.format(len(kept)))
        for line in kept:
            print('  {}  # {}'.format(line, accepted[' '.join(line.split())]))
    failing = [line for line in remaining
               if args.strict or not line.startswith('extra')]
    print('\napi: {} differences, {} accepted, {} to fix'.format(
        len(report), len(kept), len(failing)))
    return 1 if failing else 0


if __name__ == '__main__':
    sys.exit(main())
