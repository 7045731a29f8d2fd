"""An iterator over an NVIDIA DALI pipeline."""

import warnings

import chainer
from chainer.dataset import iterator
from chainer.iterators import _statemachine


class DaliIterator(iterator.Iterator):
    """Iterator returning the outputs of an NVIDIA DALI pipeline.

    The pipeline (a ``nvidia.dali.pipeline.Pipeline``) is built at the first
    ``next``; each ``next`` returns the result of ``pipeline.run()``. The
    epoch size is the pipeline's (the first value of
    ``pipeline.epoch_size()``) and the batch size is
    ``pipeline.batch_size``.

    .. warning::
        This feature is experimental: its interface may still change.

    Args:
        pipeline: The DALI pipeline.
        repeat (bool): Whether to go on past the first epoch.
    """

    def __init__(self, pipeline, repeat=True):
        if not getattr(chainer, 'disable_experimental_feature_warning',
                       False):
            warnings.warn('DaliIterator is experimental. '
                          'The interface can change in the future.',
                          FutureWarning)
        self.pipeline = pipeline
        self._repeat = repeat
        self._is_build = False
        self.epoch_size = 1  # replaced by the pipeline's once it is built
        self.reset()

    def __next__(self):
        if not self._is_build:
            self.pipeline.build()
            self._is_build = True
            self.epoch_size = tuple(self.pipeline.epoch_size().values())[0]
        if not self._repeat and self.epoch > 0:
            raise StopIteration
        self._previous_epoch_detail = self.epoch_detail
        end = self.current_position + self.batch_size
        if end >= self.epoch_size:
            self.current_position = end - self.epoch_size if self._repeat \
                else 0
            self.epoch += 1
            self.is_new_epoch = True
        else:
            self.current_position = end
            self.is_new_epoch = False
        return self.pipeline.run()

    next = __next__

    @property
    def batch_size(self):
        """int: The pipeline's batch size."""
        return self.pipeline.batch_size

    @property
    def repeat(self):
        """bool: Whether the iterator goes on past the first epoch."""
        return self._repeat

    @property
    def epoch_detail(self):
        """float: The number of epochs done, with its fractional part."""
        return self.epoch + self.current_position / self.epoch_size

    @property
    def previous_epoch_detail(self):
        """float: The epoch detail before the last batch (``None`` before
        the first)."""
        if self._previous_epoch_detail < 0:
            return None
        return self._previous_epoch_detail

    def reset(self):
        """Goes back to the start of the first epoch."""
        self.current_position = 0
        self.epoch = 0
        self.is_new_epoch = False
        self._previous_epoch_detail = -1.

    def serialize(self, serializer):
        """Saves or loads the position of the iterator.

        Args:
            serializer (~chainer.AbstractSerializer): The serializer.
        """
        self.current_position = serializer(
            'current_position', self.current_position)
        self.epoch = serializer('epoch', self.epoch)
        self.is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        self._previous_epoch_detail = \
            _statemachine.load_previous_epoch_detail(
                serializer, self, self.epoch_size)
