import multiprocessing

import numpy

import chainer
import chainer.functions as F


def _step(x, W):
    y = F.max_pooling_2d(F.relu(F.convolution_2d(x, W)), 2)
    return F.sum(F.linear(F.reshape(y, (len(x), -1)),
                          numpy.ones((3, y.size // len(x)), 'f'))).array


def _child(queue, x, W):
    from chainer import _kernels
    with chainer.using_config('use_chainerx_cpp', 'always'):
        queue.put((float(_step(x, W)), _kernels._in_forked_child))


def test_child_forked_after_kernels_ran_does_not_hang(kernel_calls):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (16, 4, 20, 20)).astype('f')
    W = rng.uniform(-1, 1, (8, 4, 5, 5)).astype('f')
    with chainer.using_config('use_chainerx_cpp', 'always'):
        expected = float(_step(x, W))
    kernel_calls.check(('convolution_forward', 'relu_forward',
                        'max_pooling_forward', 'gemm'))
    context = multiprocessing.get_context('fork')
    queue = context.Queue()
    child = context.Process(target=_child, args=(queue, x, W))
    child.start()
    child.join(60)
    if child.is_alive():
        child.kill()
        raise AssertionError('the forked child hung in the kernels')
    result, on_numpy = queue.get(timeout=10)
    assert on_numpy
    numpy.testing.assert_allclose(result, expected, rtol=1e-4)
