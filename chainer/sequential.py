"""Sequential: a model whose layers are called one after another."""

import copy
import inspect

from chainer import link as link_module


def _layer_type_name(layer):
    if isinstance(layer, link_module.Link):
        return layer.__class__.__name__
    return layer.__name__


def _check_callable(layer, message):
    if not callable(layer):
        raise ValueError(message.format(layer))


def _is_lambda(layer):
    return getattr(layer, '__name__', None) == '<lambda>'


class Sequential(link_module.ChainList):
    """A model that calls its layers in order, each on the last output.

    Layers may be links or plain callables (functions, lambdas). A layer
    returning a tuple has it unpacked into the next layer's arguments. The
    links among the layers are the children of the model (it is a
    :class:`~chainer.ChainList`), named by their position among the
    children.

    .. note::
       As in Chainer, a link inserted after the first one is placed right
       after the first link among the children, so with three or more links
       the child names (and the keys of saved models) do not follow the
       order of the layers: ``Sequential(a, b, c)`` names ``a``, ``c``,
       ``b`` as ``'0'``, ``'1'``, ``'2'``.

    Args:
        *layers: The layers, in order.

    Example:
        >>> model = chainer.Sequential(
        ...     L.Linear(None, 100), F.relu, L.Linear(100, 10))
        >>> x = numpy.ones((2, 3), numpy.float32)
        >>> model(x).shape
        (2, 10)
    """

    def __init__(self, *layers):
        super().__init__()
        self._layers = []
        for layer in layers:
            self.append(layer)

    def __len__(self):
        return len(self._layers)

    def __getitem__(self, i):
        return self._layers[i]

    def __setitem__(self, i, layer):
        if i >= len(self):
            raise ValueError('{} should be less than {}'.format(i, len(self)))
        _check_callable(
            layer, 'All elements of a Sequential class should be callable. '
            'But given {} is not callable.')
        if self._layers[i] is not layer:
            del self[i]
            self.insert(i, layer)

    def __delitem__(self, i):
        layer = self._layers.pop(i)
        if not isinstance(layer, link_module.Link):
            return
        children = self._children
        position = i
        for position, child in enumerate(children):
            if child.name == layer.name:
                del children[position]
                break
        for j, child in enumerate(children[position:]):
            child.name = str(position + j)

    def __iter__(self):
        return iter(self._layers)

    def __reversed__(self):
        return reversed(self._layers)

    def __contains__(self, item):
        return item in self._layers

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(
                'add (+) operator supports only objects of Sequential class, '
                'but {} is given.'.format(type(other)))
        ret = Sequential()
        ret.extend(self)
        ret.extend(other)
        return ret

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(
                'add (+) operator supports only objects of Sequential class, '
                'but {} is given.'.format(type(other)))
        self.extend(other)
        return self

    def __reduce__(self):
        if any(_is_lambda(layer) for layer in self._layers):
            raise ValueError(
                'This Sequential object has at least one lambda function as '
                'its component. Lambda function can not be pickled, so please '
                'consider to use functools.partial instead of the lambda '
                'function or use "dill", which is an external package that '
                'enables pickling an object including lambda functions intead '
                'of built-in pickle.')
        return super().__reduce__()

    def __str__(self):
        return link_module._container_str(self, (
            (i, inspect.getsource(layer).strip().rstrip(',')
             if _is_lambda(layer) else str(layer))
            for i, layer in enumerate(self._layers)))

    def forward(self, *x):
        """Calls the layers in order.

        Args:
            *x: The inputs of the first layer.

        Returns:
            The output of the last layer.
        """
        if not self._layers:
            raise RuntimeError('Sequential does not have any layer.')
        for layer in self._layers:
            if isinstance(x, tuple):
                x = layer(*x)
            else:
                x = layer(x)
        return x

    def append(self, layer):
        """Adds a layer at the end."""
        self.insert(len(self), layer)

    def extend(self, sequential):
        """Adds the layers of another sequence at the end."""
        for layer in sequential:
            self.append(layer)

    def insert(self, i, layer):
        """Inserts a layer before position ``i``.

        A link becomes the first child when inserted at position 0 and,
        otherwise, the child right after the first link found before ``i``
        (see the note of the class).

        Args:
            i (int): Position among the layers.
            layer: A link or a callable.
        """
        n = len(self._layers)
        if not -n <= i <= n:
            raise IndexError('Index out of range: {}'.format(i))
        if i < 0:
            i += n
        _check_callable(
            layer, 'All elements of the argument should be callable. But '
            'given {} is not callable.')
        self._layers.insert(i, layer)
        if not isinstance(layer, link_module.Link):
            return
        if i == 0:
            self._children.insert(0, layer)
        else:
            first_link = next(
                (j for j in range(i) if isinstance(
                    self._layers[j], link_module.Link)), 0)
            self._children.insert(first_link + 1, layer)
        self._rename_children()

    def remove(self, layer):
        """Removes the first layer equal to ``layer``."""
        if layer not in self:
            raise ValueError(
                'There is no layer object that is same as {}'.format(layer))
        del self[self.index(layer)]

    def remove_by_layer_type(self, type_name):
        """Removes every layer whose type (or function) name matches.

        Args:
            type_name (str): A class name such as ``'Linear'`` or a function
                name such as ``'relu'``.
        """
        for layer in [layer for layer in self
                      if _layer_type_name(layer) == type_name]:
            self.remove(layer)

    def pop(self, i=-1):
        """Removes and returns the layer at position ``i``."""
        layer = self._layers[i]
        del self[i]
        return layer

    def clear(self):
        """Removes the layers.

        As in Chainer, only every other child link is unregistered (the
        children are deleted while being iterated over).
        """
        children = self._children
        i = 0
        while i < len(children):
            del children[i]
            i += 1
        self._layers = []

    def index(self, layer, start=None, end=None):
        """Returns the position of ``layer`` within ``self[start:end]``."""
        return self._layers[start:end].index(layer)

    def count(self, layer):
        """Returns how many layers are equal to ``layer``."""
        return self._layers.count(layer)

    def count_by_layer_type(self, type_name):
        """Returns how many layers have the given type (or function) name.
        """
        return sum(1 for layer in self._layers
                   if _layer_type_name(layer) == type_name)

    def copy(self, mode='share'):
        """Copies the model; links are copied with ``mode``.

        Args:
            mode (str): ``'share'``, ``'copy'`` or ``'init'``, as in
                :meth:`chainer.Link.copy`.
        """
        ret = Sequential()
        for layer in self:
            if isinstance(layer, link_module.Link):
                ret.append(layer.copy(mode))
            else:
                ret.append(copy.copy(layer))
        return ret

    def copyparams(self, link, copy_persistent=True):
        """Copies the parameters of another Sequential of the same layout.
        """
        if not isinstance(link, Sequential):
            raise ValueError('Objects other than Sequential object cannot '
                             'be copied to a Sequential object.')
        for i, layer in enumerate(self._layers):
            if isinstance(layer, link_module.Link):
                layer.copyparams(link[i], copy_persistent)

    def flatten(self):
        """Returns a Sequential with nested Sequentials expanded in place.
        """
        ret = Sequential()
        for layer in self:
            if isinstance(layer, Sequential):
                ret.extend(layer.flatten())
            else:
                ret.append(layer)
        return ret
