"""Undoing a failed load, so that it never half-applies.

A load calls the target's ``serialize`` once, as Chainer does, and the
values are applied as ``serialize`` asks for them: arrays are copied in
place and the values returned to the caller are stored by its own code
(``self.t = serializer('t', self.t)``). Which keys will be asked for is
only known while ``serialize`` runs, and what it asks for next may depend
on what it got (a missing key that the caller catches, a ``None`` that
makes it skip the rest), so the file cannot be checked against the
requests beforehand without running ``serialize`` a second time, with its
side effects. A load is therefore a transaction instead: if ``serialize``
raises, the :class:`Journal` puts back

* the old contents of every array the deserializer wrote in place, copied
  just before the first write into it, so that only what is written is
  kept (on the host, for a GPU array, to leave device memory free): the
  price is host memory of the size of the arrays loaded, until the load
  ends;
* the attributes (``__dict__`` and ``__slots__``) of the objects the load
  may change, and the contents of the dictionaries and lists they hold:
  those found from the target through attributes, dictionaries, lists and
  tuples, following objects that have a ``serialize`` method or come from
  Chainer (links and their parameters, which covers parameters that the
  load initialized, update rules and their states, optimizers and their
  hyperparameters, trainers, updaters, iterators, extensions, triggers).
  Only what changed during the load is written back, by identity. A
  container of more than ten thousand items (a dataset, in practice) is
  kept but not searched, so that its items cost nothing;
* the state of the random generators among them.

What ``serialize`` does outside the attributes of these objects (a file
written, a thread told to restart, an object that neither has
``serialize`` nor comes from Chainer) is not undone.
"""

import random
import types

import numpy

from chainer import backend
from chainer.backends import _cpu
from chainer.iterators import _random_state


_RANDOM_GENERATORS = (
    random.Random, numpy.random.RandomState, numpy.random.Generator)
_NOT_STATE = (type, types.ModuleType, types.FunctionType, types.MethodType,
              types.BuiltinFunctionType, numpy.ndarray, numpy.generic)
_MISSING = object()
_SEARCHED_ITEMS = 10000
_slot_descriptors = {}


def _slots(cls):
    # The slot descriptors of ``cls`` and its bases: reading and writing
    # through them skips properties and ``__getattr__``.
    slots = _slot_descriptors.get(cls)
    if slots is None:
        slots = []
        for klass in cls.__mro__:
            names = klass.__dict__.get('__slots__', ())
            if isinstance(names, str):
                names = (names,)
            for name in names:
                if name in ('__dict__', '__weakref__'):
                    continue
                if name.startswith('__') and not name.endswith('__'):
                    name = '_{}{}'.format(klass.__name__.lstrip('_'), name)
                slots.append(klass.__dict__[name])
        _slot_descriptors[cls] = slots
    return slots


def _read_slot(obj, slot):
    try:
        return slot.__get__(obj, type(obj))
    except AttributeError:
        return _MISSING


def _has_state(obj):
    # Whether a load may change the attributes of ``obj``.
    if isinstance(obj, _NOT_STATE):
        return False
    cls = type(obj)
    module = getattr(cls, '__module__', '') or ''
    return (callable(getattr(cls, 'serialize', None))
            or module == 'chainer' or module.startswith('chainer.'))


def _same_items(a, b):
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


def _same_mapping(a, b):
    return a.keys() == b.keys() and all(a[k] is b[k] for k in a)


class _Attributes:

    def __init__(self, obj):
        self.obj = obj
        self.dict = dict(vars(obj)) if hasattr(obj, '__dict__') else None
        self.slots = [(slot, _read_slot(obj, slot))
                      for slot in _slots(type(obj))]

    def values(self):
        if self.dict is not None:
            yield from self.dict.values()
        for _, value in self.slots:
            yield value

    def restore(self):
        obj = self.obj
        if self.dict is not None and not _same_mapping(vars(obj), self.dict):
            vars(obj).clear()
            vars(obj).update(self.dict)
        for slot, value in self.slots:
            if _read_slot(obj, slot) is value:
                continue
            if value is _MISSING:
                slot.__delete__(obj)
            else:
                slot.__set__(obj, value)


class _Dict:

    def __init__(self, obj):
        self.obj = obj
        self.items = dict(obj)

    def values(self):
        return self.items.values()

    def restore(self):
        if not _same_mapping(self.obj, self.items) \
                or list(self.obj) != list(self.items):
            self.obj.clear()
            self.obj.update(self.items)


class _List:

    def __init__(self, obj):
        self.obj = obj
        self.items = list(obj)

    def values(self):
        return self.items

    def restore(self):
        if not _same_items(self.obj, self.items):
            self.obj[:] = self.items


class _Generator:

    def __init__(self, obj):
        self.obj = obj
        self.state = _random_state._get_state(obj)

    def values(self):
        return ()

    def restore(self):
        _random_state._set_state(self.obj, self.state)


def _snapshot(target):
    # The saved states of everything reachable from ``target`` that a load
    # may change, in the order found.
    saved = []
    seen = set()
    stack = [target]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, tuple):
            if len(obj) <= _SEARCHED_ITEMS:
                stack.extend(obj)
            continue
        if isinstance(obj, dict):
            state = _Dict(obj)
        elif isinstance(obj, list):
            state = _List(obj)
        elif isinstance(obj, _RANDOM_GENERATORS):
            state = _Generator(obj)
        elif obj is target or _has_state(obj):
            state = _Attributes(obj)
        else:
            continue
        saved.append(state)
        if len(getattr(state, 'items', ())) <= _SEARCHED_ITEMS:
            stack.extend(state.values())
    return saved


class Journal:
    """What a load changes, kept to undo it if the load fails.

    Args:
        target: The object being loaded.
    """

    def __init__(self, target):
        self._states = _snapshot(target)
        self._arrays = {}

    def before_write(self, array):
        """Keeps the contents of an array that is about to be overwritten.

        Args:
            array (numpy.ndarray or cupy.ndarray): The array.
        """
        if id(array) not in self._arrays:
            old = (array.copy() if isinstance(array, numpy.ndarray)
                   else _cpu._to_cpu(array))
            self._arrays[id(array)] = (array, old)

    def undo(self):
        """Puts back what the load changed."""
        for array, old in self._arrays.values():
            backend.copyto(array, old)
        for state in reversed(self._states):
            state.restore()
