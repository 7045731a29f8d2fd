import itertools
import os
import re
import subprocess
import sys
import textwrap
import unittest

import numpy
import pytest

from chainer import testing
from chainer.testing import parameterized

_this_module = sys.modules[__name__]


def _generated(prefix):
    # Generated classes of this module whose names start with ``prefix``.
    return sorted(
        name for name, obj in vars(_this_module).items()
        if name.startswith(prefix) and isinstance(obj, type))


@testing.parameterize(
    {'a': 1, 'b': 'x'},
    {'a': 2, 'b': 'y'},
)
class TestPlainClass:

    def test_attributes(self):
        assert (self.a, self.b) in ((1, 'x'), (2, 'y'))


@testing.parameterize(*testing.product({
    'dtype': [numpy.float32, numpy.float64],
    'shape': [(2, 3), ()],
}))
class TestUnittestClass(unittest.TestCase):

    def test_attributes(self):
        self.assertIn(self.dtype, (numpy.float32, numpy.float64))
        self.assertIn(self.shape, ((2, 3), ()))


@testing.parameterize({'x': 1}, {'x': 2})
@testing.parameterize({'y': 10}, {'y': 20})
class TestStacked:

    def test_both(self):
        assert self.x in (1, 2)
        assert self.y in (10, 20)


def _double(v):
    return v * 2


@testing.parameterize({'f': _double})
class TestFunctionValue:

    def test_call(self):
        assert self.f(3) == 6


def test_plain_class_names():
    assert _generated('TestPlainClass') == [
        "TestPlainClass_param_0_{a=1, b='x'}",
        "TestPlainClass_param_1_{a=2, b='y'}",
    ]
    assert not isinstance(TestPlainClass, type)


def test_unittest_class_names():
    assert _generated('TestUnittestClass') == [
        'TestUnittestClass_param_0_{dtype=float32, shape=(2, 3)}',
        'TestUnittestClass_param_1_{dtype=float32, shape=()}',
        'TestUnittestClass_param_2_{dtype=float64, shape=(2, 3)}',
        'TestUnittestClass_param_3_{dtype=float64, shape=()}',
    ]
    cls = getattr(
        _this_module, 'TestUnittestClass_param_3_{dtype=float64, shape=()}')
    assert issubclass(cls, unittest.TestCase)
    assert cls.dtype is numpy.float64
    assert cls.shape == ()
    assert cls.__module__ == __name__


def test_stacked_names():
    assert _generated('TestStacked') == [
        'TestStacked_param_0_{y=10}_param_0_{x=1}',
        'TestStacked_param_0_{y=10}_param_1_{x=2}',
        'TestStacked_param_1_{y=20}_param_0_{x=1}',
        'TestStacked_param_1_{y=20}_param_1_{x=2}',
    ]


def test_str_shows_parameters():
    cls = getattr(_this_module, 'TestUnittestClass_param_1_{dtype=float32, '
                                'shape=()}')
    text = str(cls('test_attributes'))
    assert text.endswith(
        "  parameter: {'dtype': <class 'numpy.float32'>, 'shape': ()}")


class _Failing:

    def test_fail(self):
        raise ValueError('boom')

    def test_skip(self):
        raise unittest.SkipTest('not today')


def test_error_message_names_parameters():
    bundle = testing.parameterize({'n': 3, 's': 'abc'})(_Failing)
    cls = bundle.cases[0].klass
    try:
        with pytest.raises(ValueError) as e:
            cls().test_fail()
        assert str(e.value) == (
            'Parameterized test failed.\n\n'
            'Base test method: _Failing.test_fail\n'
            'Test parameters:\n'
            '  n: 3\n'
            '  s: abc\n'
            '\n\n(caused by)\nValueError: boom\n')
        assert isinstance(e.value.__cause__, ValueError)
        with pytest.raises(unittest.SkipTest):
            cls().test_skip()
    finally:
        delattr(_this_module, bundle.cases[0].class_name)


def test_class_name_has_no_memory_address():
    class Opaque:
        pass

    name = parameterized._make_class_name(
        'T', 0, {'o': Opaque(), 'n': None})
    assert name.startswith('T_param_0_{n=None, o=<')
    assert name.endswith('.Opaque object>}')
    assert '0x' not in name


def test_class_name_shortens_long_values():
    name = parameterized._make_class_name('T', 1, {'s': 'a' * 300})
    value = name[len('T_param_1_{s='):-1]
    assert len(value) == 100
    assert value == "'" + 'a' * 47 + '...' + 'a' * 48 + "'"


class TestProduct:

    def test_dict(self):
        assert testing.product({'b': [1, 2], 'a': ['x']}) == [
            {'a': 'x', 'b': 1}, {'a': 'x', 'b': 2}]

    def test_dict_with_joined_names(self):
        assert testing.product({'a,b': [(1, 2), (3, 4)], 'c': [5]}) == [
            {'a': 1, 'b': 2, 'c': 5}, {'a': 3, 'b': 4, 'c': 5}]

    def test_list_of_lists(self):
        assert testing.product([[{'a': 1}, {'a': 2}], [{'b': 3}]]) == [
            {'a': 1, 'b': 3}, {'a': 2, 'b': 3}]

    @pytest.mark.parametrize('bad', [3, 'ab', (1,)])
    def test_bad_type(self, bad):
        with pytest.raises(TypeError, match='either dict or list'):
            testing.product(bad)

    @pytest.mark.parametrize('bad', [[1], [[1]], [{'a': 1}]])
    def test_bad_list(self, bad):
        with pytest.raises(TypeError, match='list of lists of dicts'):
            testing.product(bad)

    def test_product_dict(self):
        assert testing.product_dict(
            [{'a': 1}, {'a': 2}], [{'b': 3, 'c': 4}]) == [
            {'a': 1, 'b': 3, 'c': 4}, {'a': 2, 'b': 3, 'c': 4}]
        assert testing.product_dict() == [{}]

    def test_from_pytest_parameterize(self):
        assert testing.from_pytest_parameterize('x,y', [(1, 2), (3, 4)]) == [
            {'x': 1, 'y': 2}, {'x': 3, 'y': 4}]
        assert testing.from_pytest_parameterize('x', [(1, 2), 3]) == [
            {'x': (1, 2)}, {'x': 3}]


def test_parameterize_pytest():
    bundle = testing.parameterize_pytest('p,q', [(1, 2)])(_Failing)
    try:
        assert bundle.cases[0].class_name == '_Failing_param_0_{p=1, q=2}'
    finally:
        delattr(_this_module, bundle.cases[0].class_name)


def test_pairwise_product_covers_all_pairs():
    lists = [
        [{'a': i} for i in range(3)],
        [{'b': i} for i in range(2)],
        [{'c': i} for i in range(4)],
        [{'d': i} for i in range(2)],
    ]
    result = parameterized._pairwise_product_dict(*lists)
    assert len(result) < 3 * 2 * 4 * 2
    for k1, k2 in itertools.combinations('abcd', 2):
        pairs = {(d[k1], d[k2]) for d in result}
        n1 = len(lists['abcd'.index(k1)])
        n2 = len(lists['abcd'.index(k2)])
        assert pairs == set(itertools.product(range(n1), range(n2)))
    assert result == parameterized._pairwise_product_dict(*lists)


_COLLECTED_MODULE = '''
import unittest
from chainer import testing


class Opaque:
    pass


@testing.parameterize(*testing.product({
    'obj': [Opaque(), None],
    'n': [1, 2],
}))
class TestUnit(unittest.TestCase):
    def test_n(self):
        self.assertIn(self.n, (1, 2))


@testing.parameterize({'k': 'a'}, {'k': 'b'})
class TestPlain:
    def test_k(self):
        assert self.k in ('a', 'b')
'''


def _run_pytest(tmp_path, *args):
    path = tmp_path / 'test_generated.py'
    path.write_text(textwrap.dedent(_COLLECTED_MODULE))
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    env['PYTHONPATH'] = root + os.pathsep + env.get('PYTHONPATH', '')
    return subprocess.run(
        [sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider',
         '-o', 'addopts=', '--rootdir', str(tmp_path), str(path)]
        + list(args),
        capture_output=True, text=True, env=env, cwd=str(tmp_path))


def _passed_ids(output):
    # Node ids reported as passed by ``pytest -v`` (with or without xdist).
    pattern = re.compile(r'(test_generated\.py::.*?::test_\w+)')
    return sorted(
        pattern.search(line).group(1) for line in output.splitlines()
        if 'PASSED' in line.split())


def test_pytest_collects_generated_classes(tmp_path):
    result = _run_pytest(tmp_path, '-v')
    assert result.returncode == 0, result.stdout + result.stderr
    ids = _passed_ids(result.stdout)
    assert len(ids) == 6
    assert ('test_generated.py::TestUnit_param_0_{n=1, '
            'obj=<test_generated.Opaque object>}::test_n') in ids
    assert "test_generated.py::TestPlain_param_1_{k='b'}::test_k" in ids


def test_generated_ids_are_stable_across_xdist_workers(tmp_path):
    pytest.importorskip('xdist')
    result = _run_pytest(tmp_path, '-v', '-n', '2')
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(_passed_ids(result.stdout)) == 6


def test_numpy_values_are_named_as_under_numpy_1():
    from chainer.testing import parameterized
    assert parameterized._param_to_str(numpy.bool_) == 'bool_'
    assert parameterized._param_to_str(numpy.float32) == 'float32'
    assert parameterized._param_to_str(numpy.float32(1.5)) == '1.5'
    assert parameterized._param_to_str(
        [numpy.int64(3), numpy.True_]) == '[3, True]'
