"""A link computed by Theano, made from Theano variables."""

import collections.abc

from chainer.functions.theano import theano_function
from chainer import link


_NOT_AVAILABLE = '''Theano is not available: theano is not installed on your \
environment.
Please install theano to activate theano function.

  $ pip install theano

Theano is no longer developed and does not install on Python 3.11 with \
NumPy 2.'''


def _to_var_tuple(variables):
    # Theano tensor variables as a tuple, from one or an iterable of them.
    import theano

    tensor_variable = theano.tensor.TensorVariable
    if isinstance(variables, tensor_variable):
        return variables,
    if isinstance(variables, collections.abc.Iterable):
        variables = tuple(variables)
        if all(isinstance(v, tensor_variable) for v in variables):
            return variables
    raise TypeError(
        'inputs and outputs must be a TensorVariable, a list of '
        'TensorVariable or a tuple of TensorVariable')


class TheanoFunction(link.Link):

    """A Theano computation as a link.

    .. warning::

        This feature is experimental: its interface may still change.

    It compiles, from Theano input and output variables, a Theano function
    of the outputs and one of the gradients of the inputs, and applies them
    to :class:`~chainer.Variable` objects through
    :func:`~chainer.functions.theano.theano_function.theano_function`.
    CuPy arrays are copied to the CPU and back.

    Theano must be installed; it is not available on Python 3.11 with NumPy
    2, where constructing this link raises :class:`RuntimeError`, as
    Chainer 7.8 does when Theano is not installed.

    Args:
        inputs (tuple of ``theano.tensor.TensorVariable``): The Theano
            input variables; the link is called with as many
            :class:`~chainer.Variable` objects.
        outputs (tuple of ``theano.tensor.TensorVariable``): The Theano
            output variables; the link returns as many
            :class:`~chainer.Variable` objects.

    """

    def __init__(self, inputs, outputs):
        try:
            # Theano is imported here, not with Chainer: importing it sets
            # up a lot of global state.
            import theano
        except ImportError:
            raise RuntimeError(_NOT_AVAILABLE)

        super().__init__()
        inputs = _to_var_tuple(inputs)
        outputs = _to_var_tuple(outputs)
        self.forward_func = theano.function(inputs=inputs, outputs=outputs)

        grad_outputs = tuple(
            out.type('g_{}'.format(i)) for i, out in enumerate(outputs))
        grads = theano.tensor.grad(
            cost=None, wrt=inputs,
            known_grads=collections.OrderedDict(zip(outputs, grad_outputs)),
            disconnected_inputs='ignore')
        self.backward_func = theano.function(
            inputs=inputs + grad_outputs, outputs=grads,
            on_unused_input='ignore')

    def forward(self, *args):
        return theano_function.theano_function(
            self.forward_func, self.backward_func, *args)
