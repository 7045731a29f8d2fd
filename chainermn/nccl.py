"""NCCL through CuPy, when CuPy is built with it.

``_available`` tells whether the names below exist.
"""

try:
    from cupy.cuda.nccl import get_build_version  # NOQA
    from cupy.cuda.nccl import get_unique_id  # NOQA
    from cupy.cuda.nccl import get_version  # NOQA
    from cupy.cuda.nccl import NCCL_FLOAT  # NOQA
    from cupy.cuda.nccl import NCCL_FLOAT16  # NOQA
    from cupy.cuda.nccl import NCCL_FLOAT32  # NOQA
    from cupy.cuda.nccl import NCCL_FLOAT64  # NOQA
    from cupy.cuda.nccl import NCCL_SUM  # NOQA
    from cupy.cuda.nccl import NcclCommunicator  # NOQA
    from cupy.cuda.nccl import NcclError  # NOQA
    _available = True
except Exception:
    _available = False

    NCCL_FLOAT16 = 6
    NCCL_FLOAT32 = 7
    NCCL_FLOAT64 = 8
    NCCL_FLOAT = NCCL_FLOAT32

    def get_build_version():
        """Returns 0: this CuPy has no NCCL."""
        return 0

    def get_version():
        """Returns 0: this CuPy has no NCCL."""
        return 0


def check_available():
    """Raises :class:`RuntimeError` when CuPy has no NCCL."""
    if not _available:
        raise RuntimeError(
            'NCCL is not available. This communicator needs CuPy with NCCL '
            'and a CUDA GPU (`pip install cupy-cuda12x`); on the CPU use '
            "create_communicator('naive') or 'flat'.")
