"""Links: building blocks of models that own parameters.

A :class:`Link` holds parameters and persistent values; a :class:`Chain`
holds named child links; a :class:`ChainList` holds them in a list. Calling
a link runs its ``forward`` method, wrapped by the link hooks.
"""

import collections
import contextlib
import copy
import warnings

import numpy

from chainer import backend
from chainer import device_resident
from chainer import initializers
from chainer import link_hook
from chainer.utils import collections_abc
from chainer import variable


def _is_shape(value):
    # As in Chainer, a sequence is a shape when all its entries convert to
    # nonzero integers; a scalar when it converts to an integer.
    if value is None:
        return True
    if isinstance(value, collections_abc.Sequence):
        try:
            return all(int(x) for x in value)
        except TypeError:
            return False
    try:
        int(value)
    except TypeError:
        return False
    return True


def _ensure_shape_dtype(value):
    # A parameter given to Link(**params): a shape or (shape, dtype).
    if _is_shape(value):
        return value, numpy.float32
    return value


_COPY_MODES = ('init', 'copy', 'share')


def _check_copy_mode(mode):
    if mode not in _COPY_MODES:
        raise ValueError(
            'The \'mode\' argument should be either \'init\','
            '\'copy\', or \'share\'. But {} was given.'.format(mode))


class Link(device_resident.DeviceResident):
    """Building block of a model: holds parameters and persistent values.

    Parameters are registered by assigning :class:`~chainer.Parameter`
    objects to attributes inside :meth:`init_scope`; persistent values
    (arrays or scalars saved with the model but not trained, such as
    running statistics) with :meth:`add_persistent`. Calling the link calls
    its ``forward`` method.

    Args:
        **params: Deprecated: names and shapes (or ``(shape, dtype)``) of
            parameters to create.

    Attributes:
        name (str): Name of the link within its parent, or ``None``.

    Example:
        >>> class Scale(chainer.Link):
        ...     def __init__(self, n):
        ...         super().__init__()
        ...         with self.init_scope():
        ...             self.w = chainer.Parameter(1.0, (n,))
        ...     def forward(self, x):
        ...         return x * self.w
    """

    _local_link_hooks = None
    # Name-mangled (``_Link__init_done`` in ``__dict__``) as in Chainer, so
    # that pickles of links load in either library.
    __init_done = False
    # Whether a class after Link in the MRO (a mixin) defines __call__.
    _injected_call = False

    def __init__(self, **params):
        super().__init__()
        self._params = set()
        self._persistent = set()
        self._within_init_scope = False
        self.name = None
        self.__init_done = True
        for name, value in params.items():
            shape, dtype = _ensure_shape_dtype(value)
            self.add_param(name, shape, dtype=dtype)

    def _check_init_done(self):
        if not self.__init_done:
            raise RuntimeError('Link.__init__() has not been called.')

    def __setattr__(self, name, value):
        if self.__dict__.get('_within_init_scope', False) \
                and isinstance(value, variable.Parameter):
            value.name = name
            self._params.add(name)
            self._persistent.discard(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        params = self.__dict__.get('_params')
        if params is not None:
            params.discard(name)
            self._persistent.discard(name)
        super().__delattr__(name)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        mro = cls.__mro__
        cls._injected_call = any(
            '__call__' in vars(base) for base in mro[mro.index(Link) + 1:])

    def __call__(self, *args, **kwargs):
        """Runs the link's ``forward`` on the arguments, with its hooks.

        The link hooks in force (those of a ``with hook:`` block and those
        added by :meth:`add_hook`) see the call before and after
        ``forward``. Where a class after :class:`Link` in the method
        resolution order of the link (a mixin) defines ``__call__``, that
        method runs instead of ``forward``.

        Returns:
            What ``forward`` returns.
        """
        if not self.__init_done:
            self._check_init_done()
        # A ``__call__`` injected by a mixin class after Link in the MRO
        # takes precedence over ``forward``.
        if self._injected_call:
            forward = super().__call__
        else:
            forward = self.forward
        hooks = link_hook._get_link_hooks()
        if self._n_local_link_hooks:
            hooks = collections.OrderedDict(hooks)
            hooks.update(self._local_link_hooks)
        if not hooks:
            return forward(*args, **kwargs)
        hooks = list(hooks.values())
        pre_args = link_hook._ForwardPreprocessCallbackArgs(
            self, 'forward', args, kwargs)
        for hook in hooks:
            hook.forward_preprocess(pre_args)
        out = forward(*args, **kwargs)
        post_args = link_hook._ForwardPostprocessCallbackArgs(
            self, 'forward', args, kwargs, out)
        for hook in hooks:
            hook.forward_postprocess(post_args)
        return out

    # Printing ----------------------------------------------------------

    @property
    def printable_specs(self):
        """Yields ``(name, value)`` pairs shown by ``str(link)``."""
        return iter(())

    def __str__(self):
        specs = ', '.join(
            '{}={}'.format(key, value) for key, value in self.printable_specs)
        return '{}({})'.format(self.__class__.__name__, specs)

    # Registration ------------------------------------------------------

    @property
    def within_init_scope(self):
        """Whether the link is inside its :meth:`init_scope` block."""
        return self.__dict__.get('_within_init_scope', False)

    @contextlib.contextmanager
    def init_scope(self):
        """Registers parameters (and child links) assigned in the block.

        In the ``__init__`` of a link::

            with self.init_scope():
                self.W = chainer.Parameter(initializer, (3, 4))
        """
        self._check_init_done()
        old = self._within_init_scope
        self._within_init_scope = True
        try:
            yield
        finally:
            self._within_init_scope = old

    def add_param(self, name, shape=None, dtype=numpy.float32,
                  initializer=None):
        """Registers a new parameter (prefer :meth:`init_scope`).

        Args:
            name (str): Attribute name of the parameter.
            shape (int or tuple of int): Its shape; ``None`` leaves it
                uninitialized.
            dtype: The parameter's dtype.
            initializer: Initializer of the array; NaN-filled if ``None``.
        """
        self._check_init_done()
        if name in self.__dict__:
            raise AttributeError(
                'cannot register a new parameter {}: attribute exists'
                .format(name))
        if initializer is None:
            initializer = initializers.NaN(dtype)
        param = variable.Parameter(initializer, shape)
        with self.init_scope():
            setattr(self, name, param)

    def add_persistent(self, name, value):
        """Registers a value saved with the link but not trained.

        Args:
            name (str): Attribute name.
            value: An array or any serializable value.
        """
        d = self.__dict__
        if name in d:
            raise AttributeError(
                'cannot register a new persistent value {}: attribute '
                'exists'.format(name))
        self._persistent.add(name)
        self._params.discard(name)
        d[name] = value

    def register_persistent(self, name):
        """Marks an existing attribute as a persistent value.

        Args:
            name (str): Attribute name.
        """
        if not hasattr(self, name):
            raise AttributeError(
                'cannot register non-existent attribute {} as a persistent '
                'value'.format(name))
        self._persistent.add(name)
        self._params.discard(name)

    @classmethod
    def from_params(cls, *args, **kwargs):
        """Makes a link from given parameter arrays (where supported)."""
        raise NotImplementedError(
            'This link does not implement `from_params`.')

    # Copy --------------------------------------------------------------

    def copy(self, mode='share'):
        """Copies the link (and, in a chain, its children).

        Args:
            mode (str): ``'share'`` shares the parameter arrays (gradients
                are not shared), ``'copy'`` copies them, ``'init'`` makes
                fresh arrays with the initializers.

        Returns:
            Link: The copy. A shared copy has ``name`` unset; a deep copy
            keeps it.
        """
        _check_copy_mode(mode)
        if mode == 'share':
            ret = copy.copy(self)
            ret._params = set(self._params)
            ret._persistent = set(self._persistent)
            ret.name = None
            d = ret.__dict__
            for name in ret._params:
                shared = copy.copy(d[name])
                shared.grad = None
                d[name] = shared
            return ret
        if mode == 'copy':
            return copy.deepcopy(self)
        ret = copy.deepcopy(self)
        for param in ret.params(include_uninit=False):
            param.initialize(param.shape)
        return ret

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        d = self.__dict__
        for name in self._params:
            visitor.visit_variable(d[name])
        for name in self._persistent:
            value = d[name]
            if device_resident._is_array(value):
                d[name] = visitor.visit_array(value)

    @property
    def _device_id(self):
        warnings.warn(
            'Link._device_id is left only for backward compatibility and '
            'likely to be removed. Use Link.device instead.',
            DeprecationWarning)
        device = self.device
        if device.xp is numpy:
            return None
        return device.device.id

    # Traversal ---------------------------------------------------------

    def params(self, include_uninit=True):
        """Yields the parameters of the link (and of its descendants).

        Args:
            include_uninit (bool): Whether to include uninitialized ones.
        """
        d = self.__dict__
        for name in sorted(self._params):
            if include_uninit or d[name].array is not None:
                yield d[name]

    def namedparams(self, include_uninit=True):
        """Yields ``(path, parameter)`` pairs, paths like ``'/l1/W'``.

        Args:
            include_uninit (bool): Whether to include uninitialized ones.
        """
        d = self.__dict__
        for name in sorted(self._params):
            if include_uninit or d[name].array is not None:
                yield '/' + name, d[name]

    def links(self, skipself=False):
        """Yields the link and all its descendants.

        Args:
            skipself (bool): Whether to leave out the link itself.
        """
        if not skipself:
            yield self

    def namedlinks(self, skipself=False):
        """Yields ``(path, link)`` pairs; the link itself is ``'/'``.

        Args:
            skipself (bool): Whether to leave out the link itself.
        """
        if not skipself:
            yield '/', self

    def children(self):
        """Yields the direct child links."""
        return iter(())

    # Parameters as a whole ---------------------------------------------

    def copyparams(self, link, copy_persistent=True):
        """Copies the parameter values of another link of the same shape.

        Args:
            link (Link): The source link.
            copy_persistent (bool): Whether to copy persistent values too.
        """
        src = link.__dict__
        dst = self.__dict__
        for name in self._params:
            dst[name].copydata(src[name])
        if copy_persistent:
            for name in self._persistent:
                d = dst[name]
                s = src[name]
                if device_resident._is_array(d) \
                        and device_resident._is_array(s):
                    backend.copyto(d, s)
                else:
                    dst[name] = copy.deepcopy(s)

    def cleargrads(self):
        """Clears the gradients of all parameters."""
        for param in self.params():
            param.cleargrad()

    def zerograds(self):
        """Fills the gradients with zeros (deprecated; use cleargrads)."""
        warnings.warn(
            'Link.zerograds is deprecated. Use Link.cleargrads instead.',
            DeprecationWarning)
        for param in self.params():
            param.zerograd()

    def addgrads(self, link):
        """Adds the gradients of another link of the same structure.

        Args:
            link (Link): The source link.
        """
        src = link.__dict__
        dst = self.__dict__
        for name in self._params:
            dst[name].addgrad(src[name])

    def enable_update(self):
        """Lets optimizers update the parameters again."""
        for param in self.params():
            rule = param.update_rule
            if rule is not None:
                rule.enabled = True

    def disable_update(self):
        """Keeps optimizers from updating the parameters."""
        for param in self.params():
            rule = param.update_rule
            if rule is not None:
                rule.enabled = False

    @property
    def update_enabled(self):
        """Whether some parameter of the link is updated by its optimizer.
        """
        for param in self.params():
            rule = param.update_rule
            if rule is not None and rule.enabled:
                return True
        return False

    def serialize(self, serializer):
        """Saves or loads the parameters and persistent values.

        Args:
            serializer (~chainer.AbstractSerializer): A serializer or a
                deserializer.
        """
        d = self.__dict__
        for name in sorted(self._params):
            param = d[name]
            data = serializer(name, param.array)
            if param.array is None and data is not None:
                param.initialize(data.shape)
                backend.copyto(param.array, data)
        for name in sorted(self._persistent):
            d[name] = serializer(name, d[name])

    def repeat(self, n_repeat, mode='init'):
        """Returns a :class:`~chainer.Sequential` of copies of the link.

        Args:
            n_repeat (int): Number of copies.
            mode (str): Copy mode, as in :meth:`copy`; ``'init'`` by
                default.
        """
        from chainer import sequential
        ret = sequential.Sequential()
        if n_repeat <= 0:
            return ret
        _check_copy_mode(mode)
        for _ in range(n_repeat):
            ret.append(self.copy(mode))
        return ret

    def count_params(self):
        """Returns the number of elements of all initialized parameters."""
        size = 0
        for name, param in self.namedparams():
            if param.array is None:
                warnings.warn(
                    'Parameter \'{}\' has not been initialized, so the '
                    'resulting count will not include the number of '
                    'parameters in it.'.format(name))
                continue
            size += param.size
        return size

    # Hooks -------------------------------------------------------------

    @property
    def local_link_hooks(self):
        """Ordered dictionary of the hooks registered on this link only."""
        hooks = self._local_link_hooks
        if hooks is None:
            hooks = collections.OrderedDict()
            self._local_link_hooks = hooks
        return hooks

    @property
    def _n_local_link_hooks(self):
        hooks = self._local_link_hooks
        return 0 if hooks is None else len(hooks)

    def add_hook(self, hook, name=None):
        """Registers a link hook on this link.

        Args:
            hook (~chainer.LinkHook): The hook.
            name (str): Its key; ``hook.name`` by default.

        Returns:
            Link: The link itself.
        """
        if not isinstance(hook, link_hook.LinkHook):
            raise TypeError('Hook must be of type LinkHook')
        if name is None:
            name = hook.name
        hooks = self.local_link_hooks
        if name in hooks:
            raise KeyError('Hook {} already exists'.format(name))
        hooks[name] = hook
        hook.added(self)
        return self

    def delete_hook(self, name):
        """Unregisters a hook added by :meth:`add_hook`.

        Args:
            name (str): Key of the hook.
        """
        hooks = self.local_link_hooks
        if name not in hooks:
            raise KeyError('Hook {} does not exist'.format(name))
        hooks[name].deleted(self)
        del hooks[name]


def _container_str(container, items):
    """Formats ``Name(\n  (key): item,\n  ...)``; ``Name()`` when empty.

    Args:
        container: The link being printed; its class names the text.
        items: ``(key, text)`` pairs, one per child.
    """
    lines = []
    for key, text in items:
        entry = '({}): {},'.format(key, text)
        lines.extend('  {}\n'.format(line) for line in entry.splitlines())
    body = ''.join(lines)
    if body:
        body = '\n' + body
    return '{}({})'.format(container.__class__.__name__, body)


class Chain(Link):
    """A link made of named child links.

    Child links are registered by assigning them to attributes inside
    :meth:`init_scope`.

    Args:
        **links: Deprecated: child links by name.

    Example:
        >>> class MLP(chainer.Chain):
        ...     def __init__(self):
        ...         super().__init__()
        ...         with self.init_scope():
        ...             self.l1 = L.Linear(None, 100)
        ...             self.l2 = L.Linear(100, 10)
        ...     def forward(self, x):
        ...         return self.l2(F.relu(self.l1(x)))
    """

    def __init__(self, **links):
        super().__init__()
        self._children = set()
        for name, link in links.items():
            self.add_link(name, link)

    def __str__(self):
        return _container_str(
            self, ((child.name, str(child)) for child in self.children()))

    def __getitem__(self, name):
        """Returns the child link of the given name."""
        return getattr(self, name)

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Link):
            if hasattr(self, name):
                raise AttributeError(
                    'cannot register a new link {}: attribute exists'
                    .format(name))
            value.name = name
            self._children.add(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        children = self.__dict__.get('_children')
        if children is not None:
            children.discard(name)
        super().__delattr__(name)

    def add_link(self, name, link):
        """Registers a child link (prefer :meth:`init_scope`).

        Args:
            name (str): Attribute name of the child.
            link (Link): The child.
        """
        if name in self.__dict__:
            raise AttributeError(
                'cannot register a new link {}: attribute exists'.format(
                    name))
        if not isinstance(link, Link):
            raise TypeError('cannot register a non-link object as a child')
        with self.init_scope():
            setattr(self, name, link)

    def copy(self, mode='share'):
        ret = super().copy(mode)
        ret._children = set(ret._children)
        d = ret.__dict__
        for name in ret._children:
            copied = d[name].copy(mode)
            copied.name = name
            d[name] = copied
        return ret

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        d = self.__dict__
        for name in self._children:
            d[name].device_resident_accept(visitor)

    def params(self, include_uninit=True):
        yield from super().params(include_uninit)
        d = self.__dict__
        for name in sorted(self._children):
            yield from d[name].params(include_uninit)

    def namedparams(self, include_uninit=True):
        yield from super().namedparams(include_uninit)
        d = self.__dict__
        for name in sorted(self._children):
            prefix = '/' + name
            for path, param in d[name].namedparams(include_uninit):
                yield prefix + path, param

    def links(self, skipself=False):
        if not skipself:
            yield self
        d = self.__dict__
        for name in sorted(self._children):
            yield from d[name].links()

    def namedlinks(self, skipself=False):
        if not skipself:
            yield '/', self
        d = self.__dict__
        for name in sorted(self._children):
            child = d[name]
            prefix = '/' + name
            yield prefix, child
            for path, link in child.namedlinks(True):
                yield prefix + path, link

    def children(self):
        d = self.__dict__
        for name in sorted(self._children):
            yield d[name]

    def copyparams(self, link, copy_persistent=True):
        super().copyparams(link, copy_persistent)
        src = link.__dict__
        dst = self.__dict__
        for name in self._children:
            dst[name].copyparams(src[name], copy_persistent)

    def addgrads(self, link):
        super().addgrads(link)
        src = link.__dict__
        dst = self.__dict__
        for name in self._children:
            dst[name].addgrads(src[name])

    def serialize(self, serializer):
        super().serialize(serializer)
        d = self.__dict__
        for name in sorted(self._children):
            d[name].serialize(serializer[name])


class ChainList(Link, collections_abc.MutableSequence):
    """A link made of a list of child links.

    A ChainList is a mutable sequence of links: it supports indexing and
    slicing (also in assignment and ``del``), ``len``, ``in``, ``index``,
    ``count``, ``append``, ``insert``, ``extend``, ``pop``, ``remove``,
    ``reverse`` and ``+=``. The name of each child is its position.

    Args:
        *links: The initial child links.
    """

    def __init__(self, *links):
        super().__init__()
        self._children = []
        for link in links:
            self.add_link(link)

    def __str__(self):
        return _container_str(
            self, ((i, str(child)) for i, child in enumerate(self._children)))

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Link):
            raise TypeError(
                'cannot register a new link within a "with chainlist.'
                'init_scope():" block.')
        super().__setattr__(name, value)

    def __setitem__(self, index, value):
        if isinstance(index, int):
            value.name = str(index)
            self._children[index] = value
        elif isinstance(index, slice):
            self._children[index] = value
            self._rename_children()
        else:
            raise TypeError(
                'ChainList indices must be integers or slices, not {}'.format(
                    type(index).__name__))

    def __getitem__(self, index):
        """Returns the child link (or a list of them for a slice)."""
        return self._children[index]

    def __delitem__(self, index):
        del self._children[index]
        self._rename_children()

    def __iter__(self):
        return iter(self._children)

    def __len__(self):
        return len(self._children)

    def _rename_children(self):
        for i, child in enumerate(self._children):
            child.name = str(i)

    def insert(self, index, link):
        """Inserts a child link before position ``index``.

        Args:
            index (int): Position.
            link (Link): The child.
        """
        if index == len(self._children):
            self._children.append(link)
            link.name = str(index)
        else:
            self._children.insert(index, link)
            self._rename_children()

    def add_link(self, link):
        """Appends a child link.

        Args:
            link (Link): The child.
        """
        self.append(link)

    def copy(self, mode='share'):
        """Copies the list; the children are copied with ``mode``.

        The parameters registered on the list itself are always shared, as
        in the ``'share'`` mode.
        """
        ret = super().copy()
        ret._children = list(ret._children)
        children = ret._children
        for i, child in enumerate(children):
            child = child.copy(mode)
            child.name = str(i)
            children[i] = child
        return ret

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        for link in self._children:
            link.device_resident_accept(visitor)

    def params(self, include_uninit=True):
        yield from super().params(include_uninit)
        for link in self._children:
            yield from link.params(include_uninit)

    def namedparams(self, include_uninit=True):
        yield from super().namedparams(include_uninit)
        for i, link in enumerate(self._children):
            prefix = '/{}'.format(i)
            for path, param in link.namedparams(include_uninit):
                yield prefix + path, param

    def links(self, skipself=False):
        if not skipself:
            yield self
        for child in self._children:
            yield from child.links()

    def namedlinks(self, skipself=False):
        if not skipself:
            yield '/', self
        for i, child in enumerate(self._children):
            prefix = '/{}'.format(i)
            yield prefix, child
            for path, link in child.namedlinks(True):
                yield prefix + path, link

    def children(self):
        yield from self._children

    def copyparams(self, link, copy_persistent=True):
        super().copyparams(link, copy_persistent)
        for idx, child in enumerate(self._children):
            child.copyparams(link[idx], copy_persistent)

    def addgrads(self, link):
        super().addgrads(link)
        for idx, child in enumerate(self._children):
            child.addgrads(link[idx])

    def serialize(self, serializer):
        super().serialize(serializer)
        for idx, child in enumerate(self._children):
            child.serialize(serializer[str(idx)])

