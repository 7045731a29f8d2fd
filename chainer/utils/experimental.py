"""Marking experimental APIs."""

import warnings

import chainer


def experimental(api_name):
    """Warns that an API is experimental and may change.

    The warning (a :class:`FutureWarning`) is not shown while
    ``chainer.disable_experimental_feature_warning`` is ``True``.

    Args:
        api_name (str): Name of the API, shown in the message.
    """
    if not chainer.disable_experimental_feature_warning:
        warnings.warn(
            '{} is experimental. The interface can change in the '
            'future.'.format(api_name), FutureWarning)
