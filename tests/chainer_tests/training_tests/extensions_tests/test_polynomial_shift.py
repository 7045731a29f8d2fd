import pytest

from chainer.training import extensions


# Values recorded with the original Chainer 7.8.1.
@pytest.mark.parametrize('args,kwargs,expected', [
    ((2, 6), {},
     [0.5, 0.34722222222222227, 0.22222222222222227, 0.125,
      0.055555555555555566, 0.013888888888888883, 0.0, 0.0, 0.0]),
    ((0.5, 10), dict(init=1.0, target=0.55),
     [1.0, 0.9486832980505138, 0.8944271909999159, 0.8366600265340756,
      0.7745966692414834, 0.7071067811865476, 0.6324555320336759, 0.55,
      0.55]),
], ids=['decay', 'target'])
def test_values(shift_values, args, kwargs, expected):
    assert shift_values(lambda opt: extensions.PolynomialShift(
        'lr', *args, optimizer=opt, **kwargs)) == expected


def test_target_reached_at_zero():
    # The original divides by the value and fails once it reaches 0.
    values = []

    class Optimizer:
        lr = 1.0

    optimizer = Optimizer()
    shift = extensions.PolynomialShift('lr', 1, 2, target=0.1,
                                       optimizer=optimizer)
    shift.initialize(None)
    for _ in range(3):
        shift(None)
        values.append(optimizer.lr)
    assert values == [0.5, 0.1, 0.1]


def test_resume(shift_resumed_values):
    keys, values = shift_resumed_values(
        lambda opt: extensions.PolynomialShift('lr', 2, 6, optimizer=opt))
    assert keys == ['_last_value', '_t']
    assert values == [0.125, 0.055555555555555566, 0.013888888888888883,
                      0.0, 0.0]
