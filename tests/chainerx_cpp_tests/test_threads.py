"""The kernels called from several Python threads at once give the results
of serial calls.

They run with the GIL released, on cached oneDNN primitives shared by all
the threads; each case runs one kernel family forward and backward through
the public functions, first on the main thread, then on eight threads at
once, and compares every result bit for bit (and checks that the kernels
ran, on every thread).
"""
import threading

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import optimizers


_THREADS = 8
_REPEATS = 3


def _uniform(seed, shape, dtype=numpy.float32):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def _forward_backward(func, *arrays):
    """The output of ``func`` on Variables of ``arrays`` and the gradients
    of the inputs, for an output gradient fixed by the output's shape."""
    xs = [chainer.Variable(a) for a in arrays]
    y = func(*xs)
    y.grad = _uniform(99, y.shape, y.dtype)
    y.backward()
    return [y.array] + [x.grad for x in xs]


_X = _uniform(0, (8, 16, 32, 32))
_W = _uniform(1, (32, 16, 3, 3))
_B = _uniform(2, (32,))


def _convolution():
    return _forward_backward(
        lambda x, W, b: F.convolution_2d(x, W, b, pad=1), _X, _W, _B)


def _grouped_convolution():
    return _forward_backward(
        lambda x, W: F.convolution_2d(x, W, stride=2, pad=1, groups=4),
        _X, _uniform(3, (16, 4, 3, 3)))


def _deconvolution():
    return _forward_backward(
        lambda x, W: F.deconvolution_2d(x, W, stride=2, pad=1),
        _X[:, :, :16, :16], _uniform(4, (16, 8, 3, 3)))


def _linear():
    return _forward_backward(
        F.linear, _uniform(5, (256, 300)), _uniform(6, (200, 300)),
        _uniform(7, (200,)))


def _linear_few_rows():
    return _forward_backward(
        F.linear, _uniform(8, (16, 500)), _uniform(9, (400, 500)))


def _batch_normalization_2d():
    return _forward_backward(
        F.batch_normalization, _uniform(10, (512, 300)),
        _uniform(11, (300,)), _uniform(12, (300,)))


def _batch_normalization_4d():
    return _forward_backward(
        F.batch_normalization, _X, _uniform(13, (16,)),
        _uniform(14, (16,)))


def _fixed_batch_normalization():
    mean = _uniform(15, (300,))
    var = numpy.abs(_uniform(16, (300,))) + 0.5
    return _forward_backward(
        lambda x, g, b: F.fixed_batch_normalization(x, g, b, mean, var),
        _uniform(17, (512, 300)), _uniform(18, (300,)), _uniform(19, (300,)))


def _softmax():
    return _forward_backward(F.softmax, _uniform(20, (512, 1000)))


def _log_softmax():
    return _forward_backward(F.log_softmax, _uniform(21, (512, 1000)))


def _softmax_cross_entropy():
    t = numpy.random.RandomState(22).randint(0, 1000, 512).astype(
        numpy.int32)
    return _forward_backward(
        lambda x: F.softmax_cross_entropy(x, t, reduce='no'),
        _uniform(23, (512, 1000)))


def _max_pooling():
    return _forward_backward(
        lambda x: F.max_pooling_2d(x, 3, stride=2, pad=1), _X)


def _max_pooling_channels_last():
    # The convolutions' outputs are channels-last on AVX-512 CPUs.
    return _forward_backward(
        lambda x, W: F.max_pooling_2d(F.convolution_2d(x, W), 2), _X, _W)


def _average_pooling():
    return _forward_backward(
        lambda x: F.average_pooling_2d(x, 3, stride=2, pad=1), _X)


def _activations():
    return _forward_backward(
        lambda x: F.relu(x) + F.sigmoid(x) + F.tanh(x),
        _uniform(24, (64, 64, 64)))


def _arithmetic():
    return _forward_backward(
        lambda a, b: (a + b) * (a - b),
        _uniform(31, (64, 64, 64)), _uniform(32, (64, 64, 64)))


def _lstm():
    return _forward_backward(
        lambda c, x: F.lstm(c, x)[0] * F.lstm(c, x)[1],
        _uniform(25, (256, 300)), _uniform(26, (256, 1200)))


def _embed_id():
    ids = numpy.random.RandomState(27).randint(0, 500, 4096).astype(
        numpy.int32)
    return _forward_backward(
        lambda W: F.embed_id(ids, W), _uniform(28, (500, 300)))


def _adam_update():
    # The parameter is in the link before the optimizer is set up, which
    # gives it its update rule.
    link = chainer.Link()
    with link.init_scope():
        link.w = chainer.Parameter(_uniform(29, (1 << 21,)))
    optimizer = optimizers.Adam()
    optimizer.setup(link)
    for step in range(3):
        link.w.grad = _uniform(30 + step, link.w.shape)
        optimizer.update()
    return [link.w.array]


_CONVOLUTION = ('convolution_forward', 'convolution_backward_data',
                'convolution_backward_weights')
_BATCH_NORMALIZATION = ('batch_normalization_forward',
                        'batch_normalization_backward')
_SOFTMAX = ('softmax_forward', 'softmax_backward')
_MAX_POOLING = ('max_pooling_forward', 'max_pooling_backward')

# Each case and the kernels that one run of it runs (at least).
_CASES = {f.__name__.lstrip('_'): (f, kernels) for f, kernels in (
    (_convolution, _CONVOLUTION + ('channel_sum',)),
    (_grouped_convolution, _CONVOLUTION),
    (_deconvolution, _CONVOLUTION),
    (_linear, ('gemm',) * 3),
    (_linear_few_rows, ('gemm',) * 3),
    (_batch_normalization_2d, _BATCH_NORMALIZATION),
    (_batch_normalization_4d, _BATCH_NORMALIZATION),
    (_fixed_batch_normalization, ('fixed_batch_normalization_forward',
                                  'batch_normalization_backward')),
    (_softmax, _SOFTMAX),
    (_log_softmax, _SOFTMAX),
    (_softmax_cross_entropy, ('softmax_cross_entropy_forward',
                              'softmax_cross_entropy_backward')),
    (_max_pooling, _MAX_POOLING),
    (_max_pooling_channels_last, _CONVOLUTION + _MAX_POOLING),
    (_average_pooling, ('average_pooling_forward',
                        'average_pooling_backward')),
    # NumPy's float32 tanh is the faster: only its backward is a kernel.
    (_activations, ('relu_forward', 'relu_backward', 'sigmoid_forward',
                    'sigmoid_backward', 'tanh_backward', 'add', 'add')),
    (_arithmetic, ('add', 'subtract', 'multiply')),
    (_lstm, ('lstm_forward', 'lstm_backward') * 2),
    (_embed_id, ('embed_id_backward',)),
    (_adam_update, ('adam_update',) * 3),
)}


def _in_threads(compute):
    """The results of ``compute()`` run _REPEATS times on each of _THREADS
    threads started together."""
    start = threading.Barrier(_THREADS)
    results = [None] * _THREADS
    errors = []

    def work(i):
        try:
            with chainer.using_config('use_chainerx_cpp', 'always'):
                start.wait()
                results[i] = [compute() for _ in range(_REPEATS)]
        except BaseException as e:  # reported on the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,))
               for i in range(_THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return [r for per_thread in results for r in per_thread]


@pytest.mark.parametrize('name', sorted(_CASES))
def test_threads_give_the_serial_results(name, kernel_calls):
    compute, kernels = _CASES[name]
    with chainer.using_config('use_chainerx_cpp', 'always'):
        expected = compute()
    kernel_calls.check(kernels)
    kernel_calls.clear()
    results = _in_threads(compute)
    # Every run on the threads ran the kernels too.
    kernel_calls.check(kernels * len(results))
    for actual in results:
        assert len(actual) == len(expected)
        for a, e in zip(actual, expected):
            numpy.testing.assert_array_equal(a, e)
