"""Numerical gradients, and checks of backward implementations against them.

:func:`check_backward` compares the gradients computed by backprop with
numerical ones. To keep the cost independent of the input size, it does
not differentiate numerically with respect to every input element: it
draws a random unit direction :math:`r` over all inputs and parameters,
differentiates :math:`g(\\delta) = f(x + \\delta r)` at 0 by central
differences, and compares that number with the inner product of the
backprop gradients and :math:`r`.
"""

import io
import warnings

import numpy

import chainer
from chainer import backend
from chainer import configuration
from chainer.testing import array as array_module
from chainer import utils
from chainer.utils.error import _format_array_props
from chainer import variable


class NondifferentiableError(Exception):
    """A numerical gradient was asked at a non-differentiable point."""


def _as_tuple(xs):
    if isinstance(xs, tuple):
        return xs
    if isinstance(xs, list):
        return tuple(xs)
    return xs,


def _to_cpu(x):
    return x if isinstance(x, numpy.ndarray) else x.get()


def _same_backend(arrays):
    # True if all arrays live in one array module (and on one GPU).
    modules = {backend.get_array_module(a) for a in arrays}
    if len(modules) > 1:
        return False
    if modules and modules != {numpy}:
        return len({a.device.id for a in arrays}) == 1
    return True


def _make_outputs_props_in_error_message(outputs, grad_outputs):
    return (
        'Output shapes and dtypes         : {}\n'
        'Output gradient shapes and dtypes: {}'.format(
            _format_array_props(outputs),
            _format_array_props(grad_outputs)))


def _check_outputs_and_grad_outputs(outputs, grad_outputs):
    # Output gradients must match the outputs in number, shape and dtype.
    if len(outputs) != len(grad_outputs):
        raise ValueError(
            'Output gradients must contain equally as many elements as '
            'the number of output elements.\n'
            '{}'.format(
                _make_outputs_props_in_error_message(outputs, grad_outputs)))
    match = True
    for y, gy in zip(outputs, grad_outputs):
        if gy is None:
            continue
        if y is None and (gy == 0).all():
            continue
        if y is None or y.shape != gy.shape or y.dtype != gy.dtype:
            match = False
    if not match:
        raise ValueError(
            'Shapes and/or dtypes of outputs and output gradients do not '
            'match.\n'
            '{}'.format(
                _make_outputs_props_in_error_message(outputs, grad_outputs)))


def _nondifferentiable_message(i_in, i_out, x, index, eps, yss, extra=()):
    f = io.StringIO()
    f.write(
        'Tried to compute the numeric gradient on a non-differentiable '
        'point.\n\n')
    f.write('i_in: {}\n'.format(i_in))
    f.write('i_out: {}\n'.format(i_out))
    f.write('x: {}\n'.format(x))
    f.write('index on x: {}\n'.format(index))
    f.write('eps: {}\n'.format(eps))
    for name, value in extra:
        f.write('{}: {}\n'.format(name, value))
    labels = ('x-eps  ', 'x-eps/2', 'x      ', 'x+eps/2', 'x+eps  ')
    for label, ys in zip(labels, yss):
        f.write('y[{}]: {}\n'.format(label, ys[i_out]))
    return f.getvalue()


def _check_differentiable(yss, i_in, x, index, eps, diff_atol, diff_rtol):
    # Raises NondifferentiableError if the outputs sampled at the five
    # points x-eps, x-eps/2, x, x+eps/2, x+eps either change finiteness or
    # do not fit a quadratic polynomial within the tolerances.
    outputs = [i for i, y in enumerate(yss[0]) if y is not None]
    if all(yss[0][i].size == 0 for i in outputs):
        return
    xp = backend.get_array_module(*[yss[0][i] for i in outputs])
    any_nonfinite = False
    for i_out in outputs:
        finite = [xp.isfinite(ys[i_out]) for ys in yss]
        if any((finite[0] != fin).any() for fin in finite[1:]):
            raise NondifferentiableError(
                _nondifferentiable_message(i_in, i_out, x, index, eps, yss))
        any_nonfinite |= not all(fin.all() for fin in finite)
    if any_nonfinite:
        # Consistently non-finite around the point (e.g. log(x) at x < 0)
        # does not make the point non-differentiable.
        return

    samples = [[_to_cpu(ys[i]) for i in outputs] for ys in yss]
    ystack = numpy.vstack(
        [numpy.hstack([y.ravel() for y in ys]) for ys in samples])
    _, (residuals, _, _, _) = numpy.polynomial.polynomial.polyfit(
        numpy.arange(len(yss)), ystack, deg=2, full=True)
    residuals = numpy.sqrt(residuals / len(yss))

    offset = 0
    for k, i_out in enumerate(outputs):
        ys = numpy.stack([s[k] for s in samples])
        ymax = ys.max(axis=0)
        ymin = ys.min(axis=0)
        size = ys[0].size
        res = residuals[offset:offset + size].reshape(ys[0].shape)
        offset += size
        tolerance = diff_atol + diff_rtol * (ymax - ymin)
        detected = numpy.asarray(tolerance < res)
        # A constant output is differentiable.
        detected[ymax == ymin] = False
        if detected.any():
            raise NondifferentiableError(_nondifferentiable_message(
                i_in, i_out, x, index, eps, yss, (
                    ('diff_rtol', diff_rtol),
                    ('diff_atol', diff_atol),
                    ('ymax', ymax),
                    ('ymin', ymin),
                    ('diff_atol + diff_rtol * (ymax-ymin)', tolerance),
                    ('fitting errors', res))))


def _derivative_dot(yss, grad_outputs, eps):
    # Inner product of the central-difference derivative of the outputs
    # with the output gradients: second order from two samples, fourth
    # order from five.
    total = 0
    for i_out, gy in enumerate(grad_outputs):
        if gy is None:
            continue
        ys = [samples[i_out] for samples in yss]
        assert all((y is None) == (ys[0] is None) for y in ys)
        if ys[0] is None:
            continue
        if len(ys) == 2:
            total = total + ((ys[1] - ys[0]) * gy).sum() / (2 * eps)
        else:
            num = -ys[4] + 8 * ys[3] - 8 * ys[1] + ys[0]
            total = total + (num * gy).sum() / (6 * eps)
    return total


def numerical_grad(
        f, inputs, grad_outputs, eps=1e-3,
        detect_nondifferentiable=False, diff_atol=0, diff_rtol=1e-2,
        center_outputs=None):
    """Computes a numerical gradient by central differences.

    Each element of each input array is moved by ``-eps`` and ``+eps`` in
    place and ``f`` is evaluated; the difference of the outputs, weighted
    by ``grad_outputs``, gives the gradient with respect to that element.
    The arithmetic is done in float64.

    Args:
        f (callable): Function without arguments that runs the forward
            computation on ``inputs`` and returns a tuple of output arrays
            (``None`` for an output without gradient).
        inputs (tuple of arrays): Float arrays that ``f`` reads; they are
            modified in place during the computation and restored.
        grad_outputs (tuple of arrays or scalars): Gradients of the
            outputs; ``None`` where an output does not contribute.
        eps (float): Step of the finite differences.
        detect_nondifferentiable (bool): If ``True``, ``f`` is also
            evaluated at ``x`` and ``x ± eps/2``; the point is declared
            non-differentiable when an output changes finiteness or does
            not fit a quadratic polynomial within
            ``diff_atol + diff_rtol * (max(y) - min(y))``. The gradient is
            then accurate to the fourth order of ``eps``.
        diff_atol (float): Absolute tolerance of the fitting error.
        diff_rtol (float): Tolerance of the fitting error relative to the
            range of the sampled outputs.
        center_outputs: Accepted for compatibility and ignored: the outputs
            at ``inputs`` are always recomputed in float64.

    Returns:
        list of arrays: The gradients, one per input, of the input dtypes.

    Raises:
        RuntimeError: If an input is not a float array, or CPU and GPU
            arrays are mixed.
        NondifferentiableError: If ``detect_nondifferentiable`` is set and
            ``f`` is not differentiable at ``inputs``.
    """
    assert eps > 0
    assert isinstance(inputs, (tuple, list))
    for x in inputs:
        if x.dtype.kind != 'f':
            raise RuntimeError(
                'The dtype of input arrays must be kind of float')
    inputs = tuple(inputs)
    grad_outputs = tuple(
        None if g is None
        else numpy.float64(g) if numpy.isscalar(g)
        else g.astype(numpy.float64)
        for g in grad_outputs)
    arrays = [a for a in inputs + grad_outputs
              if a is not None and not numpy.isscalar(a)]
    if not _same_backend(arrays):
        raise RuntimeError('Do not mix GPU and CPU arrays in `numerical_grad`')
    xp = backend.get_array_module(*arrays)

    def as_float64(ys):
        # Outputs may be arrays or Python scalars; they become float64
        # arrays, copied so that later evaluations cannot change them.
        return tuple(
            None if y is None else xp.array(y, dtype=numpy.float64)
            for y in _as_tuple(ys))

    def evaluate():
        ys = as_float64(f())
        assert len(ys) == len(grad_outputs)
        for y, gy in zip(ys, grad_outputs):
            assert y is not None or gy is None
            assert (gy is None or y is None or numpy.isscalar(gy)
                    or y.shape == gy.shape)
        return ys

    if detect_nondifferentiable:
        offsets = (-1., -.5, 0., .5, 1.)
        # ``center_outputs`` is ignored, as Chainer does: outputs computed
        # in a low-precision dtype are too coarse to judge differentiability.
        y_center = evaluate()
    else:
        offsets = (-1., 1.)
    grads = [xp.zeros(x.shape, numpy.float64) for x in inputs]

    with configuration.using_config('type_check', False):
        for i_in, (x, gx) in enumerate(zip(inputs, grads)):
            orig_x = x.copy()
            for index in numpy.ndindex(x.shape):
                orig = orig_x[index]
                yss = []
                for offset in offsets:
                    if offset == 0:
                        yss.append(y_center)
                        continue
                    x[index] = orig + offset * eps
                    yss.append(evaluate())
                    x[index] = orig
                if detect_nondifferentiable:
                    _check_differentiable(
                        yss, i_in, x, index, eps, diff_atol, diff_rtol)
                gx[index] += _derivative_dot(yss, grad_outputs, eps)

    return [g.astype(x.dtype, copy=False) for g, x in zip(grads, inputs)]


def assert_allclose(x, y, atol=1e-5, rtol=1e-4, verbose=True):
    """Deprecated alias of :func:`chainer.testing.assert_allclose`.

    Args:
        x: Left-hand-side array.
        y: Right-hand-side array.
        atol (float): Absolute tolerance.
        rtol (float): Relative tolerance.
        verbose (bool): Whether a failure prints details of the check.
    """
    warnings.warn(
        'chainer.gradient_check.assert_allclose is deprecated. '
        'Use chainer.testing.assert_allclose instead.',
        DeprecationWarning)
    array_module.assert_allclose(x, y, atol, rtol, verbose)


def _unpack_arrays(packed, shapes):
    # Splits a flat array into arrays of the given shapes (None kept).
    arrays = []
    offset = 0
    for shape in shapes:
        if shape is None:
            arrays.append(None)
            continue
        size = int(numpy.prod(shape))
        arrays.append(packed[offset:offset + size].reshape(shape))
        offset += size
    return tuple(arrays)


def _check_grad_props(x, gx):
    # The gradient of an input must have its dtype and shape.
    if gx.dtype != x.dtype:
        raise TypeError(
            'Dtype of data and grad mismatch\ngrad: {} != data: {}'.format(
                gx.dtype, x.dtype))
    if gx.shape != x.shape:
        raise ValueError(
            'Shape of data and grad mismatch\ngrad: {} != data: {}'.format(
                gx.shape, x.shape))


class _CheckBackward:
    """One run of :func:`check_backward`.

    If ``is_immutable_params`` is ``False``, ``params`` are
    :class:`~chainer.Parameter` objects used by ``func(*xs)`` and perturbed
    in place. Otherwise they are arrays, and ``func(xs, params)`` receives
    them wrapped in fresh Parameters at each call.
    """

    def __init__(
            self, func, xs, gys, params, eps, atol, rtol, no_gxs,
            dtype, detect_nondifferentiable, is_immutable_params):
        if dtype is not None and numpy.dtype(dtype).kind != 'f':
            raise ValueError('`dtype` is allowed only float type')
        params = _as_tuple(params)
        if is_immutable_params and not all(
                isinstance(p, chainer.get_array_types()) for p in params):
            raise ValueError(
                'All parameters in `params` must be ndarrays if '
                '`is_immutable_params` is `True`. Actual: {}.'.format(
                    ', '.join(str(type(p)) for p in params)))
        xs = _as_tuple(xs)
        if gys is not None:
            gys = _as_tuple(gys)
        if no_gxs is None:
            no_gxs = [None if x is None else x.dtype.kind != 'f' for x in xs]
        elif len(no_gxs) != len(xs):
            raise ValueError(
                'Length of no_grads param and xs should be same.\n'
                'Actual: {0} != {1}'.format(len(no_gxs), len(xs)))
        self.device = backend.get_device_from_array(
            *[x for x in xs if x is not None])
        self.func = func
        self.xs = xs
        self.gys = gys
        self.params = params
        self.no_gxs = no_gxs
        self.eps = eps
        self.atol = atol
        self.rtol = rtol
        self.dtype = dtype
        self.detect_nondifferentiable = detect_nondifferentiable
        self.is_immutable_params = is_immutable_params

    def run(self):
        """Runs the check; the params' arrays and grads are restored."""
        if self.is_immutable_params:
            with chainer.using_device(self.device):
                self._run()
            return
        saved_grads = [p.grad_var for p in self.params]
        self._saved_arrays = None
        try:
            with chainer.using_device(self.device):
                self._run()
        finally:
            if self._saved_arrays is not None:
                for p, a in zip(self.params, self._saved_arrays):
                    p.array = a
            for p, grad_var in zip(self.params, saved_grads):
                p.grad_var = grad_var

    def _run(self):
        # The forward pass comes first: it may initialize parameters, whose
        # shapes are needed to sample the direction.
        xs, ys, params = self._forward_for_backward_gradients()
        if not self.is_immutable_params:
            self._saved_arrays = [p.array for p in params]
        ys0 = tuple(None if y is None else y.array for y in ys)
        if self.gys is None:
            if not (len(ys) == 1 and ys[0].shape == ()):
                raise ValueError(
                    'y_grad argument cannot be omitted if the target '
                    'function is not a loss function, which has a single '
                    'output with shape ().\n'
                    'Actual output shapes: {}'.format(
                        ', '.join(str(y.shape) for y in ys)))
            self.gys = (self.device.xp.ones_like(ys0[0]),)
        else:
            _check_outputs_and_grad_outputs(ys, self.gys)
        self.gys = tuple(
            None if y is None else gy for gy, y in zip(self.gys, ys0))

        directions = self._sample_directions()
        gx_backward = self._directional_backward_gradients(
            xs, ys, params, directions)
        gx_numeric = self._directional_numeric_gradients(directions, ys0)
        self._compare_gradients(gx_numeric, gx_backward, directions)

    def _compare_gradients(self, gx_numeric, gx_backward, directions):
        try:
            array_module.assert_allclose(
                gx_numeric, gx_backward, atol=self.atol, rtol=self.rtol)
        except AssertionError as e:
            f = io.StringIO()
            f.write('check_backward failed (eps={} atol={} rtol={})\n'.format(
                self.eps, self.atol, self.rtol))
            for i, x in enumerate(self.xs):
                f.write('inputs[{}]:\n{}\n'.format(i, x))
            for i, gy in enumerate(self.gys):
                f.write('grad_outputs[{}]:\n{}\n'.format(i, gy))
            for i, d in enumerate(directions):
                f.write('directions[{}]:\n{}\n'.format(i, d))
            f.write('gradients (numeric):  {}\n'.format(gx_numeric))
            f.write('gradients (backward): {}\n'.format(gx_backward))
            f.write('\n')
            f.write('x: numeric gradient, y: backward gradient')
            f.write(str(e))
            raise AssertionError(f.getvalue()) from None

    @staticmethod
    def _sample_unit_vector(size, xp):
        """Draws a random unit vector of ``size`` elements on ``xp``.

        Each element is at least ``0.1 / sqrt(size)`` in magnitude: tiny
        components would make the comparison unstable.
        """
        directions = xp.random.normal(size=(size,))
        if size == 0:
            return directions
        squares = xp.square(directions)
        norm2 = squares.sum()
        return xp.copysign(
            xp.sqrt((0.99 / norm2) * squares + 0.01 / size), directions)

    def _sample_directions(self):
        # One direction array per differentiated input (None for a None
        # input) and per parameter.
        shapes = [
            None if x is None else x.shape
            for x, no_gx in zip(self.xs, self.no_gxs) if not no_gx]
        shapes += [p.shape for p in self.params]
        total = sum(int(numpy.prod(s)) for s in shapes if s is not None)
        packed = self._sample_unit_vector(total, self.device.xp)
        return _unpack_arrays(packed, shapes)

    def _call_func(self, xs, params_data):
        if self.is_immutable_params:
            ps = tuple(chainer.Parameter(p) for p in params_data)
            return _as_tuple(self.func(xs, ps)), ps
        return _as_tuple(self.func(*xs)), self.params

    def _forward_for_backward_gradients(self):
        xs = [
            None if x is None
            else variable.Variable(x, requires_grad=x.dtype.kind == 'f')
            for x in self.xs]
        if not self.is_immutable_params:
            _clear_grads(self.params)
        ys, params = self._call_func(xs, self.params)
        # ``func`` may call backward itself: start from clean gradients.
        _clear_grads(xs)
        _clear_grads(params)
        return xs, ys, params

    def _directional_backward_gradients(self, xs, ys, params, directions):
        # Copies keep backprop from touching the arrays that the numerical
        # gradient uses later.
        gys = [
            None if gy is None
            else variable.Variable(gy.copy(), requires_grad=False)
            for gy in self.gys]
        chainer.backward(ys, gys)

        for no_gx, x in zip(self.no_gxs, xs):
            if no_gx and x is not None and x.grad is not None:
                raise RuntimeError('gradient of int variable must be None')
        targets = [
            x for x, no_gx in zip(xs, self.no_gxs) if not no_gx]
        targets += list(params)
        assert len(targets) == len(directions)
        total = 0
        for target, direction in zip(targets, directions):
            if target is None or target.grad is None:
                continue
            grad = target.grad
            _check_grad_props(target.array, grad)
            total = total + (grad.astype(numpy.float64) * direction).sum()
        return total

    def _directional_numeric_gradients(self, directions, ys0):
        xp = self.device.xp
        dtype = self.dtype
        params_data = [
            p if self.is_immutable_params else p.array for p in self.params]
        x_vars = [
            None if x is None else variable.Variable(x, requires_grad=False)
            for x in self.xs]
        moving = [
            None if v is None else v.array
            for v, no_gx in zip(x_vars, self.no_gxs) if not no_gx]
        moving += params_data
        if dtype is not None:
            # Inputs left out of the gradient get the same dtype.
            for v, no_gx in zip(x_vars, self.no_gxs):
                if no_gx and v is not None and v.array.dtype.kind == 'f':
                    v.array = v.array.astype(dtype, copy=False)
            moving = [
                None if a is None else a.astype(dtype, copy=False)
                for a in moving]
        n_moving_xs = len(moving) - len(self.params)
        delta = xp.array(0., numpy.float64)

        def perturb(data, direction):
            if data is None:
                return None
            moved = (data.astype(numpy.float64) + delta * direction).astype(
                data.dtype)
            if numpy.isscalar(moved):
                moved = xp.array(moved)
            return moved

        def g():
            # ``numerical_grad`` sets ``delta`` to each sampling offset.
            moved = [perturb(a, d) for a, d in zip(moving, directions)]
            xs = []
            moved_xs = iter(moved[:n_moving_xs])
            for v, no_gx in zip(x_vars, self.no_gxs):
                if no_gx:
                    xs.append(v)
                else:
                    data = next(moved_xs)
                    xs.append(
                        None if data is None else variable.Variable(data))
            moved_params = moved[n_moving_xs:]
            if not self.is_immutable_params:
                for p, data in zip(self.params, moved_params):
                    p.array = data
                _clear_grads(self.params)
            _clear_grads(xs)
            try:
                ys, _ = self._call_func(xs, moved_params)
            finally:
                if not self.is_immutable_params:
                    for p, data in zip(self.params, moving[n_moving_xs:]):
                        p.array = data
            return tuple(None if y is None else y.array for y in ys)

        gx, = numerical_grad(
            g, (delta,), self.gys, eps=self.eps,
            detect_nondifferentiable=self.detect_nondifferentiable,
            center_outputs=ys0, diff_atol=0, diff_rtol=self.rtol)
        return gx


def _clear_grads(variables):
    for v in variables:
        if v is not None:
            v.grad_var = None


def check_backward(
        func, x_data, y_grad, params=(),
        eps=1e-3, atol=1e-5, rtol=1e-4, no_grads=None, dtype=None,
        detect_nondifferentiable=False):
    """Checks the backward computation of a function numerically.

    ``func`` is called on Variables wrapping ``x_data``; backprop from the
    outputs with gradients ``y_grad`` gives the gradients of the inputs and
    of ``params``. Along a random unit direction :math:`r` over all these
    arrays, the inner product of the backprop gradients with :math:`r` must
    agree with the numerical derivative of
    :math:`\\delta \\mapsto f(x + \\delta r)` at 0 (computed by
    :func:`numerical_grad`), within ``atol`` and ``rtol``. ``func`` is
    called several times and must be deterministic. The gradients of
    ``params`` are restored to what they were before the call.

    Inputs flagged in ``no_grads`` (by default, the non-float ones) are not
    moved, and their gradient must stay ``None``.

    Args:
        func (callable): Takes Variables, returns a Variable or a tuple of
            Variables: a function, a :class:`~chainer.FunctionNode` call, a
            :class:`~chainer.Link`, ...
        x_data (array or tuple of arrays): Inputs of ``func``.
        y_grad (array or tuple of arrays or None): Gradients of the
            outputs. ``None`` for a loss function, i.e. one output of shape
            ``()``, whose gradient is then 1.
        params (~chainer.Parameter or tuple of them): Parameters used by
            ``func`` whose gradients are checked too.
        eps (float): Step of the finite differences.
        atol (float): Absolute tolerance of the comparison.
        rtol (float): Relative tolerance of the comparison.
        no_grads (list of bool): For each input, ``True`` to leave it out of
            the check; it must get no gradient.
        dtype: If given (a float dtype), the numerical gradient is computed
            with the inputs and parameters cast to it, e.g. ``float64`` to
            check float16 functions precisely.
        detect_nondifferentiable (bool): If ``True``, raise
            :class:`NondifferentiableError` when ``func`` is not
            differentiable at ``x_data``.

    Raises:
        AssertionError: If the gradients disagree. The message shows the
            inputs, output gradients, direction and both derivatives.
        ValueError: If the arguments are inconsistent (``y_grad`` omitted
            for a non-loss function, mismatching shapes or dtypes, wrong
            length of ``no_grads``, non-float ``dtype``).
        RuntimeError: If an input in ``no_grads`` got a gradient.
        NondifferentiableError: See ``detect_nondifferentiable``.

    .. admonition:: Example

       >>> import numpy
       >>> import chainer.functions as F
       >>> from chainer import gradient_check
       >>> x = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
       >>> gy = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
       >>> gradient_check.check_backward(F.sin, x, gy, dtype=numpy.float64)
    """
    _CheckBackward(
        func, x_data, y_grad, params, eps, atol, rtol, no_grads, dtype,
        detect_nondifferentiable, is_immutable_params=False).run()


def _check_backward_with_params(
        func, x_data, y_grad, params=(),
        eps=1e-3, atol=1e-5, rtol=1e-4, no_grads=None, dtype=None,
        detect_nondifferentiable=False):
    # Like check_backward, with ``params`` given as arrays and passed to
    # ``func(xs, params)`` as fresh Parameters: nothing held by the caller
    # is modified.
    assert all(isinstance(p, chainer.get_array_types()) for p in params)
    _CheckBackward(
        func, x_data, y_grad, params, eps, atol, rtol, no_grads, dtype,
        detect_nondifferentiable, is_immutable_params=True).run()


def _first_order_grad_function(func, n_x, first_order_no_gxs, params):
    # The function (xs..., gys...) -> (gradients of the differentiable xs,
    # gradients of params) that check_double_backward differentiates.
    def first_order_grad(*inputs):
        xs = inputs[:n_x]
        gys = inputs[n_x:]
        ys = _as_tuple(func(*xs))
        # The numerical gradient may hand float64 output gradients to a
        # function with lower precision outputs.
        gys = [
            None if gy is None
            else gy if gy.dtype == y.dtype
            else chainer.functions.cast(gy, y.dtype)
            for y, gy in zip(ys, gys)]
        _check_outputs_and_grad_outputs(ys, gys)
        chainer.backward(ys, gys, enable_double_backprop=True)

        gxs = []
        errors = []
        for i, (no_gx, x) in enumerate(zip(first_order_no_gxs, xs)):
            if no_gx:
                if x.grad is not None:
                    errors.append(
                        '[{}]: Gradient was calculated while expected to '
                        'not.'.format(i))
            else:
                gxs.append(None if x.grad is None else x.grad_var)
        if errors:
            f = io.StringIO()
            f.write('There are errors retrieving first-order gradients:\n')
            f.write('Inputs: {}\n'.format(
                _format_array_props(xs)))
            f.write('Skip: {}\n'.format(
                ', '.join(str(no_gx) for no_gx in first_order_no_gxs)))
            f.write('Errors:\n')
            for error in errors:
                f.write('{}\n'.format(error))
            raise RuntimeError(f.getvalue())
        return tuple(gxs + [p.grad_var for p in params])
    return first_order_grad


def check_double_backward(func, x_data, y_grad, x_grad_grad, params=(),
                          params_grad_grad=(), eps=1e-3, atol=1e-4, rtol=1e-3,
                          no_grads=None, dtype=None,
                          detect_nondifferentiable=False):
    """Checks the second-order gradients of a function numerically.

    The first-order backprop of ``func`` (with ``enable_double_backprop``)
    is seen as a function of the inputs and output gradients, returning the
    input and parameter gradients; :func:`check_backward` then checks its
    backward with ``x_grad_grad`` and ``params_grad_grad`` as output
    gradients. The first-order gradients are assumed to be right: check
    them with :func:`check_backward` first. The default tolerances are
    larger than those of :func:`check_backward` since second-order
    numerical gradients are less precise.

    Args:
        func (callable): As in :func:`check_backward`.
        x_data (array or tuple of arrays): Inputs of ``func``.
        y_grad (array or tuple of arrays): Gradients of the outputs.
        x_grad_grad (array or tuple of arrays): Gradients with respect to
            the first-order gradients of the (float) inputs.
        params (~chainer.Parameter or tuple of them): Parameters of
            ``func`` whose gradients are checked too.
        params_grad_grad (array or tuple of arrays): Gradients with respect
            to the first-order gradients of ``params``.
        eps (float): Step of the finite differences.
        atol (float): Absolute tolerance of the comparison.
        rtol (float): Relative tolerance of the comparison.
        no_grads (list of bool): As in :func:`check_backward`, one flag per
            element of ``x_data`` followed by one per element of
            ``y_grad``.
        dtype: Float dtype of the numerical computation, or ``None``.
        detect_nondifferentiable (bool): As in :func:`check_backward`.

    Raises:
        AssertionError: If the second-order gradients disagree.
        RuntimeError: If a non-float input got a first-order gradient.
    """
    xs = _as_tuple(x_data)
    params = _as_tuple(params)
    gys = _as_tuple(y_grad)
    ggxs = _as_tuple(x_grad_grad)
    ggparams = _as_tuple(params_grad_grad)
    first_order_no_gxs = [x.dtype.kind != 'f' for x in xs]
    first_order_grad = _first_order_grad_function(
        func, len(xs), first_order_no_gxs, params)
    try:
        check_backward(
            first_order_grad, xs + gys, ggxs + ggparams, params=params,
            eps=eps, atol=atol, rtol=rtol, no_grads=no_grads, dtype=dtype,
            detect_nondifferentiable=detect_nondifferentiable)
    except AssertionError as e:
        f = io.StringIO()
        f.write('check_double_backward failed '
                '(eps={} atol={} rtol={})\n'.format(eps, atol, rtol))
        for i, x in enumerate(xs):
            f.write('input[{}]:\n{}\n'.format(i, x))
        for i, gy in enumerate(gys):
            f.write('grad_output[{}]:\n{}\n'.format(i, gy))
        for i, ggx in enumerate(ggxs):
            f.write('grad_grad_input[{}]:\n{}\n'.format(i, ggx))
        for i, ggp in enumerate(ggparams):
            f.write('grad_grad_param[{}]:\n{}\n'.format(i, ggp))
        f.write('\n')
        f.write(str(e))
        utils._raise_from(AssertionError, f.getvalue(), e)
