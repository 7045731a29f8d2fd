"""An extension that stops training when parameters diverge."""

from chainer.training import extension


class FailOnNonNumber(extension.Extension):
    """Trainer extension that raises when a parameter holds NaN or Inf.

    It checks the parameters of the target of every optimizer and raises
    ``RuntimeError`` naming the optimizer at the first non-finite value,
    which ends the training loop.
    """

    def __call__(self, trainer):
        for name, optimizer in trainer.updater.get_all_optimizers().items():
            target = optimizer.target
            xp = target.xp
            for param in target.params():
                if not xp.isfinite(param.array).all():
                    raise RuntimeError(
                        'Kill the process since parameters in optimizer'
                        ' \'{}\' diverge. R.I.P.'.format(name))
