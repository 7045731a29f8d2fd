import pytest

from chainer.training import extensions


# Values recorded with the original Chainer 7.8.1.
@pytest.mark.parametrize('args,kwargs,expected', [
    ((0.5, 3), {}, [0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.125, 0.125, 0.125]),
    ((0.5, 2), dict(init=1.0, target=0.3),
     [1.0, 1.0, 0.5, 0.5, 0.3, 0.3, 0.3, 0.3, 0.3]),
    ((3, 2), dict(init=1.0, target=20),
     [1.0, 1.0, 3.0, 3.0, 9.0, 9.0, 20.0, 20.0, 20.0]),
], ids=['decay', 'target', 'growth-target'])
def test_values(shift_values, args, kwargs, expected):
    assert shift_values(lambda opt: extensions.StepShift(
        'lr', *args, optimizer=opt, **kwargs)) == expected


def test_resume(shift_resumed_values):
    keys, values = shift_resumed_values(
        lambda opt: extensions.StepShift('lr', 0.5, 2, optimizer=opt))
    assert keys == ['_last_value', '_t']
    assert values == [0.25, 0.125, 0.125, 0.0625, 0.0625]
