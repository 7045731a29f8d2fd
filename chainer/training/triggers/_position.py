"""Bookkeeping shared by the triggers that watch the updater's position."""

import warnings

_UNIT_ERROR = 'Trigger unit must be either \'epoch\' or \'iteration\'.'


def check_unit(unit):
    """Raises ``ValueError`` unless ``unit`` is 'epoch' or 'iteration'."""
    if unit not in ('epoch', 'iteration'):
        raise ValueError(_UNIT_ERROR)


class PositionTracker:
    """Remembers where the updater was when a trigger was last called.

    Subclasses update ``_previous_iteration`` and
    ``_previous_epoch_detail`` at each call. A negative value means
    "unknown" (loaded from an old snapshot without it): the updater's own
    previous position is used instead.
    """

    def __init__(self):
        self._previous_iteration = 0
        self._previous_epoch_detail = 0.

    def serialize_position(self, serializer, owner):
        """Saves or loads the remembered position.

        Args:
            serializer: The (de)serializer.
            owner (str): The trigger's class name, for the warnings.
        """
        try:
            self._previous_iteration = serializer(
                'previous_iteration', self._previous_iteration)
        except KeyError:
            warnings.warn(
                'The previous value of iteration is not saved. '
                '{} guesses it using current iteration. '
                'If this trigger is not called at every iteration, '
                'it may not work correctly.'.format(owner))
            self._previous_iteration = -1

        try:
            self._previous_epoch_detail = serializer(
                'previous_epoch_detail', self._previous_epoch_detail)
        except KeyError:
            warnings.warn(
                'The previous value of epoch_detail is not saved. '
                '{} uses the value of '
                'trainer.updater.previous_epoch_detail. '
                'If this trigger is not called at every iteration, '
                'it may not work correctly.'.format(owner))
            self._previous_epoch_detail = -1.
