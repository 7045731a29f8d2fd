"""Lazy access to :mod:`scipy.special`, the CPU backend of the special
functions (erf, erfinv, lgamma, zeta, ...).

SciPy is optional and slow to import, so it is imported on the first
forward computation on the CPU that needs it, not with :mod:`chainer`.
"""

import warnings

import numpy

from chainer import warnings as chainer_warnings


_special = None


def get(func_name):
    """Returns :mod:`scipy.special`, importing it on first use.

    Args:
        func_name (str): Name of the function that needs SciPy, for the
            error message.

    Returns:
        module: :mod:`scipy.special`.

    Raises:
        ImportError: If SciPy is not installed.
    """
    global _special
    if _special is None:
        try:
            from scipy import special
        except ImportError as e:
            raise ImportError(
                'SciPy is not available. Forward computation of {} in CPU '
                'cannot be done without it; install SciPy '
                '(pip install scipy).'.format(func_name)) from e
        _special = special
    return _special


def get_or_fallback(func_name, scalar_func):
    """Returns ``scipy.special.<func_name>``, or a slow replacement.

    Without SciPy, a :class:`~chainer.warnings.PerformanceWarning` says that
    the computation will be slow, and ``scalar_func`` (a function of one
    Python float, such as :func:`math.erf`) is applied element by element
    instead.

    Args:
        func_name (str): Name of the function in :mod:`scipy.special`.
        scalar_func (callable): Scalar replacement.

    Returns:
        callable: A function from an array to a float array.
    """
    try:
        return getattr(get(func_name), func_name)
    except ImportError:
        warnings.warn(
            'SciPy is not available. Forward computation of {} in CPU can '
            'be slow without SciPy (pip install scipy).'.format(func_name),
            chainer_warnings.PerformanceWarning)
        return numpy.vectorize(scalar_func, otypes=(numpy.float64,))
