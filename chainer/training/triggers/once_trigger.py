"""A trigger that fires once."""

import warnings


class OnceTrigger:
    """Trigger that fires at its first call only.

    Args:
        call_on_resume (bool): If ``True``, it fires once more at the first
            call after the trainer is resumed from a snapshot.
    """

    def __init__(self, call_on_resume=False):
        self._flag_first = True
        self._flag_resumed = call_on_resume

    @property
    def finished(self):
        """bool: Whether the trigger will not fire at its next call."""
        return not (self._flag_first or self._flag_resumed)

    def __call__(self, trainer):
        """Returns ``True`` at the first call, ``False`` after."""
        fire = not self.finished
        self._flag_resumed = False
        self._flag_first = False
        return fire

    def serialize(self, serializer):
        """Saves or loads whether it has fired."""
        try:
            self._flag_first = serializer('_flag_first', self._flag_first)
        except KeyError:
            warnings.warn(
                'The flag is not saved.'
                'OnceTrigger guess it is not first when resumed. '
                'If this trigger is resumed before first called, '
                'it may not work correctly.')
            self._flag_first = False
