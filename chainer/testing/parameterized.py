"""Parameterization of test classes.

``parameterize(*params)`` turns a test class into one class per parameter
dict; the dict's items become class attributes. The generated classes are
named ``<Base>_param_<index>_{<key>=<value>, ...}`` and set on the module
that defined the base class, so both pytest and unittest collect them. The
names depend only on the parameters, never on memory addresses, so that
every process of a parallel test run sees the same tests.
"""

import functools
import io
import itertools
import re
import types
import unittest

import numpy

from chainer.testing import _bundle

_SINGLE_PARAM_MAXLEN = 100
_PARAMS_MAXLEN = 5000
_ADDRESS = re.compile(r' at 0x[0-9a-fA-F]+')


def _param_to_str(obj):
    # Classes, functions and modules are shown by name; other objects by
    # their repr with memory addresses removed. NumPy values are written as
    # NumPy 1 wrote them (``bool_``, ``1.0`` rather than ``np.float32(1.0)``)
    # so that test names stay those Chainer 7.8 users know.
    if obj is numpy.bool_:
        return 'bool_'
    name = getattr(obj, '__name__', None)
    if isinstance(name, str):
        return name
    with numpy.printoptions(legacy='1.25'):
        text = repr(obj)
    return _ADDRESS.sub('', text)


def _shorten(s, maxlen):
    # Cuts the middle of ``s`` out, leaving '...', to fit ``maxlen``.
    ellipsis = '...'
    if len(s) <= maxlen:
        return s
    head = (maxlen - len(ellipsis)) // 2
    tail = maxlen - len(ellipsis) - head
    return s[:head] + ellipsis + s[-tail:]


def _make_class_name(base_class_name, i_param, param):
    items = ', '.join(
        '{}={}'.format(k, _shorten(_param_to_str(v), _SINGLE_PARAM_MAXLEN))
        for k, v in sorted(param.items()))
    return '{}_param_{}_{{{}}}'.format(
        base_class_name, i_param, _shorten(items, _PARAMS_MAXLEN))


def _as_member(value):
    # A plain function would become a method; keep it callable as is.
    if isinstance(value, types.FunctionType):
        def method(self, *args, **kwargs):
            return value(*args, **kwargs)
        return method
    return value


def _reraise_with_params(base, method, param, error):
    f = io.StringIO()
    f.write('Parameterized test failed.\n\n')
    f.write('Base test method: {}.{}\n'.format(
        base.__name__, method.__name__))
    f.write('Test parameters:\n')
    for k, v in sorted(param.items()):
        f.write('  {}: {}\n'.format(k, v))
    error_class = type(error)
    if error_class.__name__ == 'OutOfMemoryError':
        error_class = MemoryError
    message = '{}\n\n(caused by)\n{}: {}\n'.format(
        f.getvalue(), type(error).__name__, error)
    try:
        new_error = error_class(message)
    except Exception:
        raise error
    raise new_error from error


def _parameterize_test_case(base, i_param, param):
    cls_name = _make_class_name(base.__name__, i_param, param)

    def __str__(self):
        return '%s  parameter: %s' % (base.__str__(self), param)

    members = {'__str__': __str__}
    for k, v in sorted(param.items()):
        members[k] = _as_member(v)

    def method_generator(base_method):
        @functools.wraps(base_method)
        def new_method(self, *args, **kwargs):
            try:
                return base_method(self, *args, **kwargs)
            except unittest.SkipTest:
                raise
            except Exception as e:
                _reraise_with_params(base, base_method, param, e)
        return new_method

    return cls_name, members, method_generator


def parameterize(*params):
    """Class decorator generating one test class per parameter set.

    Each dict in ``params`` gives the class attributes of one generated
    class (a plain function value is stored so that ``self.f(x)`` calls
    ``f(x)``). The ``test_*`` methods of the generated classes re-raise
    errors with the parameters appended to the message. The decorator can
    be stacked with itself and with
    :func:`~chainer.testing.inject_backend_tests`.

    Args:
        *params (dict): Parameter sets, e.g. from :func:`product`.

    Returns:
        callable: The class decorator.

    .. admonition:: Example

       >>> from chainer import testing
       >>> @testing.parameterize(*testing.product({'n': [1, 2]}))
       ... class TestSquare:
       ...     def test_positive(self):
       ...         assert self.n ** 2 > 0
    """
    def generator(base):
        for i, param in enumerate(params):
            yield _parameterize_test_case(base, i, param)
    return _bundle.make_decorator(generator)


def _values_to_dicts(names, values):
    # 'a,b', [(1, 2), (3, 4)] -> [{'a': 1, 'b': 2}, {'a': 3, 'b': 4}]
    assert isinstance(names, str)
    assert isinstance(values, (tuple, list))
    names = names.split(',')
    if len(names) == 1:
        return [{names[0]: value} for value in values]
    dicts = []
    for value in values:
        assert isinstance(value, (tuple, list)) and len(value) == len(names)
        dicts.append(dict(zip(names, value)))
    return dicts


def from_pytest_parameterize(names, values):
    """Converts pytest-style parameters to a list of dicts.

    Args:
        names (str): Comma-separated parameter names, e.g. ``'x,y'``.
        values (list): One value (one name) or one tuple of values per
            parameter set.

    Returns:
        list of dict: The parameter sets.
    """
    return _values_to_dicts(names, values)


def parameterize_pytest(names, values):
    """Like :func:`parameterize`, with ``pytest.mark.parametrize`` arguments.

    Args:
        names (str): Comma-separated parameter names.
        values (list): Values of the parameters, one entry per set.

    Returns:
        callable: The class decorator.
    """
    return parameterize(*from_pytest_parameterize(names, values))


def product(parameter):
    """Returns the Cartesian product of parameter values as dicts.

    Args:
        parameter (dict or list): Either a dict mapping a name (or several
            comma-separated names) to a list of values (or tuples of
            values), or a list of lists of dicts. Keys of a dict are taken
            in sorted order.

    Returns:
        list of dict: All combinations.

    Raises:
        TypeError: If ``parameter`` has another form.

    .. admonition:: Example

       >>> from chainer import testing
       >>> testing.product({'a': [1, 2], 'b': ['x']})
       [{'a': 1, 'b': 'x'}, {'a': 2, 'b': 'x'}]
    """
    if isinstance(parameter, dict):
        return product_dict(*[
            _values_to_dicts(names, values)
            for names, values in sorted(parameter.items())])
    if isinstance(parameter, list):
        if not all(isinstance(dicts, list) for dicts in parameter):
            raise TypeError('parameter must be list of lists of dicts')
        if not all(isinstance(d, dict) for dicts in parameter for d in dicts):
            raise TypeError('parameter must be list of lists of dicts')
        return product_dict(*parameter)
    raise TypeError(
        'parameter must be either dict or list. Actual: {}'.format(
            type(parameter)))


def product_dict(*parameters):
    """Returns the merged dicts of all combinations of the given dict lists.

    Args:
        *parameters (list of dict): Lists of parameter sets.

    Returns:
        list of dict: One merged dict per element of the Cartesian product
        of the lists.

    .. admonition:: Example

       >>> from chainer import testing
       >>> testing.product_dict([{'a': 1}, {'a': 2}], [{'b': 3}])
       [{'a': 1, 'b': 3}, {'a': 2, 'b': 3}]
    """
    return [
        {k: v for d in dicts for k, v in d.items()}
        for dicts in itertools.product(*parameters)]


_product_dict_orig = product_dict


def _pairwise_product_dict(*parameters):
    """A subset of :func:`product_dict` covering every pair of values.

    Every combination of a value from one list with a value from another
    list appears in at least one returned dict. Used to shrink large test
    grids; the selection is deterministic.
    """
    if len(parameters) <= 2:
        return _product_dict_orig(*parameters)
    lists = [list(dicts) for dicts in parameters]
    chosen = sorted(_indices_covering_pairs([len(d) for d in lists]))
    return [
        {k: v for i, dicts in zip(index, lists) for k, v in dicts[i].items()}
        for index in chosen]


def _indices_covering_pairs(shape):
    # Indices into a grid of ``shape`` such that, for every two axes, every
    # pair of positions along them occurs in some index.
    uncovered = {
        (i, j): set(itertools.product(range(shape[i]), range(shape[j])))
        for i, j in itertools.combinations(range(len(shape)), 2)}
    candidates = list(itertools.product(*[range(n) for n in shape]))
    numpy.random.RandomState(seed=0).shuffle(candidates)
    for index in candidates:
        covered_new = False
        for (i, j), pairs in uncovered.items():
            pair = (index[i], index[j])
            if pair in pairs:
                pairs.remove(pair)
                covered_new = True
        if covered_new:
            yield index
