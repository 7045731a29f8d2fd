"""Old-style functions: forward and backward both on arrays.

A :class:`Function` is run through a :class:`FunctionAdapter`, the
:class:`~chainer.FunctionNode` that stands for it in the graph. Its
gradients are plain arrays, so it supports first-order backprop only.
"""

import warnings
import weakref

from chainer._backprop_mode import force_backprop_mode  # NOQA
from chainer._backprop_mode import no_backprop_mode  # NOQA
from chainer.backends import cuda
# Chainer's first versions defined FunctionHook here; code still imports
# it from this module.
from chainer.function_hook import FunctionHook  # NOQA
from chainer import function_node
from chainer import variable


class FunctionAdapter(function_node.FunctionNode):
    """The graph node of an old-style :class:`Function`.

    Args:
        function (Function): The function the node runs.
    """

    def __init__(self, function):
        super().__init__()
        self._function = function
        self._weak_function = None

    @property
    def function(self):
        """The :class:`Function` this node runs."""
        function = self._function
        if function is None:
            function = self._weak_function()
        return function

    @property
    def label(self):
        return self.function.label

    @property
    def _impl_name(self):
        return type(self.function).__name__

    def check_type_forward(self, in_types):
        self.function.check_type_forward(in_types)

    def forward(self, inputs):
        # Old-style functions read all their inputs in backward unless they
        # say otherwise.
        self.retain_inputs(tuple(range(len(inputs))))
        return self.function.forward(inputs)

    def backward(self, target_input_indexes, grad_outputs):
        function = self.function
        in_data = tuple([x.data for x in self.inputs])
        grad_out_data = tuple([
            None if g is None else g.array for g in grad_outputs])
        arrays = [a for a in in_data + grad_out_data if a is not None]
        if arrays and isinstance(arrays[0], cuda.ndarray):
            with cuda.get_device_from_array(*arrays):
                gxs = function.backward(in_data, grad_out_data)
        else:
            gxs = function.backward(in_data, grad_out_data)
        if len(gxs) != len(self.inputs):
            raise ValueError(
                'number of gradients returned by {} ({}) is incorrect: '
                '{} != {}'.format(self._impl_name, self.label, len(gxs),
                                  len(self.inputs)))
        for x, gx in zip(self.inputs, gxs):
            if gx is not None:
                variable._check_grad_type(self, x, True, gx)

        ret = []
        for i in target_input_indexes:
            gx = gxs[i]
            if gx is None:
                ret.append(None)
                continue
            gx_var = variable.Variable(gx)
            gx_var._node._old_style_grad_generator = function.label
            ret.append(gx_var)
        return tuple(ret)


class Function:
    """Old-style differentiable function, written on arrays.

    Implement :meth:`forward` (or :meth:`forward_cpu` and
    :meth:`forward_gpu`) and :meth:`backward` (or :meth:`backward_cpu` and
    :meth:`backward_gpu`). All inputs are kept for backward unless
    :meth:`retain_inputs` says otherwise; outputs are kept only when
    :meth:`retain_outputs` asks for them. The gradients are plain arrays,
    so the function cannot be differentiated twice: use
    :class:`~chainer.FunctionNode` for that.
    """

    _node = None
    _owned_node = None

    def __call__(self, *inputs):
        """Applies the function.

        Args:
            *inputs: Input variables or arrays.

        Returns:
            A :class:`~chainer.Variable` if the function has one output,
            else a tuple of them.
        """
        node = self.node
        # The node, which lives as long as the graph, now owns the function.
        node._function = self
        node._weak_function = None
        self._node = weakref.ref(node)
        self._owned_node = None
        ret = node.apply(inputs)
        if len(ret) == 1:
            return ret[0]
        return ret

    @property
    def node(self):
        """The :class:`FunctionAdapter` running this function."""
        node = None if self._node is None else self._node()
        if node is None:
            node = FunctionAdapter(self)
            node._function = None
            node._weak_function = weakref.ref(self)
            self._owned_node = node
            self._node = weakref.ref(node)
        return node

    @property
    def inputs(self):
        """The input :class:`~chainer.variable.VariableNode` objects."""
        return self.node.inputs

    @property
    def outputs(self):
        """Weak references to the output variable nodes."""
        return self.node.outputs

    @property
    def rank(self):
        """The topological rank of the function."""
        return self.node.rank

    @property
    def stack(self):
        """The stack where the function was called, in debug mode."""
        return self.node.stack

    @property
    def label(self):
        """A short name of the function; its class name by default."""
        return self.__class__.__name__

    @property
    def output_data(self):
        """The retained output arrays (``None`` where not retained)."""
        return self.node.output_data

    @property
    def local_function_hooks(self):
        """Hooks registered on this function only."""
        return self.node.local_function_hooks

    def add_hook(self, hook, name=None):
        """Registers a hook on this function; see FunctionNode.add_hook."""
        self.node.add_hook(hook, name)

    def delete_hook(self, name):
        """Unregisters a hook; see FunctionNode.delete_hook."""
        self.node.delete_hook(name)

    def check_type_forward(self, in_types):
        """States the conditions the inputs must satisfy."""

    def forward(self, inputs):
        """Computes the outputs, dispatching on the array type.

        Args:
            inputs (tuple of arrays): The inputs.

        Returns:
            tuple of arrays: The outputs.
        """
        if any(isinstance(x, cuda.ndarray) for x in inputs):
            return self.forward_gpu(inputs)
        return self.forward_cpu(inputs)

    def forward_cpu(self, inputs):
        """Computes the outputs from NumPy arrays."""
        raise NotImplementedError()

    def forward_gpu(self, inputs):
        """Computes the outputs from CuPy arrays."""
        raise NotImplementedError()

    def backward(self, inputs, grad_outputs):
        """Computes the input gradients, dispatching on the array type.

        Args:
            inputs (tuple of arrays): The retained inputs (``None`` for
                those not retained).
            grad_outputs (tuple of arrays): The output gradients (``None``
                for outputs that got none).

        Returns:
            tuple: One gradient array (or ``None``) per input.
        """
        arrays = [a for a in inputs + grad_outputs if a is not None]
        if any(isinstance(a, cuda.ndarray) for a in arrays):
            return self.backward_gpu(inputs, grad_outputs)
        return self.backward_cpu(inputs, grad_outputs)

    def backward_cpu(self, inputs, grad_outputs):
        """Computes the input gradients from NumPy arrays."""
        return tuple([None] * len(inputs))

    def backward_gpu(self, inputs, grad_outputs):
        """Computes the input gradients from CuPy arrays."""
        return tuple([None] * len(inputs))

    def unchain(self):
        """Cuts the function out of the graph."""
        self.node.unchain()

    def retain_inputs(self, indexes):
        """Keeps only the given inputs for backward; call it in forward.

        Args:
            indexes (tuple of int): Indexes of the inputs to keep.
        """
        self.node.retain_inputs(indexes)

    def retain_outputs(self, indexes, retain_after_backward=False):
        """Keeps the given outputs for backward; call it in forward.

        Args:
            indexes (tuple of int): Indexes of the outputs to keep.
            retain_after_backward (bool): Has no effect (a deprecated
                option; setting it warns).
        """
        if retain_after_backward:
            warnings.warn('retain_after_backward option has no effect',
                          DeprecationWarning)
        self.node.retain_outputs(indexes)
