"""The interface of updaters."""


class Updater:
    """Interface of the objects that run one training iteration.

    An updater fetches a minibatch, computes the loss and its gradients and
    updates the parameters in :meth:`update`. The trainer reads the
    progress counters (``iteration``, ``epoch``, ``epoch_detail``,
    ``previous_epoch_detail``, ``is_new_epoch``) from it.
    """

    def connect_trainer(self, trainer):
        """Called at the end of the trainer's initialization.

        An updater may register further observers to ``trainer.reporter``
        here. It does nothing by default.

        Args:
            trainer (~chainer.training.Trainer): The trainer.
        """

    def finalize(self):
        """Releases the resources of the updater at the end of training."""
        raise NotImplementedError

    def get_optimizer(self, name):
        """Returns the optimizer of the given name."""
        raise NotImplementedError

    def get_all_optimizers(self):
        """Returns a dictionary of all optimizers by name."""
        raise NotImplementedError

    def update(self):
        """Runs one iteration: load a batch, compute, update parameters."""
        raise NotImplementedError

    def serialize(self, serializer):
        """Saves or loads the state of the updater."""
        raise NotImplementedError
