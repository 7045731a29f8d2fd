import numpy
import pytest

import chainer
from chainer import configuration
from chainer import dataset
import chainer.functions as F
from chainer import iterators
import chainer.links as L
from chainer import testing
from chainer import training
from chainer.training import extensions


class Target(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(2, 1, initialW=numpy.array([[1., -1.]], 'f'),
                               initial_bias=0.5)
        self.modes = []

    def forward(self, x, t):
        self.modes.append((configuration.config.train,
                           configuration.config.enable_backprop))
        y = self.l1(x)
        loss = F.mean_squared_error(y, t)
        chainer.report({'loss': loss}, self)
        chainer.report({'mean_y': F.mean(y)}, self.l1)
        return loss


def _data(n=7):
    rng = numpy.random.RandomState(1)
    x = rng.randn(n, 2).astype(numpy.float32)
    t = rng.randn(n, 1).astype(numpy.float32)
    return x, t


def _iterator(batch_size=3, **kwargs):
    x, t = _data()
    kwargs.setdefault('repeat', False)
    kwargs.setdefault('shuffle', False)
    return iterators.SerialIterator(list(zip(x, t)), batch_size, **kwargs)


def _expected(batch_size=3):
    # NumPy re-statement: the mean over batches of each batch's values.
    x, t = _data()
    y = x @ numpy.array([[1.], [-1.]], numpy.float32) + 0.5
    losses, means = [], []
    for i in range(0, len(x), batch_size):
        losses.append(((y[i:i + batch_size] - t[i:i + batch_size]) ** 2)
                      .mean())
        means.append(y[i:i + batch_size].mean())
    return numpy.mean(losses), numpy.mean(means)


def test_evaluate_numbers_and_modes():
    target = Target()
    evaluator = extensions.Evaluator(_iterator(), target)
    with configuration.using_config('train', True):
        result = evaluator()
    loss, mean_y = _expected()
    assert sorted(result) == ['main/l1/mean_y', 'main/loss']
    assert float(result['main/loss']) == pytest.approx(loss, rel=1e-6)
    assert float(result['main/l1/mean_y']) == pytest.approx(mean_y,
                                                            rel=1e-5)
    assert target.modes == [(False, False)] * 3
    assert configuration.config.train


def test_each_evaluation_resets_iterator():
    evaluator = extensions.Evaluator(_iterator(), Target())
    first = evaluator()
    second = evaluator()
    assert float(first['main/loss']) == float(second['main/loss'])


def test_iterator_without_reset_is_copied():

    class Iterator(dataset.Iterator):

        def __init__(self, batches):
            self.batches = batches
            self.position = 0

        def __next__(self):
            if self.position == len(self.batches):
                raise StopIteration
            self.position += 1
            return self.batches[self.position - 1]

    x, t = _data()
    it = Iterator([list(zip(x[:3], t[:3])), list(zip(x[3:], t[3:]))])
    evaluator = extensions.Evaluator(it, Target())
    with pytest.warns(DeprecationWarning, match='reset method'):
        first = evaluator()
    with pytest.warns(DeprecationWarning):
        second = evaluator()
    assert it.position == 0
    assert float(first['main/loss']) == float(second['main/loss'])


def test_reports_under_extension_name_in_trainer():
    target = Target()
    evaluator = extensions.Evaluator(_iterator(), target)
    trainer = testing.get_trainer_with_mock_updater((2, 'iteration'))
    trainer.extend(evaluator, trigger=(1, 'iteration'))
    observations = []
    trainer.extend(lambda t: observations.append(dict(t.observation)),
                   name='record')
    trainer.run()
    loss, mean_y = _expected()
    assert evaluator.name == 'validation'
    assert sorted(observations[0]) == ['validation/main/l1/mean_y',
                                       'validation/main/loss']
    assert float(observations[1]['validation/main/loss']) == \
        pytest.approx(loss, rel=1e-6)


def test_eval_func_hook_and_dict_targets():
    calls = []
    target = Target()
    other = Target()

    def eval_func(x, t):
        calls.append(len(x))
        chainer.report({'n': float(len(x))}, other)

    evaluator = extensions.Evaluator(
        {'main': _iterator()}, {'main': target, 'other': other},
        eval_hook=lambda e: calls.append(e), eval_func=eval_func,
        device='@numpy')
    result = evaluator()
    assert calls == [evaluator, 3, 3, 1]
    assert result == {'other/n': pytest.approx(7 / 3)}
    assert target.modes == []
    assert evaluator.get_target('other') is other
    assert evaluator.get_all_targets() == {'main': target, 'other': other}
    assert list(evaluator.get_all_iterators()) == ['main']
    assert evaluator.device == chainer.get_device('@numpy')


@pytest.mark.parametrize('kind', ['dict', 'single'])
def test_converter_output_kinds(kind):
    seen = []

    def converter(batch, device):
        x = numpy.stack([example[0] for example in batch])
        return {'x': x} if kind == 'dict' else x

    def eval_func(*args, **kwargs):
        seen.append((len(args), sorted(kwargs)))

    extensions.Evaluator(_iterator(batch_size=7), Target(),
                         converter=converter, eval_func=eval_func)()
    assert seen == [(0, ['x'])] if kind == 'dict' else [(1, [])]


def test_repeating_iterator_warns():
    with pytest.warns(UserWarning, match='`repeat` property of the iterator'
                                         ' main'):
        extensions.Evaluator(_iterator(repeat=True), Target())


def test_defaults_and_finalize():
    finalized = []
    iterator = _iterator()
    iterator.finalize = lambda: finalized.append(True)
    evaluator = extensions.Evaluator(iterator, Target())
    assert evaluator.trigger == (1, 'epoch')
    assert evaluator.priority == training.PRIORITY_WRITER
    assert evaluator.default_name == 'validation'
    assert evaluator.get_iterator('main') is iterator
    evaluator.finalize()
    assert finalized == [True]


def test_progress_bar(capsys):
    evaluator = extensions.Evaluator(_iterator(), Target(),
                                     progress_bar=True)
    evaluator()
    out = capsys.readouterr().out
    assert 'validation [' in out
    assert '3 / 7 iterations' in out
    assert 'iters/sec. Estimated time to finish:' in out
    assert out.endswith('\x1b[J')
