"""Ready-made function hooks: printing, timing and GPU profiling."""

from chainer.function_hooks.cuda_profile import CUDAProfileHook
from chainer.function_hooks.cupy_memory_profile import CupyMemoryProfileHook
from chainer.function_hooks.debug_print import PrintHook
from chainer.function_hooks.timer import TimerHook

__all__ = [
    'CUDAProfileHook',
    'CupyMemoryProfileHook',
    'PrintHook',
    'TimerHook',
]
