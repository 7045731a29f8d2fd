import pytest

from chainer.training import extensions


# Values recorded with the original Chainer 7.8.1.
@pytest.mark.parametrize('args,kwargs,expected', [
    ((0.5, 2), {},
     [0.5, 0.2222222222222222, 0.125, 0.08, 0.05555555555555555,
      0.04081632653061224, 0.03125, 0.024691358024691357, 0.02]),
    ((1.0, 1), dict(init=1.0, target=0.3),
     [1.0, 0.5, 0.3333333333333333, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3]),
    ((0.5, -1), dict(init=1.0, target=2.6),
     [1.0, 1.5, 2.0, 2.5, 2.6, 2.6, 2.6, 2.6, 2.6]),
], ids=['decay', 'target', 'negative-power'])
def test_values(shift_values, args, kwargs, expected):
    assert shift_values(lambda opt: extensions.InverseShift(
        'lr', *args, optimizer=opt, **kwargs)) == expected


def test_resume(shift_resumed_values):
    keys, values = shift_resumed_values(
        lambda opt: extensions.InverseShift('lr', 0.5, 2, optimizer=opt))
    assert keys == ['_last_value', '_t']
    assert values == [0.08, 0.05555555555555555, 0.04081632653061224,
                      0.03125, 0.024691358024691357]


def test_negative_gamma():
    with pytest.raises(ValueError, match='negative gamma'):
        extensions.InverseShift('lr', -1, 1)
