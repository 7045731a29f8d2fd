"""Import-compatible stand-in for ChainerX, which is not available here.

Code written for Chainer can keep doing ``import chainerx``,
``chainerx.is_available()`` (always ``False``) and
``isinstance(x, chainerx.ndarray)`` (never true for a real array). Any other
attribute raises :class:`AttributeError` saying that ChainerX is not
available, so ``hasattr(chainerx, name)`` is ``False`` as with Chainer 7.8
built without ChainerX.
"""

_available = False


def is_available():
    """Tells whether ChainerX can be used.

    Returns:
        bool: Always ``False``.
    """
    return _available


class ndarray:
    """Placeholder of ``chainerx.ndarray`` for type tests.

    No array is an instance of it, and it cannot be created.
    """

    def __init__(self, *args, **kwargs):
        raise RuntimeError('chainerx is not available.')


def __getattr__(name):
    raise AttributeError(
        f"module {__name__!r} has no attribute {name!r}: ChainerX is not "
        'available (chainerx.is_available() is False); use NumPy or CuPy '
        "arrays and devices such as '@numpy' or '@cupy:0' instead.")
