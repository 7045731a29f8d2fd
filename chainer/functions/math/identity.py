from chainer import function_node


class Identity(function_node.FunctionNode):

    """Identity function: passes its inputs and gradients through."""

    def forward(self, inputs):
        return inputs

    def backward(self, indexes, grad_outputs):
        return grad_outputs


def identity(*inputs):
    """Returns the input variables as they are, through one graph node.

    Args:
        *inputs (:class:`~chainer.Variable` or :ref:`ndarray`): Inputs.

    Returns:
        ~chainer.Variable or tuple of ~chainer.Variable: A single variable
        for a single input, a tuple of variables otherwise.
    """
    outputs = Identity().apply(inputs)
    return outputs[0] if len(outputs) == 1 else outputs
