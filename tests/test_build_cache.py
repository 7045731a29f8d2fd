"""The object cache of setup.py: reinstalls compile only what changed."""

import importlib.util
import os
import shutil

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _load_setup():
    spec = importlib.util.spec_from_file_location(
        'chainer_setup_script', os.path.join(ROOT, 'setup.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def build(tmp_path):
    """A C compiler, an object cache in tmp_path and a source to build."""
    if shutil.which('cc') is None:
        pytest.skip('no C compiler')
    pytest.importorskip('setuptools')
    from distutils import ccompiler, sysconfig
    compiler = ccompiler.new_compiler()
    sysconfig.customize_compiler(compiler)
    setup = _load_setup()
    source_dir = tmp_path / 'src'
    source_dir.mkdir()
    (source_dir / 'value.h').write_text('#define VALUE 1\n')
    (source_dir / 'a.c').write_text(
        '#include "value.h"\nint a(void) { return VALUE; }\n')
    (source_dir / 'b.c').write_text('int b(void) { return 2; }\n')
    calls = []

    def compile_function(sources, **kwargs):
        calls.extend(sources)
        return compiler.compile(sources, **kwargs)

    def run():
        cache = setup._ObjectCache(str(tmp_path / 'cache'), compiler, 2)
        sources = [str(source_dir / 'a.c'), str(source_dir / 'b.c')]
        objects = cache.compile(
            compile_function, sources, include_dirs=[str(source_dir)],
            depends=[str(source_dir / 'value.h')])
        return objects, cache.hits

    return run, source_dir, calls


def test_second_build_reuses_every_object(build):
    run, _, calls = build
    first, hits = run()
    assert hits == 0
    assert sorted(os.path.basename(c) for c in calls) == ['a.c', 'b.c']
    assert all(os.path.getsize(o) > 0 for o in first)
    del calls[:]
    second, hits = run()
    assert (second, hits, calls) == (first, 2, [])


def test_edited_source_compiles_again_alone(build):
    run, source_dir, calls = build
    first, _ = run()
    del calls[:]
    (source_dir / 'b.c').write_text('int b(void) { return 3; }\n')
    second, hits = run()
    assert hits == 1
    assert [os.path.basename(c) for c in calls] == ['b.c']
    assert second[0] == first[0] and second[1] != first[1]


def test_edited_header_compiles_every_source_again(build):
    run, source_dir, calls = build
    first, _ = run()
    del calls[:]
    (source_dir / 'value.h').write_text('#define VALUE 4\n')
    second, hits = run()
    assert hits == 0 and len(calls) == 2
    assert set(second).isdisjoint(first)


def test_touching_a_source_without_editing_it_is_a_hit(build):
    run, source_dir, calls = build
    first, _ = run()
    del calls[:]
    os.utime(source_dir / 'a.c')
    assert run() == (first, 2)
    assert calls == []


def test_cache_folder_setting(monkeypatch, tmp_path):
    setup = _load_setup()
    monkeypatch.setenv('CHAINER_BUILD_CACHE', '0')
    assert setup._cache_dir() is None
    monkeypatch.setenv('CHAINER_BUILD_CACHE', str(tmp_path))
    assert setup._cache_dir() == str(tmp_path)
    monkeypatch.delenv('CHAINER_BUILD_CACHE')
    monkeypatch.setenv('XDG_CACHE_HOME', str(tmp_path))
    assert setup._cache_dir() == str(tmp_path / 'chainer' / 'chainerx_cpp')
