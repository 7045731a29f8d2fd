import importlib.util
import os
from unittest import mock

import numpy
import pytest

from chainer.backends import cuda
from chainer.functions.pooling import pooling_nd_kernel


def load_emulator():
    path = os.path.join(os.path.dirname(__file__), '..', '..', 'utils_tests',
                        'elementwise_emulator.py')
    spec = importlib.util.spec_from_file_location('elementwise_emulator',
                                                  path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


emulator = load_emulator()


def sizes(ndim):
    return ['int32 {}_{}'.format(prefix, i)
            for prefix in ('d', 'out', 'k', 's', 'p') for i in range(ndim)]


class _CountForward(pooling_nd_kernel.PoolingNDKernelForward):

    # The number of input elements of each window, and its first one.

    def name(self):
        return 'count'

    def in_params(self):
        return ['T one']

    def out_params(self):
        return ['S first']

    def before(self):
        return 'T n = 0;\nint first_offset = -1;'

    def main(self, offset, xs):
        return ('n = n + one;\n'
                'if (first_offset < 0) {{\n'
                'first_offset = {};\n'
                '}}').format(offset)

    def after(self, out_xs):
        return 'out = n;\nfirst = first_offset;'


class _CountBackward(pooling_nd_kernel.PoolingNDKernelBackward):

    # The number of windows holding each input element.

    def name(self):
        return 'count'

    def in_params(self):
        return ['raw T unused'], ['T one']

    def before(self):
        return 'T n = 0;'

    def main(self, offset, xs, out_xs):
        return 'n = n + one;'

    def after(self, xs):
        return 'gx = n;'


@pytest.mark.parametrize('ndim', [1, 2, 3])
def test_forward_source(ndim):
    in_params, out_params, operation, name = _CountForward.generate(ndim)
    assert in_params.split(', ') == ['raw T in'] + sizes(ndim) + ['T one']
    assert out_params == 'T out, S first'
    assert name == 'count_pool_{}d_fwd'.format(ndim)
    emulator.check_well_formed(operation)


@pytest.mark.parametrize('ndim', [1, 2, 3])
def test_backward_source(ndim):
    in_params, out_params, operation, name = _CountBackward.generate(ndim)
    assert in_params.split(', ') == (
        ['raw T gy', 'raw T unused'] + sizes(ndim) + ['T one'])
    assert out_params == 'T gx'
    assert name == 'count_pool_{}d_bwd'.format(ndim)
    emulator.check_well_formed(operation)


def test_windows():
    # 1-d input of 5 elements, windows of 3 with stride 2 and padding 1:
    # [-1, 2), [1, 4), [3, 6) clipped to the input.
    x = numpy.zeros((1, 1, 5))
    out = numpy.empty((1, 1, 3))
    first = numpy.empty((1, 1, 3), numpy.int32)
    emulator.run(_CountForward.generate(1), out.size, x, 5, 3, 3, 2, 1, 1.0,
                 out, first)
    assert out.ravel().tolist() == [2, 3, 2]
    assert first.ravel().tolist() == [0, 1, 3]
    gx = numpy.empty((1, 1, 5))
    emulator.run(_CountBackward.generate(1), gx.size, out, x, 5, 3, 3, 2, 1,
                 1.0, gx)
    assert gx.ravel().tolist() == [1, 2, 1, 2, 1]


def test_hooks_are_abstract():
    forward = pooling_nd_kernel.PoolingNDKernelForward()
    backward = pooling_nd_kernel.PoolingNDKernelBackward()
    assert forward.in_params() == [] and forward.out_params() == []
    for call in (forward.name, forward.before, backward.before,
                 lambda: forward.main('offset', []),
                 lambda: forward.after([]),
                 lambda: backward.main('offset', [], []),
                 lambda: backward.after([])):
        with pytest.raises(NotImplementedError):
            call()


@pytest.mark.gpu
@pytest.mark.parametrize('cls', [pooling_nd_kernel.PoolingNDKernelForward,
                                 pooling_nd_kernel.PoolingNDKernelBackward])
@pytest.mark.parametrize('ndim', [2, 3, 4])
def test_generate_is_memoized_gpu(cls, ndim):
    cuda.clear_memo()
    with mock.patch.object(cls, '_generate') as generate:
        cls.generate(ndim)
        cls.generate(ndim)
    generate.assert_called_once_with(ndim)
