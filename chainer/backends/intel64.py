"""The Intel64 (iDeep) backend, which is never available here.

iDeep (``ideep4py``) is not supported on current Python versions, so
:func:`is_ideep_available` is always ``False``, :func:`should_use_ideep` and
:func:`inputs_all_ready` always answer ``False``, and creating an
:class:`Intel64Device` raises ``RuntimeError``. Code paths guarded by these
helpers fall back to NumPy, as Chainer does without iDeep.
"""

import numpy

from chainer import _backend

ideep = None
_ideep_version = None
_error = ModuleNotFoundError("No module named 'ideep4py'", name='ideep4py')


class mdarray:
    """Placeholder of ``ideep4py.mdarray``; no array is an instance of it."""


_SHOULD_USE_IDEEP = {
    '==always': {'always': True, 'auto': False, 'never': False},
    '>=auto': {'always': True, 'auto': True, 'never': False},
}


class Intel64Device(_backend.Device):
    """Device of the CPU computing with iDeep.

    It cannot be created here: the constructor raises ``RuntimeError``.
    """

    xp = numpy
    name = '@intel64'
    supported_array_types = (numpy.ndarray, mdarray)

    __hash__ = _backend.Device.__hash__

    def __init__(self):
        check_ideep_available()

    @staticmethod
    def from_array(array):
        """Returns ``None``: no array lives on an iDeep device here."""
        return

    def __eq__(self, other):
        return isinstance(other, Intel64Device)

    def __repr__(self):
        return f'<{type(self).__name__}>'

    def send_array(self, array):
        check_ideep_available()

    def is_array_supported(self, array):
        return isinstance(array, (numpy.ndarray, mdarray))


def is_ideep_available():
    """Tells whether iDeep can be used.

    Returns:
        bool: Always ``False``.
    """
    return False


def check_ideep_available():
    """Raises ``RuntimeError`` explaining that iDeep is not available."""
    raise RuntimeError(
        'iDeep is not available.\n'
        f'Reason: {type(_error).__name__}: {_error}')


def should_use_ideep(level):
    """Tells whether a function should call iDeep.

    Args:
        level (str): ``'==always'`` or ``'>=auto'``.

    Returns:
        bool: Always ``False``, as iDeep is not available.
    """
    return False


def inputs_all_ready(inputs, supported_ndim=(2, 4)):
    """Tells whether all inputs can be handed to an iDeep primitive.

    Args:
        inputs: Arrays or variables.
        supported_ndim (tuple of ints): Dimensions the primitive supports.

    Returns:
        bool: Always ``False``, as iDeep is not available.
    """
    return False
