"""The kernels' array cache: the memory of the arrays the kernels return."""

import multiprocessing
import threading

import numpy
import pytest

import chainerx_cpp

pytestmark = pytest.mark.skipif(
    not chainerx_cpp.is_available(), reason='the kernels are not built')

_multiarray = getattr(numpy, '_core', None) or numpy.core
_CACHE = 'chainerx_cpp_array_cache'
_BIG = (64, 1024)  # 256 KiB of float32
_SMALL = (4, 4)


def _kernels():
    return chainerx_cpp.get_kernels()


def _handler(a):
    return _multiarray.multiarray.get_handler_name(a)


def _relu(shape, seed=0):
    x = numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(
        numpy.float32)
    return x, _kernels().relu_forward(x)


def test_kernel_outputs_come_from_the_cache_and_own_their_data():
    x, y = _relu(_BIG)
    numpy.testing.assert_array_equal(y, numpy.maximum(x, 0))
    assert _handler(y) == _CACHE
    assert y.flags.owndata and y.base is None
    # Small outputs and every array made outside a kernel use NumPy's own
    # allocator.
    assert _handler(_relu(_SMALL)[1]) != _CACHE
    assert _handler(numpy.empty(_BIG, numpy.float32)) != _CACHE
    assert _handler(x) != _CACHE


def test_freed_blocks_are_reused():
    chainerx_cpp.clear_array_cache()
    _relu(_BIG)  # allocated and freed: kept
    held = chainerx_cpp.array_cache_info()
    assert held['cached_bytes'] >= 64 * 1024 * 4
    x, y = _relu(_BIG, seed=1)
    after = chainerx_cpp.array_cache_info()
    assert after['hits'] == held['hits'] + 1
    assert after['cached_bytes'] < held['cached_bytes']
    # The reused block holds the new values only.
    numpy.testing.assert_array_equal(y, numpy.maximum(x, 0))


def test_clear_gives_the_memory_back():
    _relu(_BIG)
    held = chainerx_cpp.array_cache_info()['cached_bytes']
    assert chainerx_cpp.clear_array_cache() == held
    assert chainerx_cpp.array_cache_info()['cached_bytes'] == 0


def test_zeros_and_resize_in_the_cache():
    # calloc and realloc of the handler, through NumPy.
    chainerx_cpp.clear_array_cache()
    _relu(_BIG)  # a dirty block of this size class is kept
    z = _kernels()._with_array_cache(
        lambda: numpy.zeros(_BIG, numpy.float32))
    assert _handler(z) == _CACHE
    assert not z.any()
    a = _kernels()._with_array_cache(
        lambda: numpy.arange(64 * 1024, dtype=numpy.float32))
    a.resize(4 * 64 * 1024, refcheck=False)
    numpy.testing.assert_array_equal(
        a[:64 * 1024], numpy.arange(64 * 1024, dtype=numpy.float32))
    assert not a[64 * 1024:].any()
    a.resize(10, refcheck=False)
    numpy.testing.assert_array_equal(a, numpy.arange(10))


def test_threads_share_the_cache():
    # Arrays allocated and freed from eight threads at once: every result
    # is the serial one, and the cache stays consistent.
    inputs = [numpy.random.RandomState(k).uniform(-1, 1, _BIG).astype(
        numpy.float32) for k in range(8)]
    expected = [numpy.maximum(x, 0) for x in inputs]
    errors = []
    barrier = threading.Barrier(len(inputs))

    def run(k):
        barrier.wait()
        for _ in range(50):
            y = _kernels().relu_forward(inputs[k])
            if not numpy.array_equal(y, expected[k]):
                errors.append(k)

    threads = [threading.Thread(target=run, args=(k,))
               for k in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    info = chainerx_cpp.array_cache_info()
    assert 0 <= info['cached_bytes'] <= 256 << 20


def _child(queue):
    # No kernel runs here (GNU OpenMP cannot after a fork): the cache
    # alone, through NumPy.
    ok = True
    for _ in range(3):
        a = _kernels()._with_array_cache(
            lambda: numpy.full(_BIG, 2, numpy.float32))
        ok = ok and _handler(a) == _CACHE and bool((a == 2).all())
        del a
    queue.put(ok)


def test_a_forked_child_allocates():
    import chainer  # NOQA: F401 (registers the fork handler of the kernels)
    _relu(_BIG)
    context = multiprocessing.get_context('fork')
    queue = context.Queue()
    process = context.Process(target=_child, args=(queue,))
    process.start()
    assert queue.get(timeout=60)
    process.join(60)
    assert process.exitcode == 0


def test_a_miss_while_half_full_gives_the_memory_back():
    # Blocks of three size classes, 144 MiB in all, freed into the cache
    # (more than half of its 256 MiB): the next miss releases them all.
    chainerx_cpp.clear_array_cache()
    mib = 1 << 20
    for size in (40 * mib, 48 * mib, 56 * mib):
        _kernels()._with_array_cache(lambda: numpy.empty(size, numpy.uint8))
    assert chainerx_cpp.array_cache_info()['cached_bytes'] == 144 * mib
    kept = _kernels()._with_array_cache(
        lambda: numpy.empty(64 * mib, numpy.uint8))
    assert chainerx_cpp.array_cache_info()['cached_bytes'] == 0
    del kept
    assert chainerx_cpp.array_cache_info()['cached_bytes'] == 64 * mib
    chainerx_cpp.clear_array_cache()
