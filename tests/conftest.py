import pytest


def _gpu_available():
    try:
        import cupy
    except Exception:
        return False
    try:
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def pytest_collection_modifyitems(config, items):
    if _gpu_available():
        return
    skip_gpu = pytest.mark.skip(reason='CuPy with a CUDA GPU is not available')
    for item in items:
        if 'gpu' in item.keywords or 'cudnn' in item.keywords \
                or 'multi_gpu' in item.keywords:
            item.add_marker(skip_gpu)
