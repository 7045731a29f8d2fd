"""The optional matplotlib dependency of the plotting extensions."""

import warnings

_available = None


def is_available():
    """Returns whether matplotlib can be imported (checked once)."""
    global _available
    if _available is None:
        try:
            import matplotlib  # NOQA
            _available = True
        except (ImportError, TypeError):
            _available = False
    return _available


def check_available():
    """Warns when matplotlib is missing; returns whether it is present."""
    if not is_available():
        warnings.warn('matplotlib is not installed on your environment, '
                      'so nothing will be plotted at this time. '
                      'Please install matplotlib to plot figures.\n\n'
                      '  $ pip install matplotlib\n')
    return _available
