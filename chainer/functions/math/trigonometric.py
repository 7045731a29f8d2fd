"""Element-wise trigonometric functions and their inverses."""

import numpy

from chainer import backend
from chainer.backends import cuda
from chainer import function_node
from chainer.functions.math import square as square_module
from chainer.functions.math import sum as sum_module
from chainer import utils
from chainer.utils import type_check


class Sin(function_node.FunctionNode):

    """Element-wise sine; its derivative is ``cos(x)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'sin'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.sin(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return SinGrad().apply((x, grad_outputs[0]))


class SinGrad(function_node.FunctionNode):

    """Gradient of :class:`Sin`: ``cos(x) * gy`` from inputs ``(x, gy)``."""

    is_elementwise = True

    def forward_cpu(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        gx = utils.force_array(numpy.cos(x))
        gx *= gy
        return gx,

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return cuda.elementwise(
            'T x, T gy', 'T gx', 'gx = cos(x) * gy', 'chainer_sin_grad',
        )(x, gy),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(-sin(x) * gy * ggx)
        if 1 in indexes:
            ret.append(cos(x) * ggx)
        return ret


def sin(x):
    """Element-wise sine, :math:`y_i = \\sin x_i`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype, in radians.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Sin().apply((x,))[0]


class Cos(function_node.FunctionNode):

    """Element-wise cosine; its derivative is ``-sin(x)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'cos'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.cos(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return CosGrad().apply((x, grad_outputs[0]))


class CosGrad(function_node.FunctionNode):

    """Gradient of :class:`Cos`: ``-sin(x) * gy`` from inputs ``(x, gy)``.
    """

    is_elementwise = True

    def forward_cpu(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        gx = utils.force_array(numpy.sin(x))
        numpy.negative(gx, out=gx)
        gx *= gy
        return gx,

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return cuda.elementwise(
            'T x, T gy', 'T gx', 'gx = -sin(x) * gy', 'chainer_cos_grad',
        )(x, gy),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(-cos(x) * gy * ggx)
        if 1 in indexes:
            ret.append(-sin(x) * ggx)
        return ret


def cos(x):
    """Element-wise cosine, :math:`y_i = \\cos x_i`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype, in radians.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Cos().apply((x,))[0]


class Tan(function_node.FunctionNode):

    """Element-wise tangent; its derivative is ``1 / cos(x) ** 2``."""

    is_elementwise = True

    @property
    def label(self):
        return 'tan'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.tan(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / square_module.square(cos(x)),


def tan(x):
    """Element-wise tangent, :math:`y_i = \\tan x_i`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype, in radians.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``.
    """
    return Tan().apply((x,))[0]


class Arcsin(function_node.FunctionNode):

    """Element-wise inverse sine; its derivative is
    ``1 / sqrt(1 - x ** 2)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'arcsin'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.arcsin(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return ArcsinGrad().apply((x, grad_outputs[0]))


class ArcsinGrad(function_node.FunctionNode):

    """Gradient of :class:`Arcsin`: ``gy / sqrt(1 - x ** 2)`` from inputs
    ``(x, gy)``."""

    is_elementwise = True

    def forward_cpu(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        gx = utils.force_array(numpy.square(x))
        numpy.subtract(1, gx, out=gx)
        numpy.sqrt(gx, out=gx)
        numpy.divide(gy, gx, out=gx)
        return gx,

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return cuda.elementwise(
            'T x, T gy', 'T gx', 'gx = rsqrt((T)1 - x * x) * gy',
            'chainer_arcsin_grad',
        )(x, gy),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(ggx * gy * x / (1 - x * x) ** 1.5)
        if 1 in indexes:
            ret.append(ArcsinGrad().apply((x, ggx))[0])
        return ret


def arcsin(x):
    """Element-wise inverse sine, :math:`y_i = \\arcsin x_i`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype, in :math:`[-1, 1]` (``nan`` outside).

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``, in
        radians.
    """
    return Arcsin().apply((x,))[0]


class Arccos(function_node.FunctionNode):

    """Element-wise inverse cosine; its derivative is
    ``-1 / sqrt(1 - x ** 2)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'arccos'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.arccos(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return ArccosGrad().apply((x, grad_outputs[0]))


class ArccosGrad(function_node.FunctionNode):

    """Gradient of :class:`Arccos`: ``-gy / sqrt(1 - x ** 2)`` from inputs
    ``(x, gy)``."""

    is_elementwise = True

    def forward_cpu(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        gx = utils.force_array(numpy.square(x))
        numpy.subtract(1, gx, out=gx)
        numpy.sqrt(gx, out=gx)
        numpy.divide(gy, gx, out=gx)
        numpy.negative(gx, out=gx)
        return gx,

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return cuda.elementwise(
            'T x, T gy', 'T gx', 'gx = -rsqrt((T)1 - x * x) * gy',
            'chainer_arccos_grad',
        )(x, gy),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(-ggx * gy * x / (1 - x * x) ** 1.5)
        if 1 in indexes:
            ret.append(ArccosGrad().apply((x, ggx))[0])
        return ret


def arccos(x):
    """Element-wise inverse cosine, :math:`y_i = \\arccos x_i`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype, in :math:`[-1, 1]` (``nan`` outside).

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``, in
        radians.
    """
    return Arccos().apply((x,))[0]


class Arctan(function_node.FunctionNode):

    """Element-wise inverse tangent; its derivative is
    ``1 / (1 + x ** 2)``."""

    is_elementwise = True

    @property
    def label(self):
        return 'arctan'

    check_type_forward = type_check._argument_check(('x',), True)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.arctan(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return ArctanGrad().apply((x, grad_outputs[0]))


class ArctanGrad(function_node.FunctionNode):

    """Gradient of :class:`Arctan`: ``gy / (1 + x ** 2)`` from inputs
    ``(x, gy)``."""

    is_elementwise = True

    def forward_cpu(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        gx = utils.force_array(numpy.square(x))
        gx += 1
        numpy.divide(gy, gx, out=gx)
        return gx,

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return cuda.elementwise(
            'T x, T gy', 'T gx', 'gx = gy / ((T)1 + x * x)',
            'chainer_arctan_grad',
        )(x, gy),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        denom = square_module.square(x) + 1
        ret = []
        if 0 in indexes:
            ret.append(-2 * x * gy * ggx / square_module.square(denom))
        if 1 in indexes:
            ret.append(ggx / denom)
        return ret


def arctan(x):
    """Element-wise inverse tangent, :math:`y_i = \\arctan x_i`.

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a float dtype.

    Returns:
        ~chainer.Variable: Output variable, of the dtype of ``x``, in
        radians within :math:`(-\\pi/2, \\pi/2)`.
    """
    return Arctan().apply((x,))[0]


class Arctan2(function_node.FunctionNode):

    """Element-wise angle of the point ``(x2, x1)``, ``arctan(x1 / x2)``
    taken in the right quadrant."""

    @property
    def label(self):
        return 'arctan2'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x1', 'x2'))
        x1_type, x2_type = in_types
        type_check.expect(
            x1_type.dtype.kind == 'f',
            x2_type.dtype.kind == 'f',
        )
        type_check.expect_broadcast_shapes(x1_type.shape, x2_type.shape)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x1, x2 = inputs
        xp = backend.get_array_module(x1, x2)
        return utils.force_array(xp.arctan2(x1, x2)),

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        return Arctan2Grad().apply((x1, x2, grad_outputs[0]))


class Arctan2Grad(function_node.FunctionNode):

    """Gradients of :class:`Arctan2`, from inputs ``(x1, x2, gy)``:
    ``x2 / r2 * gy`` and ``-x1 / r2 * gy`` with ``r2 = x1 ** 2 + x2 ** 2``,
    each summed to the shape of its operand."""

    def forward_cpu(self, inputs):
        self.retain_inputs((0, 1, 2))
        x1, x2, gy = inputs
        scale = gy / (numpy.square(x1) + numpy.square(x2))
        gx1 = utils.force_array(x2 * scale)
        gx2 = utils.force_array(x1 * scale)
        numpy.negative(gx2, out=gx2)
        return utils.sum_to(gx1, x1.shape), utils.sum_to(gx2, x2.shape)

    def forward_gpu(self, inputs):
        self.retain_inputs((0, 1, 2))
        x1, x2, gy = inputs
        gx1, gx2 = cuda.elementwise(
            'T x1, T x2, T gy', 'T gx1, T gx2',
            '''
            T scale = gy / (x1 * x1 + x2 * x2);
            gx1 = x2 * scale;
            gx2 = -x1 * scale;
            ''',
            'chainer_arctan2_grad',
        )(x1, x2, gy)
        return utils.sum_to(gx1, x1.shape), utils.sum_to(gx2, x2.shape)

    def backward(self, indexes, grad_outputs):
        x1, x2, gy = self.get_retained_inputs()
        ggx1, ggx2 = grad_outputs
        x1_sq = x1 * x1
        x2_sq = x2 * x2
        r2 = x1_sq + x2_sq
        diff = x1_sq - x2_sq
        prod2 = 2 * x1 * x2
        ret = []
        if 0 in indexes or 1 in indexes:
            gy_r4 = gy / (r2 * r2)
        if 0 in indexes:
            terms = []
            if ggx1 is not None:
                terms.append(-ggx1 * prod2)
            if ggx2 is not None:
                terms.append(ggx2 * diff)
            ret.append(_sum_terms(terms, gy_r4, x1.shape))
        if 1 in indexes:
            terms = []
            if ggx1 is not None:
                terms.append(ggx1 * diff)
            if ggx2 is not None:
                terms.append(ggx2 * prod2)
            ret.append(_sum_terms(terms, gy_r4, x2.shape))
        if 2 in indexes:
            terms = []
            if ggx1 is not None:
                terms.append(ggx1 * x2)
            if ggx2 is not None:
                terms.append(-ggx2 * x1)
            ret.append(_sum_terms(terms, 1 / r2, gy.shape))
        return ret


def _sum_terms(terms, factor, shape):
    # (sum of the variables in terms) * factor, summed down to shape.
    if not terms:
        return None
    total = terms[0]
    for term in terms[1:]:
        total = total + term
    return sum_module.sum_to(total * factor, shape)


def arctan2(x1, x2):
    """Element-wise arctangent of ``x1 / x2`` with the quadrant of the point
    ``(x2, x1)``.

    The two inputs broadcast against each other as in NumPy.

    Args:
        x1 (:class:`~chainer.Variable` or :ref:`ndarray`): Y-coordinates, of
            a float dtype.
        x2 (:class:`~chainer.Variable` or :ref:`ndarray`): X-coordinates, of
            a float dtype.

    Returns:
        ~chainer.Variable: The angles, in radians between :math:`-\\pi` and
        :math:`\\pi`.

    .. admonition:: Example

        >>> y = np.array([1., 1., -1.], np.float32)
        >>> x = np.array([1., -1., -1.], np.float32)
        >>> (F.arctan2(y, x).array / np.pi).round(6)
        array([ 0.25,  0.75, -0.75], dtype=float32)

    """
    return Arctan2().apply((x1, x2))[0]
