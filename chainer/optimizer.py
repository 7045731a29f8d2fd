"""Optimizers: what updates the parameters of a link from their gradients.

An :class:`Optimizer` is set up on a target link. A :class:`GradientMethod`
gives every parameter of the link an :class:`UpdateRule`, which holds the
per-parameter state (moving averages and the like) and updates the array in
place. Hyperparameters live in :class:`Hyperparameter` objects: each rule's
hyperparameter falls back to the optimizer's, so changing ``optimizer.lr``
changes the learning rate of every rule that did not override it.
"""

import copy
import math
import warnings

import numpy

from chainer import link as link_module
from chainer import optimizer_hooks
from chainer import serializer as serializer_module
from chainer import variable


_HOOK_TIMINGS = ('pre', 'post', 'auto')


class _Hookable:
    """Hooks called before and after an update, in registration order.

    Args:
        invalid_timing_fallback (bool): If ``True``, a hook whose own
            ``timing`` attribute is neither ``'pre'`` nor ``'post'`` is
            registered as ``'pre'`` (with a warning) when added with
            ``timing='auto'``.
    """

    def __init__(self, invalid_timing_fallback=False):
        self._pre_update_hooks = {}
        self._post_update_hooks = {}
        self._invalid_timing_fallback = invalid_timing_fallback

    def add_hook(self, hook, name, timing):
        if not callable(hook):
            raise TypeError('hook function must be callable')
        if timing not in _HOOK_TIMINGS:
            raise ValueError(
                'timing must be one of (\'pre\', \'post\', \'auto\')')
        if timing == 'auto':
            timing = getattr(hook, 'timing', 'pre')
            if timing not in ('pre', 'post') \
                    and self._invalid_timing_fallback:
                warnings.warn(
                    'Hook timing attribute not in (\'pre\', \'post\'), '
                    'defaulting timing to \'pre\'.')
                timing = 'pre'
        if name is None:
            name = getattr(hook, 'name', getattr(hook, '__name__', None))
            if name is None:
                raise ValueError(
                    'the name of the hook function is not specified')
        if name in self._pre_update_hooks or name in self._post_update_hooks:
            raise KeyError('hook "{}" already exists'.format(name))
        if timing == 'pre':
            self._pre_update_hooks[name] = hook
        else:
            self._post_update_hooks[name] = hook

    def remove_hook(self, name):
        if name in self._pre_update_hooks:
            del self._pre_update_hooks[name]
        else:
            del self._post_update_hooks[name]

    def call_hooks(self, timing, args):
        if timing == 'pre':
            hooks = self._pre_update_hooks
        elif timing == 'post':
            hooks = self._post_update_hooks
        else:
            raise ValueError('timing must be either \'pre\' or \'post\'')
        for hook in list(hooks.values()):
            self.call_hook(hook, args)

    def call_hook(self, hook, args):
        hook(*args)


class Hyperparameter:
    """A set of hyperparameters, falling back to a parent set.

    Entries are plain attributes. Reading an attribute that this object
    does not hold reads it from the parent, so the hyperparameter of each
    update rule can defer to the optimizer's while still overriding single
    entries.

    Args:
        parent (Hyperparameter): The set to fall back to, or ``None``.

    Example:
        >>> base = Hyperparameter()
        >>> base.lr = 0.1
        >>> hp = Hyperparameter(base)
        >>> hp.lr
        0.1
        >>> hp.lr = 0.01
        >>> hp.lr, base.lr
        (0.01, 0.1)
    """

    def __init__(self, parent=None):
        self._parent = parent

    def __getattr__(self, name):
        # Only called when ``name`` is not an own attribute.
        # Without a parent, getattr(None, name) raises the AttributeError.
        if '_parent' not in self.__dict__:
            raise AttributeError('_parent is not set up yet')
        return getattr(self._parent, name)

    def __repr__(self):
        d = self.get_dict()
        entries = ', '.join(
            '{}={}'.format(key, d[key]) for key in sorted(d))
        return 'Hyperparameter({})'.format(entries)

    @property
    def parent(self):
        """The parent hyperparameter, or ``None``."""
        return self._parent

    def get_dict(self):
        """Returns every entry visible from this object as a dictionary.

        Own entries take precedence over the parent's.
        """
        d = {} if self._parent is None else self._parent.get_dict()
        for key, value in self.__dict__.items():
            if key != '_parent':
                d[key] = value
        return d


class UpdateRule:
    """How one parameter is updated from its gradient.

    A :class:`GradientMethod` sets an update rule on each parameter
    (``param.update_rule``); :meth:`~chainer.Parameter.update` then calls
    :meth:`update`. A rule keeps its per-parameter arrays in :attr:`state`,
    made by :meth:`init_state` at the first update and moved to the
    parameter's device before every update.

    Subclasses override :meth:`update_core`, or both
    :meth:`update_core_cpu` and :meth:`update_core_gpu`, and
    :meth:`init_state` when they keep a state.

    Hooks added with :meth:`add_hook` are called as ``hook(rule, param)``
    just before (``'pre'``) or after (``'post'``) the update.

    Args:
        parent_hyperparam (Hyperparameter): The hyperparameter that provides
            the entries this rule does not set itself.

    Attributes:
        enabled (bool): If ``False``, :meth:`update` does nothing.
        hyperparam (Hyperparameter): The rule's hyperparameters.
        t (int): Number of updates made by the rule.
    """

    is_elementwise = False

    def __init__(self, parent_hyperparam=None):
        self._state = None
        self.enabled = True
        self.hyperparam = Hyperparameter(parent_hyperparam)
        self.t = 0
        self._use_fp32_update = False
        self._fp32_param = None
        self._hookable = _Hookable()

    @property
    def state(self):
        """The state dictionary, or ``None`` before the first update."""
        return self._state

    def add_hook(self, hook, name=None, timing='auto'):
        """Adds a hook called as ``hook(rule, param)`` around the update.

        Args:
            hook (callable): The hook.
            name (str): Its name; ``hook.name`` (or ``hook.__name__``) by
                default.
            timing (str): ``'pre'`` (before the update), ``'post'`` (after
                it) or ``'auto'`` (the hook's own ``timing`` attribute,
                ``'pre'`` if it has none).
        """
        self._hookable.add_hook(hook, name, timing)

    def remove_hook(self, name):
        """Removes the hook registered under ``name``.

        Args:
            name (str): The key the hook is registered under.
        """
        self._hookable.remove_hook(name)

    def update(self, param):
        """Updates the parameter, calling the hooks around the update.

        Does nothing if the rule is disabled. The gradient is first divided
        by the loss scale recorded by the backward pass, if any. With
        :meth:`use_fp32_update` set, a float16 parameter is updated through
        a float32 copy kept by the rule, and the parameter's array is then
        replaced by the updated copy cast back to float16.

        Args:
            param (~chainer.Parameter): The parameter to update.
        """
        if not self.enabled:
            return
        self.t += 1
        with param.device.create_context():
            if param._layout is None:
                self._update(param)
            else:
                # The rule works on the raw arrays.
                with variable._AllowArrayAccessWithNonstandardLayout():
                    self._update(param)

    def _update(self, param):
        loss_scale = param._loss_scale
        if self._use_fp32_update and _dtype_or_none(param) == numpy.float16:
            target = self._fp32_copy(param)
        else:
            target = param
        if param.array is not None:
            self._init_states(target)
            if loss_scale is not None:
                grad = target.grad
                if grad is not None:
                    grad /= loss_scale
        hookable = self._hookable
        hookable.call_hooks('pre', (self, target))
        self.update_core(target)
        hookable.call_hooks('post', (self, target))
        if target is not param:
            if param.array is not None:
                param.array = target.array.astype(param.dtype)
            target.grad = None

    def _fp32_copy(self, param):
        # The float32 master copy of a float16 parameter, with its gradient.
        fp32_param = self._fp32_param
        data = param.array
        if fp32_param is None:
            if data is None:
                fp32_param = _uninitialized_parameter(
                    numpy.float32, param.name)
            else:
                fp32_param = variable.Parameter(
                    data.astype(numpy.float32), name=param.name)
            self._fp32_param = fp32_param
        elif fp32_param.array is None and data is not None:
            fp32_param.array = data.astype(numpy.float32)
        if data is not None:
            grad = param.grad
            fp32_param.grad = (
                None if grad is None else grad.astype(numpy.float32))
        return fp32_param

    def update_core(self, param):
        """Updates the parameter array from its gradient.

        The default dispatches to :meth:`update_core_cpu` or
        :meth:`update_core_gpu` by the device of the parameter.

        Args:
            param (~chainer.Parameter): The parameter to update.
        """
        device = param.device
        with device.create_context():
            if device.xp is numpy:
                self.update_core_cpu(param)
            else:
                self.update_core_gpu(param)

    def update_core_cpu(self, param):
        """Updates a parameter held in a NumPy array.

        Args:
            param (~chainer.Parameter): The parameter to update.
        """
        raise NotImplementedError

    def update_core_gpu(self, param):
        """Updates a parameter held in a CuPy array.

        Args:
            param (~chainer.Parameter): The parameter to update.
        """
        raise NotImplementedError

    def update_core_chainerx(self, param):
        """Updates a parameter held in a ChainerX array.

        ChainerX is not available (:func:`chainerx.is_available` is
        ``False``), so no parameter lives on a ChainerX device and
        :meth:`update_core` never calls this method.

        Args:
            param (~chainer.Parameter): The parameter to update.

        Raises:
            RuntimeError: Always.
        """
        raise RuntimeError('ChainerX is not available')

    def init_state(self, param):
        """Fills :attr:`state` before the first update.

        Rules with a state override this; ``param`` tells the shape, the
        dtype and the device of the arrays to make.

        Args:
            param (~chainer.Parameter): The parameter to be updated.
        """

    def _init_states(self, param):
        state = self._state
        if state is None:
            state = self._state = {}
            self.init_state(param)
        device = param.device
        array_types = variable._ARRAY_TYPES
        for name, value in state.items():
            if isinstance(value, array_types):
                state[name] = device.send(value)

    def serialize(self, serializer):
        """Saves or loads :attr:`t` and the state of the rule.

        The parameter array itself is not included: serialize the link
        separately. When loading into a rule that has not updated yet, the
        state entries are found by running :meth:`init_state` (on a shallow
        copy sharing the new state dictionary) and each is read in turn. A
        missing entry raises ``KeyError`` unless the rule is disabled; a
        missing entry of a disabled rule, or an entry saved as ``None``,
        leaves the rule without state, made at its first update.

        Args:
            serializer (~chainer.AbstractSerializer): A serializer or a
                deserializer.
        """
        self.t = serializer('t', self.t)
        state = self._state
        if state is not None:
            for name in state:
                state[name] = serializer(name, state[name])
            return
        if not isinstance(serializer, serializer_module.Deserializer):
            return
        state = self._state = {}
        array = numpy.empty(1, dtype=numpy.float32)
        copy.copy(self).init_state(variable.Variable(array, grad=array))
        for name in list(state):
            try:
                value = serializer(name, None)
            except KeyError:
                if self.enabled:
                    self._state = None
                    raise
                value = None
            if value is None:
                self._state = None
                return
            state[name] = value

    def use_fp32_update(self, flag=True):
        """Updates float16 parameters through a float32 copy.

        When enabled, the rule keeps a float32 copy of a float16 parameter;
        each update casts the gradient to float32, updates the copy, and
        casts the result back into the float16 array.

        Args:
            flag (bool): Whether to enable it.
        """
        self._use_fp32_update = flag


def _dtype_or_none(param):
    # An uninitialized parameter whose initializer gives no dtype has none.
    try:
        return param.dtype
    except RuntimeError:
        return None


def _uninitialized_parameter(dtype, name):
    def initializer(array):
        raise RuntimeError(
            'the float32 copy of an uninitialized parameter is never '
            'initialized by itself')
    initializer.dtype = dtype
    return variable.Parameter(initializer, name=name)


class _OptimizerHookable(_Hookable):
    """Hooks of an optimizer, each called through ``optimizer.call_hook``.
    """

    def __init__(self, optimizer):
        super().__init__(invalid_timing_fallback=True)
        self.optimizer = optimizer

    def call_hook(self, hook, args):
        self.optimizer.call_hook(hook)


class Optimizer:
    """Base class of the optimizers.

    :meth:`setup` sets the target link; :meth:`update` updates its
    parameters. Hooks added with :meth:`add_hook` are called before or
    after each update; a hook with a true ``call_for_each_param``
    attribute is called as ``hook(param.update_rule, param)`` for every
    parameter, any other hook as ``hook(optimizer)``.

    Dynamic or static *loss scaling* for float16 training is set with
    :meth:`loss_scaling`.

    Attributes:
        target (~chainer.Link): The link being optimized.
        t (int): Number of updates made.
        epoch (int): Current epoch, counted by :meth:`new_epoch`.
        use_auto_new_epoch (bool): Whether an updater calls
            :meth:`new_epoch` (it sets this flag when it does).
    """

    target = None
    t = 0
    epoch = 0
    _loss_scale = None
    _loss_scale_max = 65504  # the largest finite float16
    _loss_scaling_is_dynamic = False
    _loss_scaling_isnan = False
    _pre_update_hooks = None
    _post_update_hooks = None
    use_auto_new_epoch = False
    _hookable = None

    def setup(self, link):
        """Sets the target link and resets the counters and hooks.

        Args:
            link (~chainer.Link): The link to optimize.

        Returns:
            Optimizer: The optimizer itself, so that
            ``opt = SGD().setup(model)`` works.
        """
        if not isinstance(link, link_module.Link):
            raise TypeError('optimization target must be a link')
        self.target = link
        self.t = 0
        self.epoch = 0
        self._hookable = _OptimizerHookable(self)
        return self

    def update(self, lossfun=None, *args, **kwds):
        """Takes one step on every parameter of the target link.

        Args:
            lossfun (callable): Called as ``lossfun(*args, **kwds)``, it
                returns the loss :class:`~chainer.Variable` whose gradients
                are used. If ``None``, the gradients must already be
                computed.
            args, kwds: Arguments of ``lossfun``.
        """
        raise NotImplementedError

    def new_epoch(self, auto=False):
        """Counts a new epoch.

        Args:
            auto (bool): ``True`` when called by an updater, which must
                then have set :attr:`use_auto_new_epoch`.
        """
        if auto:
            if not self.use_auto_new_epoch:
                raise RuntimeError(
                    'invalid new_epoch call with auto=True.\n'
                    'Fix the updater to set '
                    'optimizer.use_auto_new_epoch = True.')
        elif self.use_auto_new_epoch:
            raise RuntimeError(
                'duplicated new_epoch with the updater.\n'
                'Pass auto_new_epoch=False to the updater or stop calling '
                'new_epoch outside the updater.')
        self.epoch += 1

    def _check_set_up(self):
        if self._hookable is None:
            raise RuntimeError('Optimizer is not set up. Call `setup` method.')

    def add_hook(self, hook, name=None, timing='auto'):
        """Registers a hook.

        Args:
            hook (callable): The hook; see the class description for how it
                is called.
            name (str): Its name; ``hook.name`` by default.
            timing (str): ``'pre'``, ``'post'`` or ``'auto'`` (the hook's
                own ``timing`` attribute, ``'pre'`` if it has none).
        """
        self._check_set_up()
        self._hookable.add_hook(hook, name, timing)

    def remove_hook(self, name):
        """Removes the hook registered under ``name``.

        Args:
            name (str): The key the hook is registered under.
        """
        self._check_set_up()
        self._hookable.remove_hook(name)

    def call_hooks(self, timing='pre'):
        """Calls the hooks of the given timing in registration order.

        Args:
            timing (str): ``'pre'`` or ``'post'``.
        """
        self._check_set_up()
        self._hookable.call_hooks(timing, ())

    def call_hook(self, hook):
        """Calls one hook, once or for each parameter.

        Args:
            hook (callable): The hook.
        """
        if getattr(hook, 'call_for_each_param', False):
            for param in self.target.params():
                hook(param.update_rule, param)
        else:
            hook(self)

    def serialize(self, serializer):
        """Saves or loads :attr:`t`, :attr:`epoch` and the rule states.

        The state of each update rule goes under the path of its parameter
        (``l1/W/m`` for the ``m`` of ``/l1/W``). The parameters themselves
        are not included: serialize the target link separately.

        Args:
            serializer (~chainer.AbstractSerializer): A serializer or a
                deserializer.
        """
        self.t = serializer('t', self.t)
        self.epoch = serializer('epoch', self.epoch)
        for name, param in self.target.namedparams():
            rule = getattr(param, 'update_rule', None)
            if rule is not None:
                rule.serialize(serializer[name])

    def loss_scaling(self, interval=1000, scale=None):
        """Sets up loss scaling.

        The loss is multiplied by the scale before backward and the
        gradients are divided by it before the update. With ``scale=None``
        the scale is *dynamic*: it starts at 1, doubles after each update
        until a non-finite gradient shows up, is halved (and that update
        skipped) on each non-finite gradient, and afterwards grows by a
        factor of two every ``interval`` updates. A number gives a *static*
        scale.

        Args:
            interval (int): Updates per doubling of a dynamic scale.
            scale (float): A static scale, or ``None`` for a dynamic one.
        """
        if scale is None:
            self._loss_scaling_is_dynamic = True
            if interval < 1:
                raise ValueError('interval must be greater than or equal to 1.'
                                 ' Actual: {}'.format(interval))
            self._loss_scale = 1.0
            self._loss_scaling_multiplier = math.pow(2.0, 1.0 / interval)
            self._loss_scaling_isnan_ever = False
        else:
            if scale <= 0:
                raise ValueError('loss_scale must be a positive number. '
                                 'Actual: {}'.format(scale))
            self._loss_scale = scale

    def set_loss_scale(self, loss_scale):
        """Sets a static loss scale.

        Args:
            loss_scale (float): The scale.
        """
        self.loss_scaling(scale=loss_scale)

    def check_nan_in_grads(self):
        """Looks for non-finite gradients when the loss scale is dynamic.
        """
        self._loss_scaling_isnan = False
        if not self._loss_scaling_is_dynamic:
            return
        for name, param in self.target.namedparams():
            grad = param.grad
            if grad is None:
                continue
            xp = param.device.xp
            if not xp.all(xp.isfinite(grad)):
                self._loss_scaling_isnan = True
                self._loss_scaling_isnan_ever = True
                warnings.warn(
                    'Non finite number found in param.grad of {}'
                    ' (iteration: {}, loss_scale: {})'
                    .format(name, self.t, self._loss_scale))

    def is_safe_to_update(self):
        """Whether the last check found only finite gradients."""
        return not self._loss_scaling_isnan

    def update_loss_scale(self):
        """Adjusts a dynamic loss scale after an update."""
        if not self._loss_scaling_is_dynamic:
            return
        if self._loss_scaling_isnan:
            multiplier = 0.5
        elif self._loss_scaling_isnan_ever:
            multiplier = self._loss_scaling_multiplier
        else:
            multiplier = 2.0
        self._loss_scale = max(1, min(
            self._loss_scale_max, self._loss_scale * multiplier))


class GradientMethod(Optimizer):
    """Base class of the optimizers that follow one gradient per update.

    :meth:`setup` gives each parameter the update rule made by
    :meth:`create_update_rule`, whose hyperparameter falls back to
    :attr:`hyperparam`. Subclasses define :meth:`create_update_rule` and
    expose the entries of :attr:`hyperparam` as attributes with
    :class:`HyperparameterProxy`.

    Attributes:
        hyperparam (Hyperparameter): The defaults of the update rules.
    """

    def __init__(self):
        super().__init__()
        self.hyperparam = Hyperparameter()
        self._use_fp32_update = False

    def setup(self, link):
        super().setup(link)
        for param in link.params():
            rule = self.create_update_rule()
            if self._use_fp32_update:
                rule.use_fp32_update()
            param.update_rule = rule
        return self

    def reallocate_cleared_grads(self):
        """Gives zero gradients to initialized parameters that have none.

        Called before and after the update and after each hook, so hooks
        and rules always see gradient arrays (in the memory layout of their
        parameter).
        """
        with variable._AllowArrayAccessWithNonstandardLayout():
            for param in self.target.params(False):
                if param.grad is None:
                    device = param.device
                    with device.create_context():
                        param.grad = device.xp.zeros_like(param.array)

    def call_hook(self, hook):
        super().call_hook(hook)
        self.reallocate_cleared_grads()

    def update(self, lossfun=None, *args, **kwds):
        """Updates the parameters, computing the gradients if asked.

        With ``lossfun``, the gradients are cleared, the loss is computed
        and back-propagated (scaled by the loss scale, if set). Then the
        ``'pre'`` hooks run, every parameter is updated by its rule (unless
        dynamic loss scaling found a non-finite gradient), and the
        ``'post'`` hooks run.

        Args:
            lossfun (callable): Returns the loss variable; ``None`` if the
                gradients are already computed.
            args, kwds: Arguments of ``lossfun``.
        """
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            if getattr(self, '_use_cleargrads', True):
                self.target.cleargrads()
            else:
                self.target.zerograds()
            loss.backward(loss_scale=self._loss_scale)
            del loss
        self.reallocate_cleared_grads()
        self.check_nan_in_grads()
        self.call_hooks('pre')
        self.t += 1
        if self.is_safe_to_update():
            for param in self.target.params():
                param.update()
        self.reallocate_cleared_grads()
        self.call_hooks('post')
        self.update_loss_scale()

    def use_cleargrads(self, use=True):
        """Chooses between ``cleargrads`` and ``zerograds`` (deprecated).

        :meth:`update` uses :meth:`~chainer.Link.cleargrads` by default.

        Args:
            use (bool): ``False`` makes :meth:`update` use the deprecated
                :meth:`~chainer.Link.zerograds` instead.
        """
        warnings.warn(
            'GradientMethod.use_cleargrads is deprecated.',
            DeprecationWarning)
        self._use_cleargrads = use

    def create_update_rule(self):
        """Returns a new update rule for one parameter.

        Returns:
            UpdateRule: The rule; subclasses must override this.
        """
        raise NotImplementedError

    def use_fp32_update(self, flag=True):
        """Updates float16 parameters through float32 copies.

        Applies to the rules already made and to those made by later
        :meth:`setup` calls. See :meth:`UpdateRule.use_fp32_update`.

        Args:
            flag (bool): Whether to enable it.
        """
        self._use_fp32_update = flag
        link = self.target
        if link is not None:
            for param in link.params():
                rule = param.update_rule
                if rule is not None:
                    rule.use_fp32_update(flag)


class HyperparameterProxy:
    """Attribute of an optimizer that reads and writes a hyperparameter.

    Example:
        >>> class MySGD(GradientMethod):
        ...     lr = HyperparameterProxy('lr')

    Args:
        attr_name (str): Name of the hyperparameter entry.
    """

    def __init__(self, attr_name):
        self._attr_name = attr_name
        self.__doc__ = 'Alias to ``self.hyperparam.{}``'.format(attr_name)

    def __get__(self, obj, type=None):
        if obj is None:
            return self
        return getattr(obj.hyperparam, self._attr_name)

    def __set__(self, obj, value):
        setattr(obj.hyperparam, self._attr_name, value)


def make_deprecation_message(module_name):
    """Returns the warning of a deprecated ``chainer.optimizer`` hook."""
    return ('chainer.optimizer.{0} is deprecated from v4. '
            'Use chainer.optimizer_hooks.{0} instead.'
            .format(module_name))


def _deprecated_hook(hook_class):
    name = hook_class.__name__

    def __init__(self, *args, **kwargs):
        warnings.warn(make_deprecation_message(name), DeprecationWarning)
        hook_class.__init__(self, *args, **kwargs)

    doc = 'Deprecated alias of :class:`chainer.optimizer_hooks.{}`.'.format(
        name)
    return type(name, (hook_class,), {
        '__init__': __init__, '__doc__': doc, '__module__': __name__})


WeightDecay = _deprecated_hook(optimizer_hooks.WeightDecay)
Lasso = _deprecated_hook(optimizer_hooks.Lasso)
GradientClipping = _deprecated_hook(optimizer_hooks.GradientClipping)
GradientNoise = _deprecated_hook(optimizer_hooks.GradientNoise)
GradientHardClipping = _deprecated_hook(optimizer_hooks.GradientHardClipping)
