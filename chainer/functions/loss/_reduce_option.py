"""The check of the ``reduce`` argument that the losses take."""


def check(reduce, valid, capitalize=False):
    """Raises :class:`ValueError` unless ``reduce`` is one of ``valid``.

    The message lists the valid values, as in ``only 'mean' and 'no' are
    valid for 'reduce', but 'sum' is given``.

    Args:
        reduce (str): The ``reduce`` argument given to a loss.
        valid (tuple of str): The values it may take.
        capitalize (bool): Whether the message starts with ``Only`` (those
            of :func:`~chainer.functions.huber_loss` and
            :func:`~chainer.functions.cross_covariance` do) instead of
            ``only``.
    """
    if reduce not in valid:
        names = ['\'%s\'' % value for value in valid]
        listed = ', '.join(names[:-1]) + ' and ' + names[-1]
        message = '{} {} are valid for \'reduce\', but \'%s\' is given'.format(
            'Only' if capitalize else 'only', listed)
        raise ValueError(message % reduce)
