import itertools

import numpy
import pytest

from chainer.links.loss import crf1d


def _x(*shape, seed=1):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype('f')


def _score(x, y, cost):
    return sum(x[i, y[i]] for i in range(len(y))) + sum(
        cost[y[i], y[i + 1]] for i in range(len(y) - 1))


def _nll(x, y, cost):
    # Brute force over all label paths of one sequence (length, n_label).
    n_label = x.shape[1]
    scores = [_score(x, path, cost)
              for path in itertools.product(range(n_label), repeat=len(x))]
    return numpy.logaddexp.reduce(scores) - _score(x, y, cost)


def test_cost_parameter():
    link = crf1d.CRF1d(3)
    assert link.cost.shape == (3, 3) and (link.cost.array == 0).all()
    cost = _x(3, 3)
    link = crf1d.CRF1d(3, initial_cost=cost)
    numpy.testing.assert_array_equal(link.cost.array, cost)


def test_time_major_loss_against_brute_force():
    cost = _x(3, 3, seed=9)
    link = crf1d.CRF1d(3, initial_cost=cost)
    xs = [_x(2, 3, seed=i) for i in range(3)]
    ys = [numpy.array(v, 'i') for v in ([0, 2], [1, 1], [2, 0])]
    x = numpy.stack(xs, axis=1)
    y = numpy.stack(ys, axis=1)
    expected = [_nll(x[b], y[b], cost) for b in range(2)]
    numpy.testing.assert_allclose(
        link(xs, ys, reduce='no').array, expected, rtol=1e-5)
    numpy.testing.assert_allclose(
        link(xs, ys).array, numpy.mean(expected), rtol=1e-5)


def test_batch_major_loss_and_argmax():
    cost = _x(3, 3, seed=9)
    link = crf1d.CRF1d(3, initial_cost=cost)
    xs = [_x(3, 3, seed=1), _x(1, 3, seed=2), _x(2, 3, seed=3)]
    ys = [numpy.array(v, 'i') for v in ([0, 1, 2], [1], [2, 0])]
    loss = link(xs, ys, reduce='no', transpose=True)
    # Losses come out in the order of decreasing length.
    expected = [_nll(xs[i], ys[i], cost) for i in (0, 2, 1)]
    numpy.testing.assert_allclose(loss.array, expected, rtol=1e-5)
    score, path = link.argmax(xs, transpose=True)
    for i, x in enumerate(xs):
        best = max(itertools.product(range(3), repeat=len(x)),
                   key=lambda p: _score(x, p, cost))
        numpy.testing.assert_array_equal(path[i], best)
    numpy.testing.assert_allclose(
        sorted(score.array),
        sorted(max(_score(x, p, cost) for p in itertools.product(
            range(3), repeat=len(x))) for x in xs), rtol=1e-5)


def test_time_major_argmax():
    cost = _x(2, 2, seed=4)
    link = crf1d.CRF1d(2, initial_cost=cost)
    xs = [_x(1, 2, seed=i) for i in range(4)]
    score, path = link.argmax(xs)
    x = numpy.concatenate(xs)
    best = max(itertools.product(range(2), repeat=4),
               key=lambda p: _score(x, p, cost))
    numpy.testing.assert_array_equal(
        numpy.concatenate(path), numpy.array(best))
    numpy.testing.assert_allclose(score.array, [_score(x, best, cost)],
                                  rtol=1e-5)


def test_gradient_reaches_cost():
    link = crf1d.CRF1d(2)
    xs = [_x(1, 2, seed=i) for i in range(2)]
    ys = [numpy.array([0], 'i'), numpy.array([1], 'i')]
    link.cleargrads()
    link(xs, ys).backward()
    # d nll / d cost = P(transition) - indicator of the gold transition.
    assert link.cost.grad[0, 1] < 0
    assert link.cost.grad.sum() == pytest.approx(0, abs=1e-6)
