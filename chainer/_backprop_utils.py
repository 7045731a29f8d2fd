"""The single backward step and the gradient table, as Chainer 7 names them.

Code written for Chainer 7 reaches these helpers as
``chainer._backprop_utils``; they are the ones :mod:`chainer._backprop` runs.
"""

from chainer import _backprop


def backprop_step(func, target_input_indexes, grad_outputs, grad_inputs,
                  is_debug):
    """Runs backward of ``func``, appending to the lists in ``grad_inputs``.

    Args:
        func (FunctionNode): The node.
        target_input_indexes (tuple of int): Sorted indexes of the inputs
            whose gradients are wanted.
        grad_outputs (tuple): Gradients of the outputs (``None`` where
            there is none).
        grad_inputs (dict): A list of gradient variables for each target
            input node, updated in place.
        is_debug (bool): Whether to run the debug-mode checks.
    """
    _backprop._backprop_step(
        func, target_input_indexes, grad_outputs, grad_inputs, is_debug)


def _reduce(grad_list):
    """Sums a list of gradients in place; returns the sum or ``None``."""
    if not grad_list:
        return None
    if len(grad_list) > 1:
        grad_list[:] = [_backprop._sum_grads(grad_list, True)]
    return grad_list[0]


class GradTable(_backprop._GradTable):
    """Lists of gradient variables of variable nodes.

    Args:
        accumulate_grad_inputs (bool): Whether the first read of a leaf
            node starts from the gradient its variable already has.
    """

    __slots__ = ()

    def __init__(self, accumulate_grad_inputs=False):
        super().__init__(accumulate_grad_inputs)
