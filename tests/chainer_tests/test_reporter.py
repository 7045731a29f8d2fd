import numpy
import pytest

import chainer


class DictSerializer(chainer.Serializer):
    """Writes values into a flat dictionary, keys joined by '/'."""

    def __init__(self, target, path=''):
        self.target = target
        self.path = path

    def __getitem__(self, key):
        return DictSerializer(self.target, self.path + key + '/')

    def __call__(self, key, value):
        self.target[self.path + key] = value
        return value


class DictDeserializer(chainer.Deserializer):

    def __init__(self, source, path=''):
        self.source = source
        self.path = path

    def __getitem__(self, key):
        return DictDeserializer(self.source, self.path + key + '/')

    def __call__(self, key, value):
        return self.source[self.path + key]


def test_report_with_observer():
    reporter = chainer.Reporter()
    model = chainer.Link()
    reporter.add_observer('main', model)
    observation = {}
    with reporter.scope(observation):
        chainer.report({'loss': 0.5}, model)
        chainer.report({'x': 1})
    assert observation == {'main/loss': 0.5, 'x': 1}


def test_unregistered_observer():
    reporter = chainer.Reporter()
    with reporter.scope({}):
        with pytest.raises(KeyError):
            chainer.report({'loss': 0.5}, object())


def test_report_without_reporter_does_nothing():
    chainer.report({'loss': 1.0})


def test_add_observers_prefix():
    reporter = chainer.Reporter()
    parent = chainer.Chain()
    with parent.init_scope():
        parent.child = chainer.Link()
    reporter.add_observers('main', parent.namedlinks(skipself=True))
    observation = {}
    with reporter.scope(observation):
        chainer.report({'a': 1}, parent.child)
    assert observation == {'main/child/a': 1}


def test_reported_variables_lose_their_graph():
    reporter = chainer.Reporter()
    x = chainer.Variable(numpy.array(2.0, numpy.float32))
    y = x * 3
    observation = {}
    with reporter.scope(observation):
        chainer.report({'y': y})
    assert observation['y'].creator_node is None
    assert float(observation['y'].array) == 6
    with chainer.using_config('keep_graph_on_report', True):
        with reporter.scope(observation):
            chainer.report({'y': y})
    assert observation['y'] is y


def test_nested_reporters_and_report_scope():
    outer, inner = chainer.Reporter(), chainer.Reporter()
    with outer:
        with inner:
            assert chainer.get_current_reporter() is inner
        assert chainer.get_current_reporter() is outer
        observation = {}
        with chainer.report_scope(observation):
            chainer.report({'v': 3})
        assert observation == {'v': 3}


def test_summary_statistics():
    summary = chainer.Summary()
    for value in [1.0, 2.0, 3.0]:
        summary.add(numpy.float32(value))
    summary.add(4.0, weight=2)
    mean, std = summary.make_statistics()
    values = numpy.array([1, 2, 3, 4, 4], numpy.float64)
    numpy.testing.assert_allclose(summary.compute_mean(), values.mean())
    numpy.testing.assert_allclose(mean, values.mean())
    numpy.testing.assert_allclose(std, values.std(), rtol=1e-6)


def test_dict_summary():
    summary = chainer.DictSummary()
    summary.add({'a': 1.0, 'b': chainer.Variable(numpy.array(2.0)),
                 'skip': numpy.ones(3)})
    summary.add({'a': (3.0, 3), 'b': numpy.array(4.0)})
    mean = summary.compute_mean()
    assert set(mean) == {'a', 'b'}
    numpy.testing.assert_allclose(mean['a'], (1 + 9) / 4)
    numpy.testing.assert_allclose(mean['b'], 3)
    stats = summary.make_statistics()
    assert set(stats) == {'a', 'a.std', 'b', 'b.std'}
    with pytest.raises(ValueError, match='not scalar'):
        summary.add({'a': (1.0, numpy.ones(2))})


def test_dict_summary_of_a_string_fails_as_the_original():
    # numpy.isscalar('x') is true, so the string reaches Summary.add.
    with pytest.raises(TypeError):
        chainer.DictSummary().add({'text': 'x'})


@pytest.mark.parametrize('method', ['compute_mean', 'make_statistics'])
def test_empty_summary_raises_zero_division(method):
    with pytest.raises(ZeroDivisionError):
        getattr(chainer.Summary(), method)()
    assert chainer.DictSummary().compute_mean() == {}


@pytest.mark.parametrize('values, weight, mean_type', [
    ([1.0, 2.0], 1, float),
    ([1, 2], 1, float),
    ([numpy.float32(1.5), numpy.float32(2.5)], 1, numpy.float64),
    ([numpy.array(1.5, numpy.float16), numpy.array(2.5, numpy.float16)], 1,
     numpy.float64),
    ([numpy.array(1, numpy.int32), numpy.array(2, numpy.int32)], 1,
     numpy.float64),
    ([1.5, 2.5], numpy.float32(2), numpy.float64),
])
def test_summary_types_follow_numpy_1(values, weight, mean_type):
    summary = chainer.Summary()
    for value in values:
        summary.add(value, weight=weight)
    mean = summary.compute_mean()
    assert type(mean) is mean_type
    expected = float(numpy.mean(numpy.asarray(values, numpy.float64)))
    assert mean == expected
    assert type(summary._n) is type(2 * weight)


def test_summary_of_float32_values_accumulates_in_float64():
    summary = chainer.Summary()
    value = numpy.float32(0.1)
    for _ in range(1000):
        summary.add(value)
    assert summary._x == 1000 * numpy.float64(value)


def test_dict_summary_serialize_round_trip():
    summary = chainer.DictSummary()
    summary.add({'a': 1.0, 'b': 2.0})
    summary.add({'a': 3.0})
    saved = {}
    summary.serialize(DictSerializer(saved))
    assert saved['_names'] == '["a", "b"]'
    restored = chainer.DictSummary()
    restored.serialize(DictDeserializer(saved))
    assert restored.compute_mean() == summary.compute_mean()
