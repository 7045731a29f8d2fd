"""Extensions that put a value into the trainer's observation."""

from chainer.training import extension


def observe_value(observation_key, target_func):
    """Returns a trainer extension that records a value.

    The extension sets ``trainer.observation[observation_key]`` to
    ``target_func(trainer)``. It runs once per epoch by default, with
    :data:`~chainer.training.PRIORITY_WRITER`.

    Args:
        observation_key (str): The observation key.
        target_func: Takes the trainer and returns the value.

    Returns:
        The extension.
    """
    @extension.make_extension(
        trigger=(1, 'epoch'), priority=extension.PRIORITY_WRITER)
    def _observe_value(trainer):
        trainer.observation[observation_key] = target_func(trainer)

    return _observe_value


def observe_lr(optimizer_name='main', observation_key='lr'):
    """Returns a trainer extension that records an optimizer's ``lr``.

    Args:
        optimizer_name (str): The optimizer's name in the updater.
        observation_key (str): The observation key.

    Returns:
        The extension (see :func:`observe_value`).
    """
    return observe_value(
        observation_key,
        lambda trainer: trainer.updater.get_optimizer(optimizer_name).lr)
