"""The protocol of the link hooks that rewrite the weight of a link."""

from chainer import link_hook


class WeightHook(link_hook.LinkHook):
    """Base of the hooks that replace a weight of a link during its forward
    call.

    The weight is the parameter named ``weight_name`` (an attribute that a
    subclass sets). A subclass's ``forward_preprocess`` keeps the weight as
    ``original_weight`` and sets the one the link sees; it is put back
    after the call. Such a hook must be added to a link with
    :meth:`~chainer.Link.add_hook`; it cannot be used as a context manager.
    """

    def __enter__(self):
        raise NotImplementedError(
            'This hook is not supposed to be used as context manager.')

    def __exit__(self):
        raise NotImplementedError

    def added(self, link):
        if not hasattr(link, self.weight_name):
            raise ValueError(
                'Weight \'{}\' does not exist!'.format(self.weight_name))

    def forward_postprocess(self, cb_args):
        setattr(cb_args.link, self.weight_name, self.original_weight)
