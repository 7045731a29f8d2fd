"""The standard updater: one batch, one optimizer step."""

from chainer import backend
from chainer.dataset import convert
from chainer.dataset import iterator as iterator_module
from chainer.training import _updater
from chainer.utils import argument


class StandardUpdater(_updater.Updater):
    """StandardUpdater(iterator, optimizer, \
converter=convert.concat_examples, device=None, loss_func=None, \
loss_scale=None, auto_new_epoch=True, *, input_device=None)

    Updater that feeds a batch of the main iterator to the main optimizer.

    Each :meth:`update` takes the next batch of the ``'main'`` iterator,
    converts it with ``converter`` (sending it to ``input_device``) and
    calls ``optimizer.update(loss_func, *in_arrays)`` on the ``'main'``
    optimizer; a dict batch is passed as keyword arguments and anything
    else as one argument. Override :meth:`update_core` for other schemes.

    Args:
        iterator: The training iterator, or a dict of them by name; a
            single one is named ``'main'``.
        optimizer: The optimizer, or a dict of them by name; a single one
            is named ``'main'``.
        converter: Makes the arguments of the loss function from a batch
            and a device; :func:`~chainer.dataset.concat_examples` by
            default.
        device: Device specifier the models are sent to at construction;
            ``None`` leaves them where they are.
        loss_func: The loss function; the target link of the main
            optimizer by default.
        loss_scale (float): Loss scaling factor set to every optimizer.
        auto_new_epoch (bool): Call ``new_epoch(auto=True)`` on the main
            optimizer when the main iterator starts a new epoch (and set
            ``use_auto_new_epoch`` on every optimizer).
        input_device: Device specifier the batches are sent to; defaults
            to ``device``.

    Attributes:
        converter: The converter.
        loss_func: The loss function, or ``None``.
        iteration (int): The number of completed updates.
        auto_new_epoch (bool): See the argument.
    """

    def __init__(self, iterator, optimizer, converter=convert.concat_examples,
                 device=None, loss_func=None, loss_scale=None,
                 auto_new_epoch=True, **kwargs):
        input_device, = argument.parse_kwargs(
            kwargs, ('input_device', None))

        if device is not None:
            device = backend.get_device(device)
        if input_device is None:
            input_device = device
        else:
            input_device = backend.get_device(input_device)

        if isinstance(iterator, iterator_module.Iterator):
            iterator = {'main': iterator}
        self._iterators = iterator

        if not isinstance(optimizer, dict):
            optimizer = {'main': optimizer}
        self._optimizers = optimizer

        if device is not None:
            for opt in self._optimizers.values():
                opt.target.to_device(device)

        self.converter = converter
        self.loss_func = loss_func
        self.iteration = 0
        self._device = device
        self._input_device = input_device

        self.loss_scale = loss_scale
        if loss_scale is not None:
            for opt in self._optimizers.values():
                opt.set_loss_scale(loss_scale)

        self.auto_new_epoch = auto_new_epoch
        if auto_new_epoch:
            for opt in self._optimizers.values():
                opt.use_auto_new_epoch = True

    @property
    def device(self):
        """The device the models were sent to, or ``None``."""
        return self._device

    @property
    def input_device(self):
        """The device batches are sent to, or ``None``."""
        return self._input_device

    @property
    def epoch(self):
        """The epoch count of the main iterator."""
        return self._iterators['main'].epoch

    @property
    def epoch_detail(self):
        """The fractional epoch of the main iterator."""
        return self._iterators['main'].epoch_detail

    @property
    def previous_epoch_detail(self):
        """The fractional epoch of the main iterator before its last batch.
        """
        return self._iterators['main'].previous_epoch_detail

    @property
    def is_new_epoch(self):
        """Whether the main iterator's last batch ended an epoch."""
        return self._iterators['main'].is_new_epoch

    def finalize(self):
        """Finalizes every iterator."""
        for iterator in self._iterators.values():
            iterator.finalize()

    def get_optimizer(self, name):
        """Returns the optimizer of the given name."""
        return self._optimizers[name]

    def get_all_optimizers(self):
        """Returns a new dict of all optimizers by name."""
        return dict(self._optimizers)

    def get_iterator(self, name):
        """The iterator registered under ``name``."""
        return self._iterators[name]

    def update(self):
        """Runs :meth:`update_core` and counts the iteration."""
        self.update_core()
        self.iteration += 1

    def update_core(self):
        """Loads a batch and runs one step of the main optimizer."""
        iterator = self._iterators['main']
        batch = iterator.next()
        in_arrays = convert._call_converter(
            self.converter, batch, self.input_device)

        optimizer = self._optimizers['main']
        loss_func = self.loss_func or optimizer.target

        if isinstance(in_arrays, tuple):
            optimizer.update(loss_func, *in_arrays)
        elif isinstance(in_arrays, dict):
            optimizer.update(loss_func, **in_arrays)
        else:
            optimizer.update(loss_func, in_arrays)

        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def serialize(self, serializer):
        """Saves or loads the iterators, optimizers, models and iteration.

        Keys: ``iterator:<name>/...``, ``optimizer:<name>/...``,
        ``model:<name>/...`` and ``iteration``.
        """
        for name, iterator in self._iterators.items():
            iterator.serialize(serializer['iterator:' + name])

        for name, optimizer in self._optimizers.items():
            optimizer.serialize(serializer['optimizer:' + name])
            optimizer.target.serialize(serializer['model:' + name])

        self.iteration = serializer('iteration', self.iteration)
