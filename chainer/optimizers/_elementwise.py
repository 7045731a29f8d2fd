"""The common part of the simple element-wise update rules.

MomentumSGD, CorrectedMomentumSGD, NesterovAG, AdaGrad and SMORMS3 keep a
few state arrays shaped like the parameter and update each element on its
own. :class:`ElementwiseRule` holds what they share: setting the
hyperparameters given to the rule, making the state arrays, skipping a
parameter without a gradient, and launching the fused CUDA kernel. A rule
states its state arrays, its CPU arithmetic and its kernel body.
"""

import numpy

from chainer import _kernels
from chainer.backends import cuda
from chainer import optimizer


def set_hyperparams(hyperparam, **values):
    """Sets the given entries of ``hyperparam``, skipping ``None`` ones."""
    for name, value in values.items():
        if value is not None:
            setattr(hyperparam, name, value)


def numpy1_scalars(*values):
    """Python numbers as NumPy 1 combined them with a 0-d array.

    Chainer 7.8 ran on NumPy 1, where a Python ``float`` or ``int`` met by
    a 0-d array (or a NumPy scalar) promotes as float64 (int64): the update
    of a 0-d float16 or float32 parameter was computed in float64 and
    rounded only where it was stored. NumPy 2 keeps the parameter's dtype.
    The update rules pass their constants through this function when the
    parameter is 0-d, so that such parameters get the original's numbers;
    other values (NumPy scalars) are returned as they are.
    """
    return [numpy.float64(v) if type(v) in (int, float) else v
            for v in values]


def update_in_place(update, grad, *arrays):
    """Runs ``update(kernels)``, an update of NumPy arrays in place by the
    compiled kernels, where they take it (see :func:`chainer._kernels.call`).

    Args:
        update: Calls the kernel with the module it is given.
        grad (numpy.ndarray): The gradient, which is only read.
        arrays: The parameter and state arrays updated in place; ``None``
            entries (an absent state) are skipped. They must be
            C-contiguous and of the shape and dtype (float32 or float64) of
            ``grad``.

    Returns:
        bool: Whether the kernels made the update; if not, the caller runs
        its NumPy code.
    """
    for a in arrays:
        if a is not None and (
                a.shape != grad.shape or not a.flags.c_contiguous):
            return False

    def run(kernels):
        update(kernels)
        return True
    return _kernels.call((grad,) + arrays, _kernels.FLOATS, run) is not None


class ElementwiseRule(optimizer.UpdateRule):
    """Base of an update rule whose state arrays are shaped like the
    parameter.

    Subclasses set these class attributes:

    * ``_default_hyperparam``: the hyperparameter used when the rule is
      made without a parent.
    * ``_state_fills``: ``(name, fill)`` pairs, in the order of the state
      entries, where ``fill`` is ``0`` or ``1``.
    * ``_kernel_hyperparams``: names of the hyperparameters passed to the
      CUDA kernel after ``grad``.
    * ``_kernel_code`` and ``_kernel_name``: the kernel body, which reads
      ``grad`` and the hyperparameters and writes ``param`` and the state
      arrays (by their names), and the kernel's name.

    and implement :meth:`_update_cpu` and :meth:`_update_0d`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): The
            hyperparameter to fall back to.
        hyperparams: Entries of the rule's own hyperparameter; ``None``
            ones are not set.
    """

    is_elementwise = True

    _default_hyperparam = None
    _state_fills = ()
    _kernel_hyperparams = ()
    _kernel_code = None
    _kernel_name = None

    def __init__(self, parent_hyperparam=None, **hyperparams):
        super().__init__(parent_hyperparam or self._default_hyperparam)
        set_hyperparams(self.hyperparam, **hyperparams)

    def init_state(self, param):
        xp = param.device.xp
        array = param.array
        with param.device.create_context():
            for name, fill in self._state_fills:
                self.state[name] = (
                    xp.ones_like(array) if fill else xp.zeros_like(array))

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        if param.array.ndim == 0:
            self._update_0d(param.array, grad, self.hyperparam)
        else:
            self._update_cpu(param.array, grad, self.hyperparam)

    def _update_cpu(self, p, grad, hp):
        # Updates the NumPy parameter array ``p`` (and self.state) in place.
        raise NotImplementedError

    def _update_0d(self, p, grad, hp):
        # Updates a 0-d ``p`` as Chainer 7.8 did on NumPy 1, with the
        # constants from numpy1_scalars.
        raise NotImplementedError

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        names = self._kernel_hyperparams
        states = [name for name, _ in self._state_fills]
        cuda.elementwise(
            ', '.join(['T grad'] + ['T ' + name for name in names]),
            ', '.join(['T param'] + ['T ' + name for name in states]),
            self._kernel_code, self._kernel_name,
        )(grad, *[getattr(hp, name) for name in names], param.array,
          *[self.state[name] for name in states])
