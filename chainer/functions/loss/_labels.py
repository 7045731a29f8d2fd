"""The check of integer labels (class indexes) given to the losses."""

from chainer.functions.array import _index


def check_labels(labels, n_class, name, ignore_label=None, axis=None,
                 message=None):
    """Raises unless each label is a class, in ``[0, n_class)``, or ignored.

    A loss that gathers values with its labels would otherwise give a wrong
    number silently for a bad one: a negative label picks class
    ``n_class + label``. The labels are read back from their device.

    Args:
        labels (:ref:`ndarray`): The integer labels.
        n_class (int): The number of classes.
        name (str): The name of the labels in the messages.
        ignore_label (int): A label allowed besides the classes (that of
            ignored samples), or ``None``.
        axis (int): If given, a label that no index of an axis of
            ``n_class`` entries reaches (``label >= n_class`` or
            ``label < -n_class``) raises :class:`IndexError`, as indexing
            that axis with it does. Other bad labels raise
            :class:`ValueError`.
        message (str): The message of the :class:`ValueError`, in which
            ``{}`` stands for the first bad label; by default it names the
            labels, the valid ones and the first bad one.

    Raises:
        IndexError: A label out of the bounds of ``axis``.
        ValueError: Any other bad label.
    """
    first = _index.first_out_of_range(labels, n_class, ignore_label)
    if first is None:
        return
    if axis is not None:
        bad = (labels < 0) | (labels >= n_class)
        if ignore_label is not None:
            bad &= labels != ignore_label
        bad_labels = labels[bad]
        unreachable = bad_labels[
            (bad_labels >= n_class) | (bad_labels < -n_class)]
        if unreachable.size:
            raise IndexError(
                'index %d is out of bounds for axis %d with size %d'
                % (int(unreachable[0]), axis, n_class))
    if message is None:
        allowed = '0 <= {} < {}'.format(name, n_class)
        if ignore_label is not None:
            allowed += ' or {} == {}'.format(name, ignore_label)
        message = 'each label of %s must satisfy %s, but {} is given' % (
            name, allowed)
    raise ValueError(message.format(first))
