"""Trainer extensions: the base class, the decorator and the priorities."""

from chainer.utils import argument


PRIORITY_WRITER = 300
"""Priority of extensions that write values into the observation."""
PRIORITY_EDITOR = 200
"""Priority of extensions that edit values already in the observation."""
PRIORITY_READER = 100
"""Priority of extensions that only read the observation (the default)."""

_INVOKE_BEFORE_TRAINING_REMOVED = (
    'invoke_before_training has been removed since Chainer v2.0.0. '
    'Use initializer= instead.')


class Extension:
    """Base of every trainer extension.

    An extension is a callable that takes the
    :class:`~chainer.training.Trainer`; the trainer calls it after an
    update whenever its trigger fires. Besides subclassing this class, an
    extension can be any callable, optionally decorated with
    :func:`make_extension` to give it defaults.

    Attributes:
        trigger: The default trigger, ``(1, 'iteration')``.
        priority: The default priority, :data:`PRIORITY_READER`.
        ~Extension.name: The name the trainer registered it under; ``None``
            until :meth:`~chainer.training.Trainer.extend` sets it.
    """

    trigger = 1, 'iteration'
    priority = PRIORITY_READER
    name = None

    @property
    def default_name(self):
        """The name used when none is given: the class name."""
        return type(self).__name__

    def __call__(self, trainer):
        """Runs the extension.

        Args:
            trainer (~chainer.training.Trainer): The calling trainer.
        """
        raise NotImplementedError(
            'Extension implementation must override __call__.')

    def __getattr__(self, name):
        if name == 'invoke_before_training':
            raise AttributeError(
                'invoke_before_training has been removed since Chainer '
                'v2.0.0. Use Extension.initialize instead.')
        raise AttributeError('{} object has no attribute {}'.format(
            type(self).__name__, name))

    def finalize(self):
        """Releases resources at the end of the training loop."""

    def initialize(self, trainer):
        """Prepares the trainer state before the training loop starts.

        It also runs after a trainer is resumed from a snapshot, so an
        extension that changes the trainer (an optimizer's learning rate,
        say) restores its state here.

        Args:
            trainer (~chainer.training.Trainer): The trainer.
        """

    def on_error(self, trainer, exc, tb):
        """Handles an exception raised in the training loop.

        It is called before :meth:`finalize`.

        Args:
            trainer (~chainer.training.Trainer): The trainer.
            exc (Exception): The exception raised.
            tb: Its traceback.
        """

    def serialize(self, serializer):
        """Saves or loads the state of the extension; nothing by default."""


def make_extension(trigger=None, default_name=None, priority=None,
                   finalizer=None, initializer=None, on_error=None, **kwargs):
    """Decorator that turns a function into a trainer extension.

    It sets the attributes the trainer reads from an extension on the
    decorated function.

    Args:
        trigger: Default trigger, ``(1, 'iteration')`` if ``None``.
        default_name (str): Default name; the function's name if ``None``.
        priority (int): Default priority, :data:`PRIORITY_READER` if
            ``None``.
        finalizer: Called with no argument at the end of training.
        initializer: Called with the trainer before training.
        on_error: Called with ``(trainer, exc, tb)`` when training fails.

    Returns:
        The decorator.

    Example:
        >>> from chainer.training import make_extension
        >>> @make_extension(trigger=(1, 'epoch'))
        ... def show_epoch(trainer):
        ...     print(trainer.updater.epoch)
    """
    if kwargs:
        argument.check_unexpected_kwargs(
            kwargs, invoke_before_training=_INVOKE_BEFORE_TRAINING_REMOVED)
        argument.assert_kwargs_empty(kwargs)

    if trigger is None:
        trigger = Extension.trigger
    if priority is None:
        priority = Extension.priority

    def decorator(ext):
        ext.trigger = trigger
        ext.default_name = default_name or ext.__name__
        ext.priority = priority
        ext.finalize = finalizer
        ext.on_error = on_error
        ext.initialize = initializer
        return ext

    return decorator
