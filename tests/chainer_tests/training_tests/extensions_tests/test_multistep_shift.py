import pytest

from chainer.training import extensions


# Values recorded with the original Chainer 7.8.1.
@pytest.mark.parametrize('args,expected', [
    ((0.1, [2, 3, 6], 1.0),
     [1.0, 1.0, 0.1, 0.010000000000000002, 0.010000000000000002,
      0.010000000000000002, 0.0010000000000000002, 0.0010000000000000002,
      0.0010000000000000002]),
    ((0.5, [1, 4], None),
     [0.5, 0.25, 0.25, 0.25, 0.125, 0.125, 0.125, 0.125, 0.125]),
], ids=['init', 'init-from-optimizer'])
def test_values(shift_values, args, expected):
    assert shift_values(lambda opt: extensions.MultistepShift(
        'lr', *args, optimizer=opt)) == expected


def test_resume(shift_resumed_values):
    keys, values = shift_resumed_values(lambda opt: extensions.MultistepShift(
        'lr', 0.1, [2, 3, 6], 1.0, optimizer=opt))
    assert keys == ['_current_step', '_t']
    assert values == [1.0, 0.010000000000000002, 0.010000000000000002,
                      0.0010000000000000002, 0.0010000000000000002]
