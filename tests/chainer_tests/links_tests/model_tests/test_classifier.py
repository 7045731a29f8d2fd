import numpy
import pytest

import chainer
from chainer import functions as F
from chainer.links.connection import linear
from chainer.links.model import classifier


def _x(*shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype('f')


T = numpy.array([0, 1, 2, 3, 1], numpy.int32)


def _observe(model, *args, **kwargs):
    reporter = chainer.Reporter()
    reporter.add_observer('main', model)
    observation = {}
    with reporter.scope(observation):
        loss = model(*args, **kwargs)
    return loss, observation


def test_loss_accuracy_and_report():
    model = classifier.Classifier(linear.Linear(3, 4))
    x = _x(5, 3)
    loss, observation = _observe(model, x, T)
    y = x.dot(model.predictor.W.array.T)
    expected_loss = F.softmax_cross_entropy(y, T).array
    numpy.testing.assert_allclose(loss.array, expected_loss, rtol=1e-6)
    numpy.testing.assert_allclose(model.y.array, y, rtol=1e-6)
    assert model.loss is loss
    accuracy = (y.argmax(axis=1) == T).mean()
    numpy.testing.assert_allclose(model.accuracy.array, accuracy)
    assert sorted(observation) == ['main/accuracy', 'main/loss']
    assert observation['main/loss'].array == loss.array
    assert observation['main/accuracy'].array == model.accuracy.array


def test_compute_accuracy_off():
    model = classifier.Classifier(linear.Linear(3, 4))
    model.compute_accuracy = False
    _, observation = _observe(model, _x(5, 3), T)
    assert model.accuracy is None
    assert list(observation) == ['main/loss']


def test_custom_functions_and_label_keys():
    calls = []

    class Predictor(chainer.Link):
        def forward(self, a, b, scale=1):
            calls.append(scale)
            return a * scale + b

    def lossfun(y, t):
        return F.mean_squared_error(y, t)

    model = classifier.Classifier(Predictor(), lossfun=lossfun,
                                  accfun=lambda y, t: F.sum(y - t),
                                  label_key=1)
    a, b, t = _x(2, 2), _x(2, 2, seed=1), _x(2, 2, seed=2)
    loss = model(a, t, b, scale=2)
    numpy.testing.assert_allclose(
        loss.array, ((a * 2 + b - t) ** 2).mean(), rtol=1e-6)
    model = classifier.Classifier(Predictor(), lossfun=lossfun,
                                  label_key='t')
    model.compute_accuracy = False
    loss = model(a, b, t=t)
    numpy.testing.assert_allclose(loss.array, ((a + b - t) ** 2).mean(),
                                  rtol=1e-6)
    assert calls == [2, 1]


def test_label_key_errors():
    with pytest.raises(TypeError, match='label_key'):
        classifier.Classifier(linear.Linear(3, 4), label_key=1.0)
    model = classifier.Classifier(linear.Linear(3, 4), label_key=3)
    with pytest.raises(ValueError, match='out of bounds'):
        model(_x(5, 3), T)
    model = classifier.Classifier(linear.Linear(3, 4), label_key='t')
    with pytest.raises(ValueError, match='not found'):
        model(_x(5, 3), T)


def test_predictor_child_and_str():
    model = classifier.Classifier(linear.Linear(2, 3))
    assert [name for name, _ in model.namedparams()] == [
        '/predictor/W', '/predictor/b']
    assert str(model) == (
        'Classifier(\n'
        '  (predictor): Linear(in_size=2, out_size=3, nobias=False),\n'
        ')')


def test_backward_reaches_predictor():
    model = classifier.Classifier(linear.Linear(3, 4))
    model.cleargrads()
    model(_x(5, 3), T).backward()
    assert model.predictor.W.grad.shape == (4, 3)
    assert numpy.abs(model.predictor.W.grad).sum() > 0
