"""The max pooling kernels, run on the CPU by an emulator of their source
and compared with :func:`chainer.functions.max_pooling_nd`."""

import importlib.util
import os

import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer.functions.pooling import max_pooling_nd_kernel as kernels
from chainer.utils import conv


def load_emulator():
    path = os.path.join(os.path.dirname(__file__), '..', '..', 'utils_tests',
                        'elementwise_emulator.py')
    spec = importlib.util.spec_from_file_location('elementwise_emulator',
                                                  path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


emulator = load_emulator()

CASES = {
    '1d': ((7,), (3,), (2,), (1,), False),
    '2d-cover-all': ((5, 4), (2, 3), (2, 1), (1, 1), True),
    '3d': ((4, 3, 5), (2, 2, 3), (2, 1, 2), (0, 1, 1), False),
}


class Pooling:

    def __init__(self, case):
        self.dims, self.ksize, self.stride, self.pad, self.cover_all = \
            CASES[case]
        self.outs = tuple(
            conv.get_conv_outsize(d, k, s, p, self.cover_all)
            for d, k, s, p in zip(self.dims, self.ksize, self.stride,
                                  self.pad))
        self.sizes = (self.dims + self.outs + self.ksize + self.stride
                      + self.pad)
        shape = (2, 3) + self.dims
        rs = numpy.random.RandomState(0)
        # Distinct values: the maximum of every window is unique.
        self.x = rs.permutation(numpy.prod(shape)).reshape(shape).astype(
            numpy.float32)
        self.ndim = len(self.dims)

    def chainer(self, x):
        return F.max_pooling_nd(x, self.ksize, self.stride, self.pad,
                                self.cover_all)

    def forward(self, x):
        y = numpy.empty((2, 3) + self.outs, numpy.float32)
        indexes = numpy.empty(y.shape, numpy.int32)
        emulator.run(kernels.MaxPoolingNDKernelForward.generate(self.ndim),
                     y.size, x, *self.sizes, y, indexes)
        return y, indexes


@pytest.mark.parametrize('ndim', [1, 2, 3])
@pytest.mark.parametrize('cls,in_params,out_params,name', [
    (kernels.MaxPoolingNDKernelForward, [], 'T out, S indexes', 'max'),
    (kernels.MaxPoolingNDKernelForwardWithIndexes, ['raw S indexes'],
     'T out', 'max_index'),
    (kernels.MaxPoolingNDKernelForwardWithIndexes1, ['raw T ggx'], 'T out',
     'max_index1'),
])
def test_forward_sources(ndim, cls, in_params, out_params, name):
    params, outs, operation, kernel_name = cls.generate(ndim)
    sizes = ['int32 {}_{}'.format(prefix, i)
             for prefix in ('d', 'out', 'k', 's', 'p') for i in range(ndim)]
    assert params.split(', ') == ['raw T in'] + sizes + in_params
    assert outs == out_params
    assert kernel_name == '{}_pool_{}d_fwd'.format(name, ndim)
    emulator.check_well_formed(operation)


@pytest.mark.parametrize('ndim', [1, 2, 3])
def test_backward_source(ndim):
    params, outs, operation, name = \
        kernels.MaxPoolingNDKernelBackward.generate(ndim)
    assert params.split(', ')[:2] == ['raw T gy', 'raw S indexes']
    assert outs == 'T gx'
    assert name == 'max_pool_{}d_bwd'.format(ndim)
    emulator.check_well_formed(operation)


@pytest.mark.parametrize('case', sorted(CASES))
def test_forward_and_backward(case):
    pooling = Pooling(case)
    x = chainer.Variable(pooling.x)
    expected = pooling.chainer(x)
    y, indexes = pooling.forward(pooling.x)
    numpy.testing.assert_array_equal(y, expected.array)
    # A window that covers only the padding (with cover_all) is empty.
    found = indexes[numpy.isfinite(y)]
    assert (0 <= found).all()
    assert (found < numpy.prod(pooling.ksize)).all()

    gy = numpy.random.RandomState(1).uniform(-1, 1, y.shape).astype(
        numpy.float32)
    expected.grad = gy
    expected.backward()
    gx = numpy.empty(pooling.x.shape, numpy.float32)
    emulator.run(kernels.MaxPoolingNDKernelBackward.generate(pooling.ndim),
                 gx.size, gy, indexes, *pooling.sizes, gx)
    numpy.testing.assert_allclose(gx, x.grad, rtol=1e-6)


@pytest.mark.parametrize('case', sorted(CASES))
def test_reading_at_the_maxima(case):
    pooling = Pooling(case)
    y, indexes = pooling.forward(pooling.x)
    other = numpy.random.RandomState(2).uniform(
        -1, 1, pooling.x.shape).astype(numpy.float32)
    # The maxima of x, read in x: the max pooling itself.
    at_indexes = numpy.empty(y.shape, numpy.float32)
    emulator.run(
        kernels.MaxPoolingNDKernelForwardWithIndexes.generate(pooling.ndim),
        y.size, pooling.x, *pooling.sizes, indexes, at_indexes)
    # A window that covers only the padding (with cover_all) is empty.
    found = numpy.isfinite(y)
    numpy.testing.assert_array_equal(at_indexes[found], y[found])
    # Another array read at the maxima of x, both ways.
    with_indexes = numpy.empty(y.shape, numpy.float32)
    emulator.run(
        kernels.MaxPoolingNDKernelForwardWithIndexes.generate(pooling.ndim),
        y.size, other, *pooling.sizes, indexes, with_indexes)
    with_ggx = numpy.empty(y.shape, numpy.float32)
    emulator.run(
        kernels.MaxPoolingNDKernelForwardWithIndexes1.generate(pooling.ndim),
        y.size, pooling.x, *pooling.sizes, other, with_ggx)
    numpy.testing.assert_array_equal(with_indexes[found], with_ggx[found])
    # It is the double backward of max pooling: the gradient of gx by gy.
    x = chainer.Variable(pooling.x)
    gy = chainer.Variable(numpy.ones(y.shape, numpy.float32))
    gx, = chainer.grad([pooling.chainer(x)], [x], grad_outputs=[gy],
                       enable_double_backprop=True)
    ggy, = chainer.grad([gx], [gy], grad_outputs=[chainer.Variable(other)])
    numpy.testing.assert_array_equal(with_ggx[found], ggy.array[found])


@pytest.mark.gpu
@pytest.mark.parametrize('case', sorted(CASES))
def test_kernels_on_the_gpu(case):
    cupy = cuda.cupy
    pooling = Pooling(case)
    x = cupy.asarray(pooling.x)
    y = cupy.empty((2, 3) + pooling.outs, cupy.float32)
    indexes = cupy.empty(y.shape, cupy.int32)
    cuda.elementwise(
        *kernels.MaxPoolingNDKernelForward.generate(pooling.ndim))(
            x, *pooling.sizes, y, indexes)
    expected, expected_indexes = pooling.forward(pooling.x)
    numpy.testing.assert_array_equal(y.get(), expected)
    numpy.testing.assert_array_equal(indexes.get(), expected_indexes)
    gx = cupy.empty_like(x)
    cuda.elementwise(
        *kernels.MaxPoolingNDKernelBackward.generate(pooling.ndim))(
            y, indexes, *pooling.sizes, gx)
    expected_gx = numpy.empty(pooling.x.shape, numpy.float32)
    emulator.run(kernels.MaxPoolingNDKernelBackward.generate(pooling.ndim),
                 expected_gx.size, expected, expected_indexes,
                 *pooling.sizes, expected_gx)
    numpy.testing.assert_array_equal(gx.get(), expected_gx)
