import chainer
from chainer import function_node
from chainer import variable


def _call_func(func, xs):
    outs = func(*xs)
    if isinstance(outs, tuple):
        for i, out in enumerate(outs):
            if isinstance(out, variable.Variable):
                continue
            n = i + 1
            suffix = {1: 'st', 2: 'nd', 3: 'rd'}.get(
                n if n < 20 else n % 10, 'th')
            raise RuntimeError(
                '{}{} element of a returned tuple is not Variable, '
                'but is {}'.format(n, suffix, type(out)))
        return outs
    if isinstance(outs, variable.Variable):
        return outs,
    raise RuntimeError(
        'A tuple of Variables or a Variable are expected, but {} '
        'is returned.'.format(type(outs)))


class Forget(function_node.FunctionNode):

    """Calls ``func`` without keeping its graph, and calls it again in
    backward to get the gradients."""

    def __init__(self, func):
        if not callable(func):
            raise TypeError('func must be callable')
        self.func = func

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        with chainer.no_backprop_mode(), \
                chainer.using_config('_will_recompute', True):
            xs = [variable.Variable(x) for x in inputs]
            outs = _call_func(self.func, xs)
        return tuple(out.array for out in outs)

    def backward(self, indexes, grad_outputs):
        if chainer.config.enable_backprop:
            raise RuntimeError('double backpropagation in functions.forget is '
                               'not allowed.')
        # Fresh variables without creators: the recomputed graph starts
        # here, and backprop through it stops here.
        dummy_inputs = tuple(
            variable.Variable(x.array) for x in self.get_retained_inputs())
        with chainer.force_backprop_mode(), \
                chainer.using_config('in_recomputing', True):
            outs = _call_func(self.func, dummy_inputs)
            assert len(outs) == len(grad_outputs)
        # Parameters used by func (of a link, say) get their gradients
        # accumulated as in a plain backward.
        chainer.backward(outs, grad_outputs)
        return tuple(x.grad_var for x in dummy_inputs)


def forget(func, *xs):
    """Calls a function without keeping its intermediate results.

    Backprop normally keeps the intermediate arrays of the graph alive
    until the backward computation. ``forget`` calls ``func`` on ``xs``
    without building its graph, so that those arrays are freed at once,
    and calls ``func`` again during backprop to rebuild the graph and get
    the gradients: it trades computation for memory.

    ``func`` must give the same outputs for the same inputs: random
    functions such as :func:`~chainer.functions.dropout` do not work with
    it. During the second call ``chainer.config.in_recomputing`` is
    ``True``; a link that updates its state at each call (such as
    :class:`~chainer.links.BatchNormalization`) checks it to update the
    state only once. Double backprop through ``forget`` is not supported.

    Args:
        func (callable): A function that takes variables (as many as
            ``xs``) and returns a variable or a tuple of variables.
        xs (:class:`~chainer.Variable` or :ref:`ndarray`): The arguments
            of ``func``; arrays are turned into variables that require a
            gradient, so that ``forget`` joins the graph.

    Returns:
        ~chainer.Variable or tuple: What ``func`` returns.

    .. admonition:: Example

        >>> def f(a, b):
        ...     return (a + b) * a
        >>> x = chainer.Variable(np.array([1., 2.], np.float32))
        >>> y = chainer.Variable(np.array([3., 4.], np.float32))
        >>> z = F.forget(f, x, y)
        >>> F.sum(z).backward()
        >>> x.grad
        array([5., 8.], dtype=float32)

    """
    xs = tuple(
        x if isinstance(x, variable.Variable)
        else variable.Variable(x, requires_grad=True) for x in xs)
    y = Forget(func).apply(xs)
    if len(y) == 1:
        y, = y
    return y
