import chainer
from chainer import backend
import chainer.utils


class PseudoConnect(chainer.FunctionNode):
    """Passes its inputs but the first through, keeping a graph edge to it."""

    def forward(self, inputs):
        self.retain_inputs((0,))
        return inputs[1:]

    def backward(self, target_input_indexes, grad_outputs):
        delegate_variable, = self.get_retained_inputs()
        xp = backend.get_array_module(delegate_variable)
        zero = chainer.Variable(xp.zeros_like(delegate_variable.array))
        return (zero,) + tuple(grad_outputs)


def pseudo_connect(delegate_variable, *actual_variables):
    """Joins a separate piece of the graph to ``actual_variables``.

    The outputs are ``actual_variables`` unchanged, but their graph also
    reaches ``delegate_variable`` (which receives a zero gradient), so a
    backward pass from them also runs the piece that produced
    ``delegate_variable``: typically the dummy output of
    :func:`chainermn.functions.send`, whose backward receives the gradient
    from the other rank. This is how a rank whose model sends to and
    receives from other ranks several times keeps one connected graph.

    Args:
        delegate_variable (~chainer.Variable): The piece to connect (e.g.
            what :func:`~chainermn.functions.send` returned); ``None`` for
            an empty placeholder.
        actual_variables (~chainer.Variable): The values to pass through.

    Returns:
        tuple of ~chainer.Variable: ``actual_variables``, connected.
    """
    chainer.utils.experimental('chainermn.functions.pseudo_connect')
    if delegate_variable is None:
        xp = backend.get_array_module(*actual_variables)
        delegate_variable = xp.empty((0,), xp.float32)
    return PseudoConnect().apply((delegate_variable,) + actual_variables)
