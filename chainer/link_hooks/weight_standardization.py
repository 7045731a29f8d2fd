"""Weight standardization of the weight of a link."""

from chainer import backend
from chainer.functions.normalization import group_normalization
from chainer.link_hooks import _weight_hook


class WeightStandardization(_weight_hook.WeightHook):
    """Standardizes the weight of a link at each forward call.

    Each output channel of the weight (``W[o]``, all the other axes
    together) is shifted to mean 0 and scaled to variance 1 during the
    call; the gradient flows back to the unstandardized weight.

    The hook must be added to a link with :meth:`~chainer.Link.add_hook`;
    it cannot be used as a context manager.

    Args:
        eps (float): Added to the variance for numerical stability
            (keyword only).
        weight_name (str): Name of the weight parameter (keyword only).
        name (str): Name of the hook; ``'WeightStandardization'`` by
            default (keyword only).

    See: Qiao et al., `Weight Standardization
    <https://arxiv.org/abs/1903.10520>`_
    """

    name = 'WeightStandardization'

    def __init__(self, *, eps=1e-5, weight_name='W', name=None):
        self.eps = eps
        self.weight_name = weight_name
        self._initialized = False
        if name is not None:
            self.name = name

    def added(self, link):
        super().added(link)
        if getattr(link, self.weight_name).array is not None:
            self._initialized = True

    def forward_preprocess(self, cb_args):
        link = cb_args.link
        input_variable = cb_args.args[0]
        if not self._initialized \
                and getattr(link, self.weight_name).array is None:
            if input_variable is None:
                raise ValueError('Input variable does not exist!')
            link._initialize_params(input_variable.shape[1])
        weight = getattr(link, self.weight_name)
        with backend.using_device(link.device):
            gamma = link.xp.ones((weight.shape[1],), dtype=weight.dtype)
            beta = link.xp.zeros((weight.shape[1],), dtype=weight.dtype)
        self.original_weight = weight
        setattr(link, self.weight_name, group_normalization
                .group_normalization(weight, groups=1, gamma=gamma,
                                     beta=beta, eps=self.eps))
