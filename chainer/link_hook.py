"""Link hooks: callbacks run around the forward method of links."""

import collections

# One registry object per thread holds both the function hooks and the link
# hooks (``chainer._thread_local``).
from chainer.function_hook import _thread_local


def _get_link_hooks():
    try:
        return _thread_local.link_hooks
    except AttributeError:
        hooks = collections.OrderedDict()
        _thread_local.link_hooks = hooks
        return hooks


def _repr_with_fields(obj, **fields):
    # ``<module.Class name=value ...>``, as Chainer prints callback data.
    return '<{}.{} {}>'.format(
        type(obj).__module__, type(obj).__qualname__,
        ' '.join('{}={}'.format(key, value)
                 for key, value in fields.items()))


class _ForwardPreprocessCallbackArgs:
    """What a link hook's ``forward_preprocess`` gets.

    Attributes:
        link: The link being called.
        forward_name (str): Name of the method called, ``'forward'``.
        args (tuple): Its positional arguments.
        kwargs (dict): Its keyword arguments.
    """

    def __init__(self, link, forward_name, args, kwargs):
        self.link = link
        self.forward_name = forward_name
        self.args = args
        self.kwargs = kwargs

    def __repr__(self):
        return _repr_with_fields(
            self, link=self.link, forward_name=self.forward_name,
            args=self.args, kwargs=self.kwargs)


class _ForwardPostprocessCallbackArgs:
    """What a link hook's ``forward_postprocess`` gets.

    Attributes:
        link: The link being called.
        forward_name (str): Name of the method called, ``'forward'``.
        args (tuple): Its positional arguments.
        kwargs (dict): Its keyword arguments.
        out: The output of the forward method.
    """

    def __init__(self, link, forward_name, args, kwargs, out):
        self.link = link
        self.forward_name = forward_name
        self.args = args
        self.kwargs = kwargs
        self.out = out

    def __repr__(self):
        return _repr_with_fields(
            self, link=self.link, forward_name=self.forward_name,
            args=self.args, kwargs=self.kwargs, out=self.out)


class LinkHook:
    """Base class of hooks called around the forward method of links.

    A hook registered with a ``with`` statement applies to every link
    called in the current thread while the block runs; one added by
    :meth:`chainer.Link.add_hook` applies to that link only.

    Attributes:
        name (str): Name of the hook, its key in the registry.
    """

    name = 'LinkHook'

    def __enter__(self):
        hooks = _get_link_hooks()
        if self.name in hooks:
            raise KeyError('hook {} already exists'.format(self.name))
        hooks[self.name] = self
        self.added(None)
        return self

    def __exit__(self, *_):
        self.deleted(None)
        del _get_link_hooks()[self.name]

    def added(self, link):
        """Called when the hook is registered.

        Args:
            link: The link it was added to, or ``None`` when registered
                globally.
        """

    def deleted(self, link):
        """Called when the hook is unregistered.

        Args:
            link: The link it was removed from, or ``None`` when
                unregistered globally.
        """

    def forward_preprocess(self, args):
        """Called before the forward method of a link.

        Args:
            args: An object with ``link``, ``forward_name``, ``args`` and
                ``kwargs`` attributes.
        """

    def forward_postprocess(self, args):
        """Called after the forward method of a link.

        Args:
            args: As in :meth:`forward_preprocess`, plus ``out``.
        """
