"""The average pooling kernels, run on the CPU by an emulator of their
source and compared with :func:`chainer.functions.average_pooling_nd`."""

import importlib.util
import os

import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import functions as F
from chainer.functions.pooling import average_pooling_nd_kernel as kernels
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
    '1d': ((7,), (3,), (2,), (1,)),
    '2d': ((5, 4), (2, 3), (2, 1), (1, 1)),
    '3d': ((4, 3, 5), (2, 2, 3), (2, 1, 2), (0, 1, 1)),
}


@pytest.mark.parametrize('ndim', [1, 2, 3])
def test_sources(ndim):
    sizes = ['int32 {}_{}'.format(prefix, i)
             for prefix in ('d', 'out', 'k', 's', 'p') for i in range(ndim)]
    params, outs, operation, name = \
        kernels.AveragePoolingNDKernelForward.generate(ndim)
    assert params.split(', ') == ['raw T in'] + sizes + ['T coeff']
    assert outs == 'T out'
    assert name == 'avg_pool_{}d_fwd'.format(ndim)
    emulator.check_well_formed(operation)
    params, outs, operation, name = \
        kernels.AveragePoolingNDKernelBackward.generate(ndim)
    assert params.split(', ') == ['raw T gy'] + sizes
    assert outs == 'T gx'
    assert name == 'avg_pool_{}d_bwd'.format(ndim)
    emulator.check_well_formed(operation)


@pytest.mark.parametrize('case', sorted(CASES))
def test_forward_and_backward(case):
    dims, ksize, stride, pad = CASES[case]
    ndim = len(dims)
    outs = tuple(conv.get_conv_outsize(d, k, s, p)
                 for d, k, s, p in zip(dims, ksize, stride, pad))
    sizes = dims + outs + ksize + stride + pad
    rs = numpy.random.RandomState(0)
    x = chainer.Variable(
        rs.uniform(-1, 1, (2, 3) + dims).astype(numpy.float32))
    expected = F.average_pooling_nd(x, ksize, stride, pad)
    # The padding counts in the window (pad_value=0).
    coeff = 1.0 / numpy.prod(ksize)
    y = numpy.empty((2, 3) + outs, numpy.float32)
    emulator.run(kernels.AveragePoolingNDKernelForward.generate(ndim),
                 y.size, x.array, *sizes, coeff, y)
    numpy.testing.assert_allclose(y, expected.array, rtol=1e-5, atol=1e-6)

    gy = rs.uniform(-1, 1, y.shape).astype(numpy.float32)
    expected.grad = gy
    expected.backward()
    gx = numpy.empty(x.shape, numpy.float32)
    emulator.run(kernels.AveragePoolingNDKernelBackward.generate(ndim),
                 gx.size, gy * coeff, *sizes, gx)
    numpy.testing.assert_allclose(gx, x.grad, rtol=1e-5, atol=1e-6)


@pytest.mark.gpu
@pytest.mark.parametrize('case', sorted(CASES))
def test_kernels_on_the_gpu(case):
    cupy = cuda.cupy
    dims, ksize, stride, pad = CASES[case]
    ndim = len(dims)
    outs = tuple(conv.get_conv_outsize(d, k, s, p)
                 for d, k, s, p in zip(dims, ksize, stride, pad))
    sizes = dims + outs + ksize + stride + pad
    x = numpy.random.RandomState(0).uniform(
        -1, 1, (2, 3) + dims).astype(numpy.float32)
    coeff = 1.0 / numpy.prod(ksize)
    y = cupy.empty((2, 3) + outs, cupy.float32)
    cuda.elementwise(*kernels.AveragePoolingNDKernelForward.generate(ndim))(
        cupy.asarray(x), *sizes, y.dtype.type(coeff), y)
    numpy.testing.assert_allclose(
        y.get(), F.average_pooling_nd(x, ksize, stride, pad).array,
        rtol=1e-5, atol=1e-6)
    gx = cupy.empty(x.shape, cupy.float32)
    cuda.elementwise(*kernels.AveragePoolingNDKernelBackward.generate(ndim))(
        y * y.dtype.type(coeff), *sizes, gx)
    expected = numpy.empty(x.shape, numpy.float32)
    emulator.run(kernels.AveragePoolingNDKernelBackward.generate(ndim),
                 expected.size, y.get() * coeff, *sizes, expected)
    numpy.testing.assert_allclose(gx.get(), expected, rtol=1e-5, atol=1e-6)
