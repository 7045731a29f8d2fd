import io

import numpy
import pytest

import chainer
from chainer import function_hooks
from chainer.backends import cuda
from chainer.function_hooks import cupy_memory_profile


class _Node:
    """Stands for a function node: the hook reads only ``_impl_name``."""

    def __init__(self, name):
        self._impl_name = name


@pytest.fixture
def cpu_hook(monkeypatch):
    """A hook built without CuPy, to check its bookkeeping and report."""
    monkeypatch.setattr(cuda, 'check_cuda_available', lambda: None)
    monkeypatch.setattr(cupy_memory_profile, 'memory_hook_available', True)
    return function_hooks.CupyMemoryProfileHook()


def _report(hook, unit='auto'):
    out = io.StringIO()
    hook.print_report(unit=unit, file=out)
    return out.getvalue()


@pytest.mark.skipif(cuda.available, reason='CuPy is installed')
def test_requires_cupy():
    with pytest.raises(RuntimeError,
                       match='CUDA environment is not correctly set up'):
        function_hooks.CupyMemoryProfileHook()


@pytest.mark.skipif(cuda.available, reason='CuPy is installed')
def test_memory_hook_is_not_available_without_cupy():
    assert cupy_memory_profile.memory_hook_available is False
    assert isinstance(cupy_memory_profile._resolution_error, AttributeError)


def test_requires_memory_hooks(monkeypatch):
    monkeypatch.setattr(cuda, 'check_cuda_available', lambda: None)
    monkeypatch.setattr(cupy_memory_profile, 'memory_hook_available', False)
    with pytest.raises(RuntimeError, match='CuPy >= 2.0 is required'):
        function_hooks.CupyMemoryProfileHook()


def test_nested_calls_are_recorded_with_their_depth(cpu_hook):
    counter = cpu_hook._memory_hook
    outer, inner = _Node('Outer'), _Node('Inner')
    cpu_hook.forward_preprocess(outer, ())
    counter.used_bytes += 100
    counter.acquired_bytes += 512
    cpu_hook.forward_preprocess(inner, ())
    counter.used_bytes += 30
    cpu_hook.forward_postprocess(inner, ())
    cpu_hook.forward_postprocess(outer, ())
    cpu_hook.backward_preprocess(inner, (), ())
    counter.used_bytes += 7
    cpu_hook.backward_postprocess(inner, (), ())
    assert cpu_hook.call_history == [
        ('Inner', 30, 0, 1), ('Outer', 130, 512, 0), ('Inner', 7, 0, 0)]
    assert cpu_hook.total_used_bytes() == 137
    assert cpu_hook.total_acquired_bytes() == 512
    summary = cpu_hook.summary()
    assert list(summary) == ['Inner', 'Outer']
    assert summary['Inner'] == {
        'used_bytes': 37, 'acquired_bytes': 0, 'occurrence': 2}
    assert summary['Outer'] == {
        'used_bytes': 130, 'acquired_bytes': 512, 'occurrence': 1}


def test_cumulative_memory_hook_counts_sizes():
    counter = cupy_memory_profile.CupyMemoryCumulativeHook()
    counter.malloc_preprocess(device_id=0, size=10, mem_size=512)
    counter.alloc_preprocess(device_id=0, mem_size=1024)
    counter.malloc_preprocess(device_id=0, size=3, mem_size=512)
    assert counter.used_bytes == 1024
    assert counter.acquired_bytes == 1024


_HISTORY = [('ReLU', 2048, 4096, 0), ('Sum', 100, 0, 0), ('ReLU', 10, 5, 1),
            ('AVeryLongFunctionNameHere', 5 * 1024 ** 3, 3 * 1024 ** 4, 0)]

# Tables printed by the original Chainer for _HISTORY.
_EXPECTED = {
    'auto': (
        '             FunctionName  UsedBytes  AcquiredBytes  Occurrence\n'
        '                     ReLU     0.00GB         0.00TB           2\n'
        '                      Sum     0.00GB         0.00TB           1\n'
        'AVeryLongFunctionNameHere     5.00GB         3.00TB           1\n'),
    'auto_foreach': (
        '             FunctionName  UsedBytes  AcquiredBytes  Occurrence\n'
        '                     ReLU     2.01KB         4.00KB           2\n'
        '                      Sum    100.00B          0.00B           1\n'
        'AVeryLongFunctionNameHere     5.00GB         3.00TB           1\n'),
    'KB': (
        '             FunctionName     UsedBytes    AcquiredBytes'
        '  Occurrence\n'
        '                     ReLU        2.01KB           4.00KB'
        '           2\n'
        '                      Sum        0.10KB           0.00KB'
        '           1\n'
        'AVeryLongFunctionNameHere  5242880.00KB  3221225472.00KB'
        '           1\n'),
}


@pytest.mark.parametrize('unit', sorted(_EXPECTED))
def test_print_report_format(cpu_hook, unit):
    cpu_hook.call_history = list(_HISTORY)
    assert _report(cpu_hook, unit) == _EXPECTED[unit]


@pytest.mark.parametrize('size, text', [
    (0, '0.00B'), (1023, '1023.00B'), (1024, '1.00KB'),
    (1024 ** 2 - 1, '1024.00KB'), (3 * 1024 ** 7, '3.00ZB'),
    (2048 * 1024 ** 7, '2048.00ZB')])
def test_print_report_units_of_a_size(cpu_hook, size, text):
    cpu_hook.call_history = [('A', size, size, 0)]
    line = _report(cpu_hook, 'auto').splitlines()[1]
    assert line.split() == ['A', text, text, '1']


def test_print_report_unknown_unit(cpu_hook):
    cpu_hook.call_history = list(_HISTORY)
    with pytest.raises(KeyError):
        _report(cpu_hook, 'kB')


def test_print_report_without_calls(cpu_hook):
    assert _report(cpu_hook) == (
        'FunctionName  UsedBytes  AcquiredBytes  Occurrence\n')


@pytest.mark.gpu
def test_gpu_memory_is_profiled(alloc):
    cupy = pytest.importorskip('cupy')
    x = chainer.Variable(cupy.ones((256, 256), numpy.float32))
    hook = function_hooks.CupyMemoryProfileHook()
    with hook:
        y, = alloc().apply((x,))
        y.grad = cupy.ones_like(y.array)
        y.backward()
    assert [entry[0] for entry in hook.call_history] == ['Alloc'] * 2
    nbytes = 256 * 256 * 4
    for _, used, acquired, depth in hook.call_history:
        assert used >= nbytes
        assert acquired >= 0
        assert depth == 0
    assert hook.total_used_bytes() == sum(
        entry[1] for entry in hook.call_history)
    assert hook.summary()['Alloc']['occurrence'] == 2
    report = _report(hook)
    assert report.startswith('FunctionName  UsedBytes')
    assert 'Alloc' in report


@pytest.mark.gpu
def test_gpu_hook_stops_counting_after_exit():
    cupy = pytest.importorskip('cupy')
    hook = function_hooks.CupyMemoryProfileHook()
    with hook:
        cupy.ones(1024, numpy.float32)
    used = hook._memory_hook.used_bytes
    assert used >= 4096
    cupy.ones(1024, numpy.float32)
    assert hook._memory_hook.used_bytes == used
