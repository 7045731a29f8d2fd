import pytest

from chainer import testing
from chainer.training import extensions


# Values recorded with the original Chainer 7.8.1.
@pytest.mark.parametrize('kwargs,expected', [
    (dict(rate=0.5),
     [0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625,
      0.001953125]),
    (dict(rate=0.5, init=2.0, target=0.3),
     [2.0, 1.0, 0.5, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3]),
    (dict(rate=2, init=1.0, target=10),
     [1.0, 2.0, 4.0, 8.0, 10.0, 10.0, 10.0, 10.0, 10.0]),
], ids=['decay', 'decay-target', 'growth-target'])
def test_values(shift_values, kwargs, expected):
    assert shift_values(lambda opt: extensions.ExponentialShift(
        'lr', optimizer=opt, **kwargs)) == expected


def test_resume(shift_resumed_values):
    keys, values = shift_resumed_values(
        lambda opt: extensions.ExponentialShift('lr', 0.5, optimizer=opt))
    assert keys == ['_last_value', '_t']
    assert values == [0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625]


def test_negative_rate():
    with pytest.raises(ValueError, match='negative rate'):
        extensions.ExponentialShift('lr', -0.5)


def test_uses_main_optimizer_in_trainer():
    trainer = testing.get_trainer_with_mock_updater((3, 'iteration'))
    optimizer = trainer.updater.get_optimizer.return_value
    optimizer.lr = 1.0
    trainer.extend(extensions.ExponentialShift('lr', 0.5))
    trainer.run()
    trainer.updater.get_optimizer.assert_called_with('main')
    assert optimizer.lr == 0.125
