import os
import warnings

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import testing
from chainer.training.extensions import _matplotlib
from chainer.training.extensions import variable_statistics_plot
from chainer.training import extensions


PNG_MAGIC = b'\x89PNG\r\n\x1a\n'


def _link():
    link = L.Linear(3, 2, initialW=numpy.arange(6, dtype='f').reshape(2, 3),
                    initial_bias=1.)
    for param in link.params():
        param.grad = numpy.ones_like(param.array)
    return link


def _run(tmp_path, ext, stop=2):
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=(stop, 'iteration'), iter_per_epoch=2)
    trainer.out = str(tmp_path)
    trainer.extend(ext)
    trainer.run()


@pytest.mark.parametrize('kwargs', [
    {}, dict(plot_mean=False, plot_std=False),
    dict(percentile_sigmas=(), report_grad=False, plot_std=False),
    dict(percentile_sigmas=50, marker='o', grid=False, figsize=(4, 3)),
], ids=['default', 'percentiles-only', 'mean-of-data', 'one-percentile'])
def test_writes_png(tmp_path, kwargs):
    pytest.importorskip('matplotlib')
    link = _link()
    ext = extensions.VariableStatisticsPlot(link, **kwargs)
    _run(tmp_path, ext)
    assert os.listdir(str(tmp_path)) == ['statistics.png']
    with open(str(tmp_path / 'statistics.png'), 'rb') as f:
        assert f.read(8) == PNG_MAGIC


def test_statistics_sampled(tmp_path):
    pytest.importorskip('matplotlib')
    link = _link()
    ext = extensions.VariableStatisticsPlot(
        [link.W, link.b], percentile_sigmas=(0, 50, 100),
        file_name='stats.png', trigger=(3, 'iteration'))
    _run(tmp_path, ext, stop=3)
    idxs, data = ext._samples.get_data()
    assert idxs.tolist() == [1, 2, 3]
    values = numpy.concatenate([link.W.array.ravel(), link.b.array])
    expected = [values.mean(), values.std(), 0., numpy.median(values), 5.]
    numpy.testing.assert_allclose(data[0, 0], expected, rtol=1e-6)
    numpy.testing.assert_allclose(data[0, 1], [1, 0, 1, 1, 1])
    assert os.listdir(str(tmp_path)) == ['stats.png']


def test_reservoir():
    numpy.random.seed(0)
    reservoir = variable_statistics_plot.Reservoir(3, (2,))
    for i in range(10):
        reservoir.add(numpy.full(2, i, numpy.float32), idx=i + 100)
    idxs, data = reservoir.get_data()
    assert len(idxs) == 3 and list(idxs) == sorted(idxs)
    numpy.testing.assert_array_equal(data[:, 0] + 100, idxs)


def test_statistician():
    statistician = variable_statistics_plot.Statistician(
        collect_mean=True, collect_std=False, percentile_sigmas=(25, 75))
    x = numpy.arange(8, dtype=numpy.float32).reshape(2, 4)
    out = statistician(x, axis=None)
    assert sorted(out) == ['mean', 'percentile']
    assert out['mean'] == 3.5
    numpy.testing.assert_allclose(out['percentile'], [1.75, 5.25])


def test_errors():
    with pytest.raises(ValueError, match='Need at least one variables'):
        extensions.VariableStatisticsPlot([])
    with pytest.raises(ValueError, match='Nothing to plot'):
        extensions.VariableStatisticsPlot(
            chainer.Variable(numpy.ones(2, 'f')), plot_mean=False,
            plot_std=False, percentile_sigmas=())


def test_without_matplotlib(tmp_path, monkeypatch):
    monkeypatch.setattr(_matplotlib, '_available', False)
    ext = extensions.VariableStatisticsPlot(_link())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        _run(tmp_path, ext)
    assert any('matplotlib is not installed' in str(w.message)
               for w in caught)
    assert os.listdir(str(tmp_path)) == []
