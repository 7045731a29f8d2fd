"""The training loop: Trainer, updaters, extensions and triggers."""

from chainer.training import extensions  # NOQA
from chainer.training import triggers  # NOQA
from chainer.training import updaters  # NOQA
from chainer.training import util  # NOQA

from chainer.training.extension import Extension  # NOQA
from chainer.training.extension import make_extension  # NOQA
from chainer.training.extension import PRIORITY_EDITOR  # NOQA
from chainer.training.extension import PRIORITY_READER  # NOQA
from chainer.training.extension import PRIORITY_WRITER  # NOQA
from chainer.training.trainer import Trainer  # NOQA
from chainer.training.trigger import get_trigger  # NOQA
from chainer.training.trigger import IntervalTrigger  # NOQA
from chainer.training.updater import ParallelUpdater  # NOQA
from chainer.training.updater import StandardUpdater  # NOQA
from chainer.training.updater import Updater  # NOQA
