"""Variables: the arrays of a define-by-run computational graph."""

import threading
import warnings
import weakref

import numpy

import chainer
from chainer import _backprop
from chainer import _core_fields
from chainer import backend
from chainer.backends import _cpu
from chainer.backends import cuda
from chainer import configuration
from chainer import initializers
from chainer.utils import argument


_ARRAY_TYPES = backend._ARRAY_TYPES

# Empty until the process makes its first variable of a non-standard memory
# layout (see :mod:`chainer.memory_layouts`) or a function node declares
# one for its outputs; until then the autograd cores, the compiled one
# included, skip every layout check. It only ever grows.
_layouts_in_use = []

_thread_local = threading.local()


def _raw_shape(shape, layout):
    """The shape an array of ``layout`` is stored in, from its semantic
    shape."""
    return chainer.memory_layouts._transpose_shape(shape, None, layout)


def _semantic_shape(shape, layout):
    """The semantic (channel-first) shape of a raw shape of ``layout``."""
    return chainer.memory_layouts._transpose_shape(shape, layout, None)


def _give_layout(var, layout):
    """Makes the array of a new variable (and its gradient) count as stored
    in the non-standard ``layout``."""
    if not _layouts_in_use:
        _layouts_in_use.append(True)
    var._layout = layout
    node = var._node
    node._layout = layout
    data = var._data
    if data is not None:
        node.shape = _semantic_shape(data.shape, layout)
    grad_var = var._grad_var
    if grad_var is not None and grad_var._layout is None:
        _give_layout(grad_var, layout)


class _AllowArrayAccessWithNonstandardLayout:
    """Context manager that lets the code within it read and set ``array``,
    ``data`` and ``grad`` of variables with a non-standard layout (the raw
    arrays)."""

    def __enter__(self):
        self._old = _allow_array_access_with_nonstandard_layout()
        _thread_local.allow_array_access_with_nonstandard_layout = True

    def __exit__(self, typ, value, traceback):
        _thread_local.allow_array_access_with_nonstandard_layout = self._old


def _allow_array_access_with_nonstandard_layout():
    """Whether this thread is within
    :class:`_AllowArrayAccessWithNonstandardLayout`."""
    return getattr(
        _thread_local, 'allow_array_access_with_nonstandard_layout', False)


def _check_layout_access(var, what):
    # Raises unless the arrays of ``var`` may be used directly.
    if var._layout is not None and not (
            _allow_array_access_with_nonstandard_layout()):
        raise RuntimeError(
            'Cannot directly {} a variable with non-standard '
            'layout.'.format(what))


def _grad_error_prefix(func):
    if func is None:
        return ''
    return (
        'Function `{0}` ({1}) has a bug.\n\n'
        'Please report this error with the stack trace, the information '
        'of your environment and your script.\n'.format(
            type(func).__name__, func.label))


def _check_grad_type(func, x, is_node_x, gx):
    """Checks that ``gx`` can be the gradient of ``x``.

    Args:
        func (FunctionNode or None): The function that computed ``gx``; it
            is named in the message when the check fails.
        x (Variable or VariableNode): The variable the gradient is for.
        is_node_x (bool): Whether ``x`` is a :class:`VariableNode`.
        gx: The gradient array.

    Raises:
        TypeError: if the type or the dtype of ``gx`` is wrong.
        ValueError: if the shape of ``gx`` is wrong.
    """
    if is_node_x:
        x_data = x.data
        x_shape = x.shape
        x_dtype = x.dtype
    else:
        x_data = x._data
        x_shape = None if x_data is None else x_data.shape
        x_dtype = None if x_data is None else x_data.dtype
    if not isinstance(gx, _ARRAY_TYPES):
        raise TypeError(
            _grad_error_prefix(func)
            + 'Type of grad is invalid:\nExpected: Any of {}\nActual: {}'
            .format(_ARRAY_TYPES, type(gx)))
    if x_data is not None and type(gx) is not type(x_data):
        raise TypeError(
            _grad_error_prefix(func)
            + 'Type of data and grad mismatch\ngrad: {} != data: {}'.format(
                type(gx), type(x_data)))
    if x_dtype is not None and gx.dtype != x_dtype:
        raise TypeError(
            _grad_error_prefix(func)
            + 'Dtype of data and grad mismatch\ngrad: {} != data: {}'.format(
                gx.dtype, x_dtype))
    if x_shape is not None and gx.shape != x_shape and not (
            is_node_x and x._layout is not None
            and gx.shape == _raw_shape(x_shape, x._layout)):
        # A gradient has the raw shape; a node of a non-standard layout
        # records the semantic one.
        raise ValueError(
            _grad_error_prefix(func)
            + 'Shape of data and grad mismatch\ngrad: {} != data: {}'.format(
                gx.shape, x_shape))


class VariableNode(_core_fields.VariableNodeFields):
    """The node of a variable in the computational graph.

    A variable node stands for a :class:`Variable` in the graph. It keeps
    only a weak reference to the variable, so the array of a variable that
    user code drops is freed unless a function retained it for backward.

    Args:
        variable (Variable): The variable this node stands for.
        name (str): A label for the variable.

    Attributes:
        dtype: Data type of the variable's array.
        shape (tuple): Shape of the variable's array (the semantic shape,
            for a variable of a non-standard memory layout).
        name (str): A label for the variable.
    """

    # The fields are those of the base (chainer._core_fields).
    __slots__ = ('__weakref__',)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _core_fields.refuse_redefined(cls, _core_fields.VARIABLE_NODE_FIELDS)

    def __init__(self, variable, name, **kwargs):
        if kwargs:
            argument.check_unexpected_kwargs(
                kwargs, grad='unexpected keyword argument "grad": pass the '
                'gradient to chainer.Variable instead')
            argument.assert_kwargs_empty(kwargs)
        # The fields _init_variable gives the node of a new variable.
        self._variable = weakref.ref(variable)
        self._creator_node = None
        self._data = None
        self._rank = 0
        self.name = name
        self._requires_grad = variable._requires_grad
        self._old_style_grad_generator = None
        self._layout = variable._layout
        self._update_data_info(variable._data)

    @property
    def creator(self):
        """The function that created this node (old-style if it was one)."""
        node = self._creator_node
        if node is None:
            return None
        if isinstance(node, chainer.function.FunctionAdapter):
            return node.function
        return node

    @creator.setter
    def creator(self, func):
        self.set_creator(func)

    @property
    def creator_node(self):
        """The :class:`FunctionNode` that created this node, or ``None``."""
        return self._creator_node

    @creator_node.setter
    def creator_node(self, func):
        self.set_creator_node(func)

    @property
    def data(self):
        """The array retained for backward, or ``None``.

        Setting it also sets :attr:`dtype` and :attr:`shape` from the new
        array (both ``None`` for ``None``).
        """
        return self._data

    @data.setter
    def data(self, data):
        self._data = data
        self._update_data_info(data)

    @property
    def grad(self):
        """The gradient array of the variable, if the variable is alive."""
        var = self._variable()
        return None if var is None else var.grad

    @property
    def grad_var(self):
        """The gradient variable of the variable, if the variable is alive."""
        var = self._variable()
        return None if var is None else var._grad_var

    @property
    def label(self):
        """A short text of the shape and dtype, used in graph dumps."""
        if self.shape == ():
            return str(self.dtype)
        return '({}), {}'.format(
            ', '.join(str(dim) for dim in self.shape), self.dtype)

    @property
    def rank(self):
        """The topological rank: one more than the rank of the creator."""
        return self._rank

    @property
    def requires_grad(self):
        """Whether the gradient of this node is computed by backprop."""
        return self._requires_grad

    def get_variable(self):
        """Returns the variable of this node.

        If the variable object is gone, a new one holding the retained array
        is made for this node.
        """
        var = self._variable()
        if var is not None:
            return var
        var = Variable._init_unchecked(
            self._data, name=self.name, requires_grad=self._requires_grad,
            node=self)
        return var

    def get_variable_or_none(self):
        """Returns the variable of this node, or ``None`` if it is gone."""
        return self._variable()

    def set_creator(self, creator):
        """Sets a :class:`FunctionNode` or old-style function as creator."""
        self.set_creator_node(creator)

    def set_creator_node(self, creator_node):
        """Sets the creator and updates the rank of this node.

        An old-style function stands for its node; ``None`` cuts the node
        off its creator and keeps the rank.
        """
        if isinstance(creator_node, chainer.function.Function):
            creator_node = creator_node.node
        self._creator_node = creator_node
        if creator_node is not None:
            self._rank = creator_node.rank + 1

    def unchain(self):
        """Forgets the creator, cutting the graph above this node."""
        self._creator_node = None

    def retain_data(self):
        """Keeps a reference to the array of the variable for backward."""
        var = self._variable()
        if var is None:
            raise RuntimeError('cannot retain variable data: the variable '
                               'has been already released')
        self._data = var._data

    def _update_data_info(self, data):
        # ``data`` is the raw array; the node records the semantic shape.
        if data is None:
            self.dtype = None
            self.shape = None
        else:
            self.dtype = data.dtype
            layout = self._layout
            self.shape = data.shape if layout is None else (
                _semantic_shape(data.shape, layout))
        if self._data is not None:
            self._data = data

    def _set_grad_var_if_available(self, grad_var):
        var = self._variable()
        if var is not None:
            var._set_grad_var_without_check(grad_var)

    def _check_old_style_gradient(self):
        if self._old_style_grad_generator is not None:
            raise RuntimeError(
                'cannot twice-differentiate an old style Function "{}"'
                .format(self._old_style_grad_generator))


_new_object = object.__new__


def _init_variable(var, data, name, requires_grad, node=None):
    """Sets every field of a new variable and of its new node.

    It is the one way variables are built: :class:`Variable`, its copies,
    ``_init_unchecked`` and the outputs of :meth:`FunctionNode.apply` all
    come here. It runs for every output of every function: no checks, and
    the node is filled in place rather than by another call.

    Args:
        var (Variable): The new, bare variable (from ``__new__``).
        data: Its array (already checked), or ``None``.
        name (str): Its name.
        requires_grad (bool): Whether backprop computes its gradient.
        node (VariableNode): An existing node whose variable is gone, to
            stand for ``var`` (with the node's memory layout); by default
            a new node is made, of the standard layout.

    Returns:
        Variable: ``var``.
    """
    var._data = data
    var._requires_grad = requires_grad
    var._loss_scale = None
    var._grad_var = None
    var._layout = None
    if node is None:
        node = _new_object(VariableNode)
        node._variable = weakref.ref(var)
        node._creator_node = None
        node._data = None
        node._rank = 0
        node.name = name
        node._requires_grad = requires_grad
        node._old_style_grad_generator = None
        node._layout = None
        if data is None:
            node.dtype = None
            node.shape = None
        else:
            node.dtype = data.dtype
            node.shape = data.shape
    else:
        node._variable = weakref.ref(var)
        if node._layout is not None:
            var._layout = node._layout
    var._node = node
    return var


def _format_repr(var, sep, show_empty_shape):
    prefix = 'variable ' + var.name if var.name else 'variable'
    data = var.array
    if data is None:
        return prefix + '(None)'
    if isinstance(data, cuda.ndarray):
        data = data.get()
    if show_empty_shape and data.size == 0 and data.shape != (0,):
        return '{}([], shape={!r})'.format(prefix, data.shape)
    text = numpy.array2string(data, separator=sep, prefix=prefix + '(')
    return '{}({})'.format(prefix, text)


def variable_repr(var):
    """Returns the text of ``repr(var)`` for a variable."""
    return _format_repr(var, ', ', True)


def variable_str(var):
    """Returns the text of ``str(var)`` for a variable."""
    return _format_repr(var, ' ', False)


class Variable(_core_fields.VariableFields):
    """Array that records the computation it came from.

    Every variable holds an array (``numpy.ndarray`` or ``cupy.ndarray``).
    A variable made by a :class:`~chainer.FunctionNode` remembers its
    creator, so :meth:`backward` can compute the gradients of everything
    it was computed from.

    Args:
        data: The initial array, or ``None``.
        name (str): A label for the variable.
        grad: The initial gradient array.
        requires_grad (bool): Whether the gradient of this variable is
            computed during backprop.
        layout: The memory layout ``data`` (and ``grad``) are stored in:
            ``None``, the standard one, or a name of
            :mod:`chainer.memory_layouts`. A variable of a non-standard
            layout reports its semantic (channel-first) :attr:`shape`,
            refuses direct access to its arrays (use :attr:`raw_array`)
            and is accepted only by the element-wise functions and the
            functions that declare layouts of their own
            (:meth:`~chainer.FunctionNode.check_layout_forward`);
            :meth:`as_layout` converts between layouts.

    Example:
        >>> x = chainer.Variable(numpy.array([1., 2.], numpy.float32))
        >>> y = x * x
        >>> y.grad = numpy.ones(2, numpy.float32)
        >>> y.backward()
        >>> x.grad
        array([2., 4.], dtype=float32)
    """

    # The fields are those of the base (chainer._core_fields).
    __slots__ = ('__dict__', '__weakref__')

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _core_fields.refuse_redefined(cls, _core_fields.VARIABLE_FIELDS)

    # Make NumPy call the reflected operators of Variable.
    __array_priority__ = 200

    # Variables never hold ChainerX arrays here; code written for Chainer 7
    # reads this.
    _has_chainerx_array = False

    # The device given to to_device, if any (see ``device``).
    _device = None

    # Weak references to the variables sharing the array with this one (this
    # one included), set by a shallow copy: setting ``array`` on any of them
    # sets it on all, as a link copied with ``mode='share'`` needs.
    _data_sharers = None

    def __init__(self, data=None, **kwargs):
        name, grad, requires_grad, layout = argument.parse_kwargs(
            kwargs, ('name', None), ('grad', None), ('requires_grad', True),
            ('layout', None),
            volatile='volatile argument is not supported anymore. '
            'Use chainer.using_config')
        if data is not None and not isinstance(data, _ARRAY_TYPES):
            raise TypeError(
                'numpy.ndarray or cupy.ndarray are expected. Actual: {}'
                .format(type(data)))
        _init_variable(self, data, name, requires_grad)
        if grad is not None:
            self._grad_var = Variable(grad)
        if layout is not None:
            _give_layout(self, layout)

    @classmethod
    def _init_unchecked(cls, data=None, name=None, grad=None,
                        requires_grad=True, node=None,
                        is_chainerx_array=None, layout=None):
        # Chainer 7's constructor without checks; given ``node``, the new
        # variable takes the place of the node's lost variable.
        var = _init_variable(cls.__new__(cls), data, name, requires_grad, node)
        if grad is not None:
            var._grad_var = Variable(grad)
        if layout is not None and var._layout is None:
            _give_layout(var, layout)
        return var

    def __copy__(self):
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        _init_variable(new, self._data, self.name, self._requires_grad)
        new._grad_var = self._grad_var
        new._loss_scale = self._loss_scale
        if self._layout is not None:
            _give_layout(new, self._layout)
        sharers = self._data_sharers
        if sharers is None:
            sharers = [weakref.ref(self)]
            self._data_sharers = sharers
        sharers[:] = [ref for ref in sharers if ref() is not None]
        sharers.append(weakref.ref(new))
        new._data_sharers = sharers
        return new

    def __reduce__(self):
        return _create_variable, (
            self.array, self.name, self.grad, self._requires_grad,
            self.device)

    def __repr__(self):
        return variable_repr(self)

    def __str__(self):
        return variable_str(self)

    # Array attributes --------------------------------------------------

    @property
    def array(self):
        """The underlying array of the variable.

        Raises:
            RuntimeError: if the variable has a non-standard memory layout
                (see :attr:`raw_array`).
        """
        if self._layout is not None:
            _check_layout_access(self, 'retrieve the underlying array from')
        return self._data

    @array.setter
    def array(self, data):
        if self._layout is not None:
            _check_layout_access(self, 'set the underlying array of')
        self._set_array(data)

    def _set_array(self, data):
        # Sets the raw array, whatever the layout.
        sharers = self._data_sharers
        if sharers is None:
            self._node._update_data_info(data)
            self._data = data
            return
        for ref in sharers:
            var = ref()
            if var is not None:
                var._node._update_data_info(data)
                var._data = data

    data = array

    @property
    def raw_array(self):
        """The underlying array as stored, whatever the memory layout.

        For a variable of the standard layout it is :attr:`array`; for one
        of a non-standard layout its shape is the raw (stored) shape, not
        :attr:`shape`.
        """
        return self._data

    @property
    def xp(self):
        """The array module (``numpy`` or ``cupy``) of the device."""
        data = self._data
        if data is None:
            return self.device.xp
        return backend.get_array_module(data)

    @property
    def device(self):
        """The :class:`~chainer.backend.Device` the array lives on.

        It is the device last given to :meth:`to_device` (which may be a
        user-defined one holding NumPy arrays), as long as the array belongs
        to that device's array module; otherwise the device of the array.
        """
        data = self._data
        device = self._device
        if device is not None and (
                data is None
                or device.xp is backend.get_array_module(data)):
            return device
        if data is None:
            return _cpu.CpuDevice()
        return backend.get_device_from_array(data)

    @property
    def shape(self):
        """tuple of int: The shape of the array.

        For a variable of a non-standard memory layout, the semantic
        (channel-first) shape.
        """
        layout = self._layout
        if layout is None:
            return self._data.shape
        return _semantic_shape(self._data.shape, layout)

    @property
    def layout(self):
        """The memory layout of the array: ``None`` for the standard one,
        else a name of :mod:`chainer.memory_layouts`."""
        return self._layout

    def as_layout(self, layout):
        """Returns the variable with its array stored in another layout.

        Args:
            layout: The memory layout of the result (``None``: standard).

        Returns:
            Variable: ``self`` if it has ``layout`` already, else the
            output of :class:`chainer.memory_layouts.AsLayout`, whose
            gradient converts back.
        """
        if self._layout == layout:
            return self
        y, = chainer.memory_layouts.AsLayout(layout).apply((self,))
        return y

    @property
    def ndim(self):
        """int: The number of axes of the array."""
        return self._data.ndim

    @property
    def size(self):
        """int: The number of elements of the array."""
        return self._data.size

    @property
    def dtype(self):
        """numpy.dtype: The data type of the array."""
        return self._data.dtype

    @property
    def label(self):
        """A short text of the shape and dtype, used in graph dumps."""
        return self._node.label

    @property
    def name(self):
        """str: A label for the variable, or ``None``.

        It names the variable when it is printed (``repr``, ``str``,
        :meth:`summary`) and in graph dumps
        (:mod:`chainer.computational_graph`). The variable's :attr:`node`
        keeps it, so it stays in the graph after the variable is gone.
        """
        return self._node.name

    @name.setter
    def name(self, name):
        self._node.name = name

    def __len__(self):
        return len(self.array)

    def __pos__(self):
        return self

    def item(self):
        """Returns the single element of the array as a Python scalar."""
        return self.array.item()

    def summary(self):
        """Returns a short description of the variable."""
        if self.name:
            return '<variable {}>'.format(self.name)
        return '<variable at 0x{:x}>'.format(id(self))

    def debug_print(self):
        """Returns a description of the array and gradient for debugging."""
        lines = [self.summary()]
        data = self.array
        if data is None:
            lines.extend('- {}: None'.format(key) for key in (
                'device', 'backend', 'shape', 'dtype', 'statistics',
                'grad'))
            return '\n'.join(lines)
        device = self.device
        lines.append('- device: {}'.format(
            'CPU' if device.xp is numpy else device))
        lines.append('- backend: {}'.format(type(data)))
        lines.append('- shape: {}'.format(data.shape))
        lines.append('- dtype: {}'.format(data.dtype))
        with numpy.errstate(invalid='ignore', divide='ignore'), \
                warnings.catch_warnings():
            warnings.simplefilter('ignore', RuntimeWarning)
            lines.append('- statistics: mean={:.8f}, std={:.8f}'.format(
                float(data.mean()), float(data.std())))
            grad = self.grad
            if grad is None:
                lines.append('- grad: None')
            elif (grad == 0).all():
                lines.append('- grad: 0')
            else:
                lines.append('- grad: mean={:.8f}, std={:.8f}'.format(
                    float(grad.mean()), float(grad.std())))
        return '\n'.join(lines)

    # Graph attributes --------------------------------------------------

    @property
    def node(self):
        """The :class:`VariableNode` of this variable."""
        return self._node

    @property
    def creator(self):
        """The function that created this variable (old-style if it was)."""
        return self._node.creator

    @creator.setter
    def creator(self, func):
        self._node.creator = func

    @property
    def creator_node(self):
        """The :class:`FunctionNode` that created this variable."""
        return self._node._creator_node

    @creator_node.setter
    def creator_node(self, func):
        self._node.set_creator_node(func)

    @property
    def rank(self):
        """int: The topological rank of the variable in the graph.

        ``0`` for a variable that user code made; for the output of a
        function, one more than the rank of the
        :class:`~chainer.FunctionNode` that created it, which is the
        highest rank of that node's inputs. Backprop runs the function
        nodes from the highest rank down.
        """
        return self._node._rank

    @property
    def requires_grad(self):
        """Whether backprop computes the gradient of this variable."""
        return self._requires_grad

    def set_creator(self, gen_func):
        """Notifies the variable that ``gen_func`` created it."""
        self._node.set_creator(gen_func)

    def set_creator_node(self, fnode):
        """Notifies the variable that ``fnode`` created it."""
        self._node.set_creator_node(fnode)

    def retain_data(self):
        """Lets the node keep the array even after the variable is gone."""
        self._node.data = self._data

    def unchain(self):
        """Cuts this variable off from the function that created it."""
        self._node.unchain()

    def unchain_backward(self):
        """Cuts the graph above this variable, node by node.

        Every variable node reachable backward from this variable forgets
        its creator, so the memory of the whole graph above can be freed.
        """
        seen = set()
        funcs = []
        creator = self._node._creator_node
        if creator is not None:
            funcs.append(creator)
            seen.add(creator)
        self.unchain()
        while funcs:
            func = funcs.pop()
            for node in func.inputs:
                creator = node._creator_node
                if creator is not None and creator not in seen:
                    seen.add(creator)
                    funcs.append(creator)
                node.unchain()

    # Gradient attributes -----------------------------------------------

    @property
    def grad(self):
        """The gradient array, or ``None``.

        Raises:
            RuntimeError: if the variable has a non-standard memory layout
                (its :attr:`grad_var` holds the raw gradient).
        """
        if self._layout is not None:
            _check_layout_access(self, 'retrieve the gradient array of')
        grad_var = self._grad_var
        return None if grad_var is None else grad_var._data

    @grad.setter
    def grad(self, g):
        if self._layout is not None:
            _check_layout_access(self, 'set the gradient array of')
        self._set_grad(g)

    def _set_grad(self, g):
        # Sets the raw gradient array, whatever the layout.
        if g is None:
            self._grad_var = None
            return
        _check_grad_type(None, self, False, g)
        grad_var = Variable(g)
        if self._layout is not None:
            _give_layout(grad_var, self._layout)
        self._grad_var = grad_var

    @property
    def grad_var(self):
        """The gradient as a :class:`Variable`, or ``None``."""
        return self._grad_var

    @grad_var.setter
    def grad_var(self, g):
        if g is not None:
            _check_grad_type(None, self, False, g._data)
        self._grad_var = g

    def _set_grad_var_without_check(self, gv):
        self._grad_var = gv

    @property
    def _grad(self):
        # The gradient array, read without any check (Chainer 7's private
        # attribute, which user code reads).
        grad_var = self._grad_var
        return None if grad_var is None else grad_var._data

    def cleargrad(self):
        """Clears the gradient array."""
        self._grad_var = None

    def zerograd(self):
        """Fills the gradient with zeros (deprecated; use cleargrad)."""
        warnings.warn(
            'Variable.zerograd is deprecated. Use Variable.cleargrad '
            'instead.', DeprecationWarning)
        data = self._data
        if data is None:
            return
        grad_var = self._grad_var
        if grad_var is None:
            xp = self.xp
            with chainer.using_device(self.device):
                self._grad_var = Variable(xp.zeros_like(data))
        else:
            grad_var.unchain()
            grad_var._data.fill(0)

    def copydata(self, var):
        """Copies the array of another variable into this one, in place.

        The two arrays may live on different devices.

        Args:
            var (Variable): The source variable.
        """
        src = var._data
        dst = self._data
        if src is None:
            if dst is None:
                return
            var.initialize(self.shape)
            src = var._data
        elif dst is None:
            self.initialize(src.shape)
            dst = self._data
        backend.copyto(dst, src)

    def addgrad(self, var):
        """Adds the gradient of another variable to this one's.

        The two variables may live on different devices; the sum is a new
        gradient variable on this variable's device. An uninitialized
        variable is first initialized with the shape of ``var``.

        Args:
            var (Variable): The source variable.
        """
        if var.grad is None:
            return
        src = var._grad_var
        if self._data is None:
            self.initialize(var.shape)
        dst = self._grad_var
        dst_device = self.device
        if src.device != dst_device:
            src = chainer.functions.copy(src, dst_device)
        self.grad_var = src if dst is None else src + dst

    # Devices -----------------------------------------------------------

    def to_cpu(self):
        """Copies the array and the gradient to the host memory."""
        self._to_device(_cpu.CpuDevice())

    def to_gpu(self, device=None):
        """Copies the array and the gradient to a GPU.

        Args:
            device: Device specifier; the current device if omitted.
        """
        cuda.check_cuda_available()
        self._to_device(cuda.GpuDevice.from_device_id(
            cuda.cupy.cuda.Device(device).id))

    def to_intel64(self):
        """Raises: iDeep is not supported by this implementation."""
        raise RuntimeError(
            'iDeep is not available: Variable.to_intel64 is not supported')

    def to_chx(self):
        """Raises: ChainerX is not available (see :mod:`chainerx`).

        Raises:
            RuntimeError: always.
        """
        raise RuntimeError('ChainerX is not available.')

    def from_chx(self):
        """Does nothing: a variable never holds a ChainerX array here."""

    @property
    def chx_array(self):
        """The ChainerX array of the variable, which it never has here.

        Raises:
            ValueError: always, as for a variable of NumPy or CuPy arrays.
        """
        raise ValueError(
            'chx_array is not available for Variable with non-ChainerX '
            'array.')

    def to_device(self, device):
        """Copies the array and the gradient to the given device.

        Args:
            device: A device specifier such as ``'@numpy'``, ``'@cupy:0'``
                or a :class:`~chainer.backend.Device`.
        """
        self._to_device(backend.get_device(device))

    def _to_device(self, device):
        data = self._data
        if data is not None:
            self._set_array(device.send(data))
        self._device = device
        grad_var = self._grad_var
        if grad_var is not None:
            grad_var._to_device(device)

    # Shape manipulation ------------------------------------------------

    def reshape(self, *shape):
        """Returns a variable of a different shape with the same elements.

        See :func:`chainer.functions.reshape`.
        """
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return chainer.functions.reshape(self, tuple(shape))

    def transpose(self, *axes):
        """Permutes the axes of the variable.

        See :func:`chainer.functions.transpose`.
        """
        if not axes:
            axes = None
        elif len(axes) == 1 and (
                axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = axes[0]
        return chainer.functions.transpose(self, axes)

    @property
    def T(self):
        """The variable with its axes reversed."""
        return self.transpose()

    def __getitem__(x, slices):
        """Returns ``x[slices]``; see :func:`chainer.functions.get_item`.
        """
        return chainer.functions.get_item(x, slices)

    def mean(self, axis=None, *, weights=None, keepdims=False):
        """Returns the (weighted) mean; see :func:`chainer.functions.mean`.
        """
        return chainer.functions.average(
            self, axis=axis, weights=weights, keepdims=keepdims)

    # Comparisons are not differentiable: refuse them as Chainer does.

    def _refuse_comparison(self, other, op):
        raise TypeError(
            'Variables do not support {} operator. You could use `array` '
            'attribute instead.'.format(op))

    def __eq__(self, other):
        self._refuse_comparison(other, '==')

    def __ne__(self, other):
        self._refuse_comparison(other, '!=')

    def __lt__(self, other):
        self._refuse_comparison(other, '<')

    def __le__(self, other):
        self._refuse_comparison(other, '<=')

    def __gt__(self, other):
        self._refuse_comparison(other, '>')

    def __ge__(self, other):
        self._refuse_comparison(other, '>=')

    def __bool__(self):
        raise TypeError('Variables cannot be evaluated as Python bool.')

    __hash__ = None

    # Backprop ----------------------------------------------------------

    def backward(self, retain_grad=False, enable_double_backprop=False,
                 loss_scale=None):
        """Computes the gradients of everything this variable depends on.

        Function nodes are visited from the highest rank down, so each runs
        once, after all the functions that used its outputs. Gradients of
        variables used several times are summed. The resulting gradients
        are stored in the ``grad`` of the leaf variables (and added to what
        was there).

        Args:
            retain_grad (bool): If ``True``, the gradients of intermediate
                variables are kept in their ``grad`` too; by default they
                are freed as soon as they are used.
            enable_double_backprop (bool): If ``True``, the backward
                computation builds a graph itself, so the gradients can be
                differentiated again.
            loss_scale (float): Scales the initial gradient, for mixed
                precision training; optimizers divide it out.
        """
        node = self._node
        node._check_old_style_gradient()
        grad_var = self._grad_var
        data = self._data
        if grad_var is None:
            if data.size == 1:
                if data.ndim != 0:
                    warnings.warn(
                        'Treating a variable with only one element as a '
                        'scalar in Variable.backward is deprecated. A scalar '
                        'variable must be a 0-dimensional array. Apply '
                        'chainer.functions.squeeze to obtain a scalar '
                        'variable. If the size of this variable accidentally '
                        'becomes one, set zero to grad.', DeprecationWarning)
                grad_var = _ones_grad(self, loss_scale)
        # The starting gradient is consumed: with retain_grad the traversal
        # stores it back, and a leaf gets it as its own gradient.
        self._grad_var = None
        with configuration.using_config(
                'enable_backprop', enable_double_backprop):
            _backprop.backprop_to_all(
                [(node, grad_var)], retain_grad, loss_scale)


def _create_variable(data, name, grad, requires_grad, device):
    # Unpickles a Variable; pickles of Chainer 7.8 name this function.
    var = Variable(data, name=name, grad=grad, requires_grad=requires_grad)
    var.to_device(device)
    return var


def _ones_grad(var, loss_scale):
    """The default initial gradient of ``var``: ones, times ``loss_scale``.
    """
    with backend.using_device(var.device):
        grad = var.xp.ones_like(var._data)
    if loss_scale is not None:
        grad *= loss_scale
    return Variable(grad)


class Parameter(Variable):
    """A trainable variable, held by a :class:`~chainer.Link`.

    A parameter may be created without an array: it is then
    *uninitialized* and gets its array from :meth:`initialize`, typically
    when a link first sees its input and can infer the shape.

    Args:
        initializer: An array, a scalar, an initializer callable or
            ``None`` (NaN-filled). Scalars become
            :class:`~chainer.initializers.Constant`.
        shape (int or tuple of int): If given, the array is made at once.
        name (str): A label for the parameter.
        layout: The memory layout of the array (see :class:`Variable`).
            An array given as ``initializer`` is taken as stored in it, as
            is the array made for ``shape``; :meth:`initialize` converts
            the array it makes from the standard layout.

    Attributes:
        initializer: The initializer used by :meth:`initialize`; it may be
            replaced until the parameter is initialized.
        update_rule: The :class:`~chainer.UpdateRule` that updates this
            parameter, set by the optimizer.
    """

    initializer = None

    # Whether ``grad`` may be read: an uninitialized parameter has no
    # gradient to report until one is set or cleared.
    _grad_valid = True

    def __init__(self, initializer=None, shape=None, name=None, *,
                 layout=None):
        if initializer is None:
            initializer = initializers.NaN()
        elif numpy.isscalar(initializer):
            initializer = initializers.Constant(initializer)
        if shape is None:
            if isinstance(initializer, _ARRAY_TYPES):
                super().__init__(initializer, name=name, layout=layout)
            else:
                super().__init__(name=name, layout=layout)
                self._grad_valid = False
                self._grad_initializer = initializers.NaN(
                    getattr(initializer, 'dtype', None))
        else:
            if isinstance(initializer, _ARRAY_TYPES):
                initializer = initializers.Constant(initializer)
            data = initializers.generate_array(initializer, shape, numpy)
            grad = numpy.full_like(data, numpy.nan)
            super().__init__(data, name=name, grad=grad, layout=layout)
        self._initial_device = _cpu.CpuDevice()
        self.initializer = initializer
        self.update_rule = None

    def __reduce__(self):
        # The layout of Chainer 7.8's pickles, so each reads the other's.
        return _recover_parameter, (
            self.array, self.name, self._grad, self._grad_valid,
            self.initializer, self.update_rule, self.device)

    @property
    def grad(self):
        """The gradient array, or ``None``.

        Raises:
            RuntimeError: if the parameter is uninitialized and its gradient
                was neither set nor cleared, or if it has a non-standard
                memory layout.
        """
        if self._layout is not None:
            _check_layout_access(self, 'retrieve the gradient array of')
        if not self._grad_valid:
            raise RuntimeError(
                'Cannot retrieve Variable.grad. Either it must be set '
                'manually or Variable.cleargrad() must be called '
                'beforehand.')
        return self._grad

    @grad.setter
    def grad(self, g):
        Variable.grad.fset(self, g)
        self._grad_valid = True

    @property
    def grad_var(self):
        """The gradient as a :class:`Variable`, or ``None``."""
        return self._grad_var

    @grad_var.setter
    def grad_var(self, g):
        Variable.grad_var.fset(self, g)
        self._grad_valid = True

    def _set_grad_var_without_check(self, gv):
        self._grad_var = gv
        self._grad_valid = True

    @property
    def dtype(self):
        """numpy.dtype: The data type of the parameter.

        Before the parameter is initialized, it is the ``dtype`` of its
        initializer.

        Raises:
            RuntimeError: if the parameter is uninitialized and its
                initializer does not tell the dtype.
        """
        data = self._data
        if data is not None:
            return data.dtype
        initializer = self.initializer
        if hasattr(initializer, 'dtype'):
            return numpy.dtype(initializer.dtype)
        raise RuntimeError(
            'Dtype of the parameter is not determined yet because it\'s '
            'uninitialized and dtype was not explicitly given.')

    @property
    def is_initialized(self):
        """Whether the parameter has an array."""
        return self._data is not None

    @property
    def device(self):
        """The :class:`~chainer.backend.Device` of the parameter.

        Before the parameter is initialized, it is the device the array
        will be made on: the CPU, or the device last given to
        :meth:`to_device` (or :meth:`to_cpu`, :meth:`to_gpu`).
        """
        if self._data is None:
            return self._initial_device
        return super().device

    def _to_device(self, device):
        if self._data is None:
            sharers = self._data_sharers
            if sharers is not None and self._initial_device != device:
                # An uninitialized copy stops sharing the array to come.
                sharers[:] = [
                    ref for ref in sharers if ref() not in (self, None)]
                self._data_sharers = None
            self._initial_device = device
        super()._to_device(device)

    def cleargrad(self):
        """Clears the gradient; an uninitialized parameter gets none."""
        super().cleargrad()
        self._grad_valid = True
        if self._data is None:
            self._grad_initializer = None

    def zerograd(self):
        """Fills the gradient with zeros, also once it gets initialized."""
        super().zerograd()
        self._grad_valid = True
        if self._data is None:
            self._grad_initializer = initializers.Zero(
                getattr(self.initializer, 'dtype', None))

    def initialize(self, shape):
        """Makes the array of the parameter with its initializer.

        Args:
            shape (tuple of int): The shape to give the new array (the
                semantic shape, for a parameter of a non-standard memory
                layout: the array is then stored in that layout).
        """
        device = self._initial_device
        xp = device.xp
        with chainer.using_device(device):
            data = initializers.generate_array(
                self.initializer, shape, xp, device=device)
            grad_initializer = getattr(self, '_grad_initializer', None)
            grad = None if grad_initializer is None else (
                initializers.generate_array(
                    grad_initializer, shape, xp, device=device))
        layout = self._layout
        if layout is not None:
            data = chainer.memory_layouts._transpose_array(data, None, layout)
            if grad is not None:
                grad = chainer.memory_layouts._transpose_array(
                    grad, None, layout)
        self._set_array(data)
        self._set_grad(grad)
        self._grad_valid = True

    def update(self):
        """Updates the array with the update rule, if there is one.

        Raises:
            RuntimeError: if the parameter has a non-standard memory layout
                and its update rule is not element-wise.
        """
        update_rule = self.update_rule
        if update_rule is not None:
            if self._layout is not None and not update_rule.is_elementwise:
                raise RuntimeError(
                    'Parameter with a non-standard layout cannot be updated '
                    'with a non-elementwise update rule ({}).'.format(
                        update_rule))
            update_rule.update(self)


def _recover_parameter(*args):
    # Unpickles a Parameter: the layout of Chainer 7.8 (7 items) or of its
    # earlier versions (6 items, without ``grad_valid``).
    if len(args) == 7:
        data, name, grad, grad_valid, initializer, update_rule, device = args
    else:
        data, name, grad, initializer, update_rule, device = args
        grad_valid = True
    param = Parameter(initializer=initializer, name=name)
    param.array = data
    param._grad_var = None if grad is None else Variable(grad)
    param._grad_valid = grad_valid
    param.update_rule = update_rule
    param.to_device(device)
    return param


def as_variable(obj):
    """Returns ``obj`` if it is a variable, else wraps it in a constant one.

    Args:
        obj: A :class:`Variable` or an array.

    Returns:
        Variable: ``obj`` itself, or a new variable holding ``obj`` with
        ``requires_grad=False``.
    """
    if isinstance(obj, Variable):
        return obj
    return Variable(obj, requires_grad=False)


def as_array(obj):
    """Returns the array of a variable, or ``obj`` itself if it is one."""
    if isinstance(obj, Variable):
        return obj._data
    return obj

