from chainer import backend
from chainer import configuration
from chainer import function_node
from chainer import utils
from chainer.utils import argument
from chainer.utils import type_check


class Zoneout(function_node.FunctionNode):

    """Zoneout: keeps each element of the previous state ``h`` with
    probability ``zoneout_ratio``, and takes it from ``x`` otherwise."""

    def __init__(self, zoneout_ratio):
        self.zoneout_ratio = zoneout_ratio

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)

    def forward(self, inputs):
        h, x = inputs
        xp = backend.get_array_module(x)
        flag_x = utils.force_array(
            xp.random.rand(*x.shape) >= self.zoneout_ratio)
        self.flag_x = flag_x
        self.flag_h = ~flag_x
        return utils.force_array(h * self.flag_h + x * flag_x),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(gy * self.flag_h)
        if 1 in indexes:
            ret.append(gy * self.flag_x)
        return ret


def zoneout(h, x, ratio=.5, **kwargs):
    """zoneout(h, x, ratio=.5)

    Keeps elements of the previous state at random.

    In training mode each element of the output is taken from the previous
    state ``h`` with probability ``ratio``, and from ``x`` otherwise. When
    ``chainer.config.train`` is ``False``, ``x`` is returned as it is. See
    `Krueger et al. <https://arxiv.org/abs/1606.01305>`_.

    Args:
        h (:class:`~chainer.Variable` or :ref:`ndarray`): The previous
            state.
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The new state.
        ratio (float): The probability of keeping an element of ``h``.

    Returns:
        ~chainer.Variable: Output variable.

    .. admonition:: Example

        >>> h = np.zeros((2, 3), np.float32)
        >>> x = np.ones((2, 3), np.float32)
        >>> with chainer.using_config('train', False):
        ...     F.zoneout(h, x) is x
        True

    """
    if kwargs:
        argument.check_unexpected_kwargs(
            kwargs, train='train argument is not supported anymore. '
            'Use chainer.using_config')
        argument.assert_kwargs_empty(kwargs)
    if configuration.config.train:
        y, = Zoneout(ratio).apply((h, x))
        return y
    return x
