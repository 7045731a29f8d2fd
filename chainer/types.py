"""Type aliases for annotations of code that uses Chainer.

They serve static type checkers only; nothing checks them at run time. The
array and device types are written as strings so that importing this
module imports neither CuPy nor the rest of Chainer.
"""

import numbers
import typing as tp
from typing import TYPE_CHECKING  # NOQA

if TYPE_CHECKING:
    from types import ModuleType  # NOQA

    import numpy  # NOQA

    from chainer import backend  # NOQA
    from chainer.backends import cuda  # NOQA
    import chainerx  # NOQA


Shape = tp.Tuple[int, ...]
"""A shape: a tuple of integers."""

ShapeSpec = tp.Union[int, tp.Sequence[int]]
"""What a shape argument accepts: an integer or a sequence of them."""

DTypeSpec = tp.Union[tp.Any]
"""What a dtype argument accepts (anything ``numpy.dtype`` takes)."""

NdArray = tp.Union['numpy.ndarray', 'cuda.ndarray', 'chainerx.ndarray']
"""The array types of :func:`chainer.get_array_types`."""

Xp = tp.Union[tp.Any]
"""An array module: ``numpy`` or ``cupy``."""


class AbstractInitializer(tp.Protocol):
    """What an initializer is: a callable filling an array, with a dtype.

    :class:`chainer.Initializer` objects and plain callables taking an
    array both fit.
    """

    dtype = None  # type: tp.Optional[DTypeSpec]

    def __call__(self, array: NdArray) -> None:
        """Fills ``array`` in place."""


ScalarValue = tp.Union['numpy.generic', bytes, str, memoryview,
                       numbers.Number]
"""The scalar types of :func:`numpy.isscalar`."""

InitializerSpec = tp.Union[AbstractInitializer, ScalarValue, 'numpy.ndarray']
"""What an ``initializer`` argument accepts."""

DeviceSpec = tp.Union[
    'backend.Device',
    'chainerx.Device',
    'cuda.Device',
    str,
    tp.Tuple[str, int],
    'ModuleType',
    tp.Tuple['ModuleType', int],
]
"""The device specifiers of :func:`chainer.get_device`."""

CudaDeviceSpec = tp.Union['cuda.Device', int, 'numpy.integer']
"""The GPU specifiers of the deprecated ``chainer.cuda.get_device``."""
