"""Warning about code whose results may differ from run to run."""

import warnings

from chainer import configuration


def nondeterministic(f_name):
    """Warns, if asked to, that non-deterministic code is running.

    The warning is shown only while ``chainer.config.warn_nondeterministic``
    is ``True``.

    Args:
        f_name (str): Name of the code, shown in the message.
    """
    if configuration.config.warn_nondeterministic:
        warnings.warn(
            'Potentially non-deterministic code is being executed while '
            'config.warn_nondeterministic set. Source: {}'.format(f_name))
