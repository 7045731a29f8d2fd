"""Let a plain Python function appear in the graph as one function node.

A function that computes on arrays (``np.full``, ``x.array + 1``) cuts the
traced graph: the exporter sees only Chainer functions. Wrapping it with
:func:`fake_as_funcnode` (or decorating it with :func:`as_funcnode`) makes
each call one :class:`WrappedFunctionNode` whose inputs are the
:class:`~chainer.Variable` arguments and whose other arguments become
attributes of the node, so that a converter keyed by the given name can
export it.
"""

import inspect

import chainer


class WrappedFunctionNode(chainer.FunctionNode):
    """A function node that runs a wrapped Python function.

    Args:
        name (str): Name the converter is looked up by.
        func (callable): The wrapped function.
        args (tuple): Its positional arguments.
        kwargs (dict): Its keyword arguments.
        arg_vars (list of ~chainer.Variable): The variables among ``args``
            and ``kwargs``; they are the inputs of the node.
        attributes (dict): Other arguments, set as attributes of the node.

    Attributes:
        input_indexes (dict): For each argument made of variables (keyed by
            position or keyword), the index of the variable among the
            inputs, or nested lists of indexes for a list of variables.
            Converters use it to find the inputs of each argument.
    """

    def __init__(self, name, func, args, kwargs, arg_vars, attributes=None):
        self.custom_function_node_name = name
        self.func = func
        self.args = args
        self.kwargs = kwargs
        self.arg_vars = arg_vars
        self.internal_results = None
        self.skeleton = None
        self.input_indexes = {}
        for key, value in (attributes or {}).items():
            setattr(self, key, value)

    def forward(self, xs):
        self.xs = xs
        results = self.func(*self.args, **self.kwargs)
        self.skeleton, flat = _flatten_structure(results)
        if flat and all(isinstance(r, chainer.Variable) for r in flat):
            self.internal_results = tuple(flat)
        arrays = tuple(
            r.array if isinstance(r, chainer.Variable) else r for r in flat)
        if not arrays or not chainer.is_arrays_compatible(arrays):
            raise ValueError(
                "returned values from the function wrapped by 'as_funcnode' "
                'must consist only array, function name: {}'.format(
                    self.custom_function_node_name))
        return arrays

    def backward(self, target_input_indexes, grad_outputs):
        if self.internal_results is None:
            raise ValueError(
                'the function wrapped by as_funcnode ({}) does not return '
                'Variables, so the gradient cannot be propagated'.format(
                    self.custom_function_node_name))
        grads = chainer.grad(
            self.internal_results, self.arg_vars, grad_outputs=grad_outputs)
        return tuple(grads[i] for i in target_input_indexes)

    def reconstruct_return_value(self, outputs):
        """Rebuilds the wrapped function's return structure from ``outputs``.

        Args:
            outputs (sequence): One value per output of the node.

        Returns:
            The values arranged as the wrapped function returned its results
            (a value, or nested tuples, lists and dicts of values).
        """
        return _rebuild_structure(self.skeleton, outputs)


def _flatten_structure(value):
    flat = []

    def walk(v):
        if isinstance(v, tuple):
            return tuple(walk(e) for e in v)
        if isinstance(v, list):
            return [walk(e) for e in v]
        if isinstance(v, dict):
            return {k: walk(e) for k, e in v.items()}
        flat.append(v)
        return len(flat) - 1

    return walk(value), flat


def _rebuild_structure(skeleton, outputs):
    if isinstance(skeleton, tuple):
        return tuple(_rebuild_structure(e, outputs) for e in skeleton)
    if isinstance(skeleton, list):
        return [_rebuild_structure(e, outputs) for e in skeleton]
    if isinstance(skeleton, dict):
        return {k: _rebuild_structure(e, outputs)
                for k, e in skeleton.items()}
    return outputs[skeleton]


def _flatten_sequence(xs):
    if not isinstance(xs, (list, tuple)):
        return [xs]
    flat = []
    for x in xs:
        flat.extend(_flatten_sequence(x))
    return flat


def _index_structure(value, start):
    # ``value`` (nested lists of variables) with each variable replaced by
    # its index among the node's inputs, counted from ``start``.
    counter = [start]

    def walk(v):
        if isinstance(v, (list, tuple)):
            return [walk(e) for e in v]
        counter[0] += 1
        return counter[0] - 1

    return walk(value)


def fake_as_funcnode(alt_func, name, rename_attributes=None,
                     experimental_warning=True):
    """Wraps ``alt_func`` so that each call is one function node.

    ``alt_func`` must take at least one :class:`~chainer.Variable` (directly,
    or in a list or tuple made only of variables) and return arrays or
    variables, alone or in tuples, lists or dicts. The variables become the
    inputs of the node, in argument order; every other argument, defaults
    included, becomes an attribute of the node, named after the keyword or
    ``argN`` for the N-th positional argument, unless ``rename_attributes``
    renames it. The wrapper returns variables in the structure ``alt_func``
    returned. When ``alt_func`` returns variables, gradients flow through
    the node to the inputs.

    >>> from onnx_chainer.replace_func import fake_as_funcnode
    >>> def func(x, a, b, c=1, d=2):
    ...     return x * a
    >>> func = fake_as_funcnode(
    ...     func, 'CustomNode', rename_attributes=[(1, 'value'), ('c', 'y')])

    A call ``func(x, 2, 3)`` makes a ``CustomNode`` node with the attributes
    ``value`` (2), ``arg2`` (3), ``y`` (1) and ``d`` (2).

    Args:
        alt_func (callable): The function to wrap.
        name (str): The name of the node, which external converters are
            keyed by.
        rename_attributes (list of tuple): ``(index or keyword, new name)``
            pairs.
        experimental_warning (bool): Warn that the feature is experimental.

    Returns:
        callable: The wrapped function.
    """
    renames = dict(rename_attributes or ())
    signature = inspect.signature(alt_func)

    def wrapper(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        kwargs = dict(kwargs)
        for i, (key, value) in enumerate(bound.arguments.items()):
            kind = signature.parameters[key].kind
            if i < len(args) or kind == inspect.Parameter.VAR_POSITIONAL:
                continue
            if kind == inspect.Parameter.VAR_KEYWORD:
                kwargs.update(value)
            else:
                kwargs[key] = value

        inputs = []
        attributes = {}
        input_indexes = {}

        def take(key, value):
            if isinstance(value, chainer.Variable):
                input_indexes[key] = len(inputs)
                inputs.append(value)
                return
            if isinstance(value, (list, tuple)):
                flat = _flatten_sequence(value)
                is_var = [isinstance(v, chainer.Variable) for v in flat]
                if flat and all(is_var):
                    input_indexes[key] = _index_structure(value, len(inputs))
                    inputs.extend(flat)
                    return
                if any(is_var):
                    raise ValueError(
                        'arguments mixed variable and other type are not '
                        'supported')
            default = key if isinstance(key, str) else 'arg{}'.format(key)
            attributes[renames.get(key, default)] = value

        for i, value in enumerate(args):
            take(i, value)
        for key, value in kwargs.items():
            take(key, value)
        if not inputs:
            raise ValueError(
                "arguments of the function wrapped by 'as_funcnode' must "
                'include at least one chainer.Variable, function name: '
                '{}'.format(name))

        node = WrappedFunctionNode(
            name, alt_func, args, kwargs, inputs, attributes=attributes)
        node.input_indexes = input_indexes
        outputs = node.apply(inputs)
        return node.reconstruct_return_value(outputs)

    if experimental_warning:
        chainer.utils.experimental('as_funcnode')
    return wrapper


def as_funcnode(name, rename_attributes=None):
    """Decorator form of :func:`fake_as_funcnode`.

    >>> from onnx_chainer.replace_func import as_funcnode
    >>> @as_funcnode('CustomNode', rename_attributes=[(1, 'value')])
    ... def func(x, a, b, c=1, d=2):
    ...     return x * a

    Args:
        name (str): The name of the node.
        rename_attributes (list of tuple): ``(index or keyword, new name)``
            pairs.
    """
    def decorator(fn):
        return fake_as_funcnode(fn, name, rename_attributes=rename_attributes)
    return decorator
