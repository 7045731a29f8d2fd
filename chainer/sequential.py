"""Sequential: a model whose layers are called one after another."""

import copy
import inspect

from chainer import link as link_module


def _layer_str(layer):
    if isinstance(layer, link_module.Link):
        return str(layer)
    if getattr(layer, '__name__', None) == '<lambda>':
        try:
            return inspect.getsource(layer).strip().rstrip(',')
        except (OSError, TypeError):
            pass
    return repr(layer)


def _layer_type_name(layer):
    if isinstance(layer, link_module.Link):
        return layer.__class__.__name__
    return getattr(layer, '__name__', layer.__class__.__name__)


class Sequential(link_module.ChainList):
    """A model that calls its layers in order, each on the last output.

    Layers may be links or plain callables (functions, lambdas). A layer
    returning a tuple has it unpacked into the next layer's arguments.

    Args:
        *layers: The layers, in order.

    Example:
        >>> model = chainer.Sequential(
        ...     L.Linear(None, 100), F.relu, L.Linear(100, 10))
        >>> y = model(x)
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
        if i >= len(self._layers):
            raise ValueError(
                '{} should be less than {}'.format(i, len(self._layers)))
        del self[i]
        self.insert(i, layer)

    def __delitem__(self, i):
        layer = self._layers.pop(i)
        if isinstance(layer, link_module.Link):
            for j, child in enumerate(self._children):
                if child is layer:
                    del self._children[j]
                    break
            self._renumber()

    def __iter__(self):
        return iter(self._layers)

    def __reversed__(self):
        return reversed(self._layers)

    def __contains__(self, layer):
        return any(item is layer for item in self._layers)

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError('add (+) operator supports only objects of '
                             'Sequential class, but {} is given.'.format(
                                 type(other)))
        ret = Sequential()
        for layer in self:
            ret.append(layer)
        for layer in other:
            ret.append(layer)
        return ret

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError('add (+) operator supports only objects of '
                             'Sequential class, but {} is given.'.format(
                                 type(other)))
        for layer in other:
            self.append(layer)
        return self

    def __str__(self):
        if not self._layers:
            return 'Sequential()'
        lines = ['Sequential(']
        for i, layer in enumerate(self._layers):
            text = _layer_str(layer).split('\n')
            text = '\n'.join(['  ' + line for line in text]).lstrip()
            lines.append('  ({}): {},'.format(i, text))
        lines.append(')')
        return '\n'.join(lines)

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

    def _renumber(self):
        for i, child in enumerate(self._children):
            child.name = str(i)

    def append(self, layer):
        """Adds a layer at the end."""
        self.insert(len(self._layers), layer)

    def extend(self, sequential):
        """Adds the layers of another sequence at the end."""
        for layer in sequential:
            self.append(layer)

    def insert(self, i, layer):
        """Inserts a layer before position ``i``.

        Args:
            i (int): Position among the layers.
            layer: A link or a callable.
        """
        n = len(self._layers)
        if not -n <= i <= n:
            raise IndexError('Index out of range: {}'.format(i))
        if i < 0:
            i += n
        self._layers.insert(i, layer)
        if isinstance(layer, link_module.Link):
            position = sum(
                1 for item in self._layers[:i]
                if isinstance(item, link_module.Link))
            self._children.insert(position, layer)
            self._renumber()

    def remove(self, layer):
        """Removes the first occurrence of ``layer``."""
        for i, item in enumerate(self._layers):
            if item is layer:
                del self[i]
                return
        raise ValueError('{} is not in the list'.format(layer))

    def remove_by_layer_type(self, type_name):
        """Removes every layer whose type (or function) name matches.

        Args:
            type_name (str): A class name such as ``'Linear'`` or a function
                name such as ``'relu'``.
        """
        for i in reversed(range(len(self._layers))):
            if _layer_type_name(self._layers[i]) == type_name:
                del self[i]

    def pop(self, i=-1):
        """Removes and returns the layer at position ``i``."""
        layer = self._layers[i]
        del self[i]
        return layer

    def clear(self):
        """Removes all the layers."""
        for i in reversed(range(len(self._layers))):
            del self[i]

    def index(self, layer, start=None, end=None):
        """Returns the position of the first occurrence of ``layer``."""
        return self._layers[start:end].index(layer) + (start or 0)

    def count(self, layer):
        """Returns how many times ``layer`` occurs."""
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
