import importlib.util
import os
from unittest import mock

import numpy
import pytest

from chainer.backends import cuda
from chainer.utils import conv
from chainer.utils import conv_nd
from chainer.utils import conv_nd_kernel


def load_emulator():
    path = os.path.join(os.path.dirname(__file__), 'elementwise_emulator.py')
    spec = importlib.util.spec_from_file_location('elementwise_emulator',
                                                  path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


emulator = load_emulator()


def test_expressions():
    assert conv_nd_kernel.mulexp(['a', 'b', 'c']) == 'a * b * c'
    assert conv_nd_kernel.mulexp(['a', 'b'], 'z') == 'z * a * b'
    assert conv_nd_kernel.andexp(['a', 'b']) == 'a && b'
    assert conv_nd_kernel.andexp(['a'], 'z') == 'z && a'
    assert conv_nd_kernel.muladdexp(['d_0', 'd_1'], ['x_0', 'x_1'], 'c') == \
        '(x_1 + d_1 * (x_0 + d_0 * c))'
    assert conv_nd_kernel.muladdexp(['d_0', 'd_1'], ['x_0', 'x_1']) == \
        '(x_1 + d_1 * x_0)'
    assert conv_nd_kernel.map_(str.upper, ['a', 'b']) == ['A', 'B']
    assert conv_nd_kernel.succ_sublists([1, 2, 3]) == [[1, 2, 3], [2, 3],
                                                       [3]]
    assert conv_nd_kernel.vars('k', 3) == ['k_0', 'k_1', 'k_2']


def test_coordinate_decls():
    assert conv_nd_kernel.coordinate_decls(
        ['a', 'b'], ['n_0', 'n_1'], inner=['m']) == [
            'int a = i / (n_1 * m) % n_0;', 'int b = i / (m) % n_1;']
    assert conv_nd_kernel.coordinate_decls(
        ['a'], ['n'], shifts=['p'], index='j') == ['int a = j % n + p;']


def test_writer():
    w = conv_nd_kernel.Writer()
    w.write('if (a) {', 'inc')
    w.write('b;')
    w.write('} else {', 'decinc')
    w.write('c;')
    w.write('}', 'dec')
    w.write('d;')
    assert w.get() == 'if (a) {\n  b;\n} else {\n  c;\n}\nd;'


def _size_params(ndim, prefixes=('d', 'out', 'k', 's', 'p', 'di')):
    return ['int32 {}_{}'.format(prefix, i)
            for prefix in prefixes for i in range(ndim)]


@pytest.mark.parametrize('ndim', [1, 2, 3])
def test_im2col_source(ndim):
    in_params, out_params, operation, name = \
        conv_nd_kernel.Im2colNDKernel.generate(ndim)
    assert in_params.split(', ') == ['raw T img'] + _size_params(ndim)
    assert out_params == 'T col'
    assert name == 'im2col_{}d'.format(ndim)
    emulator.check_well_formed(operation)


@pytest.mark.parametrize('ndim', [1, 2, 3])
def test_col2im_source(ndim):
    in_params, out_params, operation, name = \
        conv_nd_kernel.Col2imNDKernel.generate(ndim)
    assert in_params.split(', ') == ['raw T col'] + _size_params(ndim)
    assert out_params == 'T img'
    assert name == 'col2im_{}d'.format(ndim)
    emulator.check_well_formed(operation)


CASES = {
    '1d': ((7,), (3,), (2,), (1,), (1,)),
    '2d-dilated': ((5, 4), (2, 3), (1, 2), (1, 0), (2, 1)),
    '3d': ((4, 3, 5), (2, 2, 3), (2, 1, 2), (0, 1, 1), (1, 1, 1)),
}


def _outs(dims, ksize, stride, pad, dilate):
    return tuple(conv.get_conv_outsize(d, k, s, p, d=di)
                 for d, k, s, p, di in zip(dims, ksize, stride, pad, dilate))


@pytest.mark.parametrize('case', sorted(CASES))
def test_im2col_computes_im2col(case):
    dims, ksize, stride, pad, dilate = CASES[case]
    img = numpy.arange(
        2 * 3 * numpy.prod(dims), dtype=numpy.float32).reshape(
            (2, 3) + dims)
    expected = conv_nd.im2col_nd_cpu(img, ksize, stride, pad,
                                     dilate=dilate)
    col = numpy.empty(expected.shape, numpy.float32)
    emulator.run(conv_nd_kernel.Im2colNDKernel.generate(len(dims)),
                 col.size, img, *dims,
                 *_outs(dims, ksize, stride, pad, dilate), *ksize, *stride,
                 *pad, *dilate, col)
    numpy.testing.assert_array_equal(col, expected)


@pytest.mark.parametrize('case', sorted(CASES))
def test_col2im_computes_col2im(case):
    dims, ksize, stride, pad, dilate = CASES[case]
    outs = _outs(dims, ksize, stride, pad, dilate)
    col = numpy.random.RandomState(0).uniform(
        -1, 1, (2, 3) + ksize + outs).astype(numpy.float32)
    expected = conv_nd.col2im_nd_cpu(col, stride, pad, dims, dilate=dilate)
    img = numpy.empty(expected.shape, numpy.float32)
    emulator.run(conv_nd_kernel.Col2imNDKernel.generate(len(dims)),
                 img.size, col, *dims, *outs, *ksize, *stride, *pad,
                 *dilate, img)
    numpy.testing.assert_allclose(img, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.gpu
@pytest.mark.parametrize('kernel', ['Im2colNDKernel', 'Col2imNDKernel'])
@pytest.mark.parametrize('ndim', [2, 3, 4])
def test_generate_is_memoized_gpu(kernel, ndim):
    cls = getattr(conv_nd_kernel, kernel)
    cuda.clear_memo()
    with mock.patch.object(cls, '_generate') as generate:
        cls.generate(ndim)
        cls.generate(ndim)
    generate.assert_called_once_with(ndim)


@pytest.mark.gpu
@pytest.mark.parametrize('case', sorted(CASES))
def test_kernels_on_the_gpu(case):
    cupy = cuda.cupy
    dims, ksize, stride, pad, dilate = CASES[case]
    outs = _outs(dims, ksize, stride, pad, dilate)
    sizes = dims + outs + ksize + stride + pad + dilate
    img = cupy.arange(2 * 3 * numpy.prod(dims), dtype=cupy.float32).reshape(
        (2, 3) + dims)
    col = cupy.empty((2, 3) + ksize + outs, cupy.float32)
    cuda.elementwise(*conv_nd_kernel.Im2colNDKernel.generate(len(dims)))(
        img, *sizes, col)
    numpy.testing.assert_array_equal(
        col.get(), conv_nd.im2col_nd_cpu(img.get(), ksize, stride, pad,
                                         dilate=dilate))
    back = cupy.empty_like(img)
    cuda.elementwise(*conv_nd_kernel.Col2imNDKernel.generate(len(dims)))(
        col, *sizes, back)
    numpy.testing.assert_allclose(
        back.get(), conv_nd.col2im_nd_cpu(col.get(), stride, pad, dims,
                                          dilate=dilate), rtol=1e-5)
