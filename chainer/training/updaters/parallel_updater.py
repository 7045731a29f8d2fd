"""Data-parallel updater over several devices of one machine."""

import copy

from chainer import backend
from chainer import configuration
from chainer.dataset import convert
from chainer.training.updaters import standard_updater


class ParallelUpdater(standard_updater.StandardUpdater):
    """Updater that splits each batch over several copies of the model.

    It is synchronous data-parallel SGD: the batch of the main iterator is
    split into as many strided sub-batches as there are models, each model
    computes the loss of its share on its device, the gradients of all
    models are summed into the main model, the main optimizer updates it,
    and its parameters are copied back to the other models.

    Any devices work, GPUs or the CPU.

    Args:
        iterator: The training iterator, or a dict of them.
        optimizer: The optimizer, or a dict of them; the target of the
            ``'main'`` one is the main model.
        converter: Makes the loss function's arguments from a sub-batch and
            its device.
        models (dict): The models by name, the main model under ``'main'``.
            If ``None``, they are deep copies of the main model, one per
            entry of ``devices``.
        devices (dict): The device specifier of each model by name;
            ``'main'`` is required when ``models`` is ``None``.
        loss_func: The loss function; each model by default.
        loss_scale (float): Loss scaling factor.
        auto_new_epoch (bool): Call ``new_epoch`` of the main optimizer at
            each new epoch of the main iterator.

    Raises:
        ValueError: If neither ``models`` nor ``devices`` is given.
        KeyError: If ``devices`` has no ``'main'`` entry.
    """

    def __init__(self, iterator, optimizer, converter=convert.concat_examples,
                 models=None, devices=None, loss_func=None, loss_scale=None,
                 auto_new_epoch=True):
        super().__init__(
            iterator=iterator, optimizer=optimizer, converter=converter,
            loss_func=loss_func, loss_scale=loss_scale,
            auto_new_epoch=auto_new_epoch)

        if models is None:
            if devices is None:
                raise ValueError('either models or devices must be specified')
            if 'main' not in devices:
                raise KeyError('\'devices\' must contain a \'main\' key.')
            main_model = optimizer.target
            models = {'main': main_model}
            for name, device in devices.items():
                if name != 'main':
                    model = copy.deepcopy(main_model)
                    model.to_device(device)
                    models[name] = model
            main_model.to_device(devices['main'])

        self._devices = devices
        self._models = models

    def connect_trainer(self, trainer):
        """Registers the non-main models to the trainer's reporter."""
        main_model = self.get_optimizer('main').target
        for name, model in self._models.items():
            if model is not main_model:
                trainer.reporter.add_observer(name, model)

    def update_core(self):
        """Computes the gradients of all shares, then updates the main
        model and copies its parameters to the others."""
        optimizer = self.get_optimizer('main')
        main_model = optimizer.target
        other_models = [model for model in self._models.values()
                        if model is not main_model]

        iterator = self.get_iterator('main')
        batch = iterator.next()

        n_models = len(self._models)
        in_arrays_list = {
            name: self.converter(batch[i::n_models], self._devices[name])
            for i, name in enumerate(self._models)}

        for model in self._models.values():
            model.cleargrads()

        losses = []
        for name, model in self._models.items():
            in_arrays = in_arrays_list[name]
            loss_func = self.loss_func or model
            with configuration.using_config('enable_backprop', True), \
                    backend.using_device(self._devices[name]):
                if isinstance(in_arrays, tuple):
                    loss = loss_func(*in_arrays)
                elif isinstance(in_arrays, dict):
                    loss = loss_func(**in_arrays)
                else:
                    loss = loss_func(in_arrays)
            losses.append(loss)

        # Parameters initialized lazily in the forward pass need clearing.
        for model in self._models.values():
            model.cleargrads()

        for loss in losses:
            loss.backward(loss_scale=self.loss_scale)

        for model in other_models:
            main_model.addgrads(model)

        optimizer.update()

        for model in other_models:
            model.copyparams(main_model)

        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)
