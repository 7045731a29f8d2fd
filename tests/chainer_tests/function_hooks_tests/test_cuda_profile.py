"""CUDAProfileHook."""

import numpy
import pytest

import chainer
from chainer import function_hooks
from chainer.backends import cuda


@pytest.mark.skipif(cuda.available, reason='CuPy is installed')
def test_requires_cupy():
    with pytest.raises(RuntimeError,
                       match='CUDA environment is not correctly set up'):
        function_hooks.CUDAProfileHook()


@pytest.mark.gpu
def test_pushes_ranges(alloc):
    cupy = pytest.importorskip('cupy')
    try:
        hook = function_hooks.CUDAProfileHook()
    except RuntimeError as e:
        pytest.skip(str(e))
    x = chainer.Variable(cupy.ones((4,), numpy.float32))
    with hook:
        y, = alloc().apply((x,))
        y.grad = cupy.ones_like(y.array)
        y.backward()
    cupy.testing.assert_array_equal(x.grad, cupy.full((4,), 4.0))
