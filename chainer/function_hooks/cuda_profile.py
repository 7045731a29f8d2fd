"""Function hook marking each function call as an NVTX range."""

from chainer import function_hook
from chainer.backends import cuda


def _nvtx_available():
    """Tells whether CuPy was built with NVTX (old and new CuPy spellings)."""
    cupy_cuda = cuda.cupy.cuda
    if hasattr(cupy_cuda, 'nvtx_enabled'):
        return bool(cupy_cuda.nvtx_enabled)
    return bool(getattr(cupy_cuda.nvtx, 'available', False))


class CUDAProfileHook(function_hook.FunctionHook):
    """Function hook opening an NVTX range around each function call.

    Ranges are named ``<label>.forward`` and ``<label>.backward``, so that
    profilers such as Nsight Systems show which function launched which
    kernels. It needs CuPy built with NVTX.

    """

    name = 'CUDAProfileHook'

    def __init__(self):
        cuda.check_cuda_available()
        if not _nvtx_available():
            raise RuntimeError('nvtx is required for CUDAProfileHook')

    def forward_preprocess(self, function, in_data):
        cuda.cupy.cuda.nvtx.RangePush(function.label + '.forward')

    def forward_postprocess(self, function, in_data):
        cuda.cupy.cuda.nvtx.RangePop()

    def backward_preprocess(self, function, in_data, out_grad):
        cuda.cupy.cuda.nvtx.RangePush(function.label + '.backward')

    def backward_postprocess(self, function, in_data, out_grad):
        cuda.cupy.cuda.nvtx.RangePop()
