"""The constant operands of ``x + 1.5``, ``x * 1.5``, ``1.5 - x``.

:mod:`chainer.functions.math.basic_math` computes such an operation as
``op(c, x)``, with ``c`` the number cast to x's dtype and kept as a
read-only 0-d array (``basic_math._with_constant``). The tables of those
constants and of the methods that use them live here, below the functions,
so that :func:`chainer._compiled_core.parts` can hand them to the compiled
core when Chainer is imported, before the functions are. The compiled core
computes the methods listed here itself where their constant is kept, and
leaves every other case to them.
"""

#: ``(number, dtype)``: the number cast to the floating dtype, as a
#: read-only 0-d array (filled by ``basic_math._with_constant``).
KEPT = {}

#: The ``forward`` methods made by ``basic_math._constant_forward``, with
#: their operator: ``(_with_constant(op, x, self.value),)`` of the input
#: ``x``.
FORWARDS = {}

#: The ``_add_grad_into`` methods made by ``basic_math._constant_grad_into``,
#: with their operator: the gradient ``_with_constant(op, gy, self.value)``
#: of the output gradient ``gy`` (see :class:`~chainer.FunctionNode`).
GRADS_INTO = {}
