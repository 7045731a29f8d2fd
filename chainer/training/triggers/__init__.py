"""Triggers: callables that tell the trainer when to act."""

from chainer.training.triggers.early_stopping_trigger import EarlyStoppingTrigger  # NOQA
from chainer.training.triggers.interval_trigger import IntervalTrigger  # NOQA
from chainer.training.triggers.manual_schedule_trigger import ManualScheduleTrigger  # NOQA
from chainer.training.triggers.minmax_value_trigger import BestValueTrigger  # NOQA
from chainer.training.triggers.minmax_value_trigger import MaxValueTrigger  # NOQA
from chainer.training.triggers.minmax_value_trigger import MinValueTrigger  # NOQA
from chainer.training.triggers.once_trigger import OnceTrigger  # NOQA
from chainer.training.triggers.time_trigger import TimeTrigger  # NOQA
