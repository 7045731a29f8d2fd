import pytest

from chainer.training import extensions


# Values recorded with the original Chainer 7.8.1.
@pytest.mark.parametrize('args,expected', [
    ((0.1, 4, 1.0), [0.1, 0.325, 0.55, 0.775, 1.0, 1.0, 1.0, 1.0, 1.0]),
    ((None, 3, 0.2),
     [0.5, 0.39999999999999997, 0.3] + [0.20000000000000004] * 6),
], ids=['start', 'start-from-optimizer'])
def test_values(shift_values, args, expected):
    assert shift_values(lambda opt: extensions.WarmupShift(
        'lr', *args, optimizer=opt)) == expected


def test_resume(shift_resumed_values):
    keys, values = shift_resumed_values(lambda opt: extensions.WarmupShift(
        'lr', 0.1, 4, 1.0, optimizer=opt))
    assert keys == ['_t']
    # As in the original, initialize() sets the start value again.
    assert values == [0.1, 1.0, 1.0, 1.0, 1.0]
