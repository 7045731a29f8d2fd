from chainer.training import extensions


def test_values(shift_values):
    # Recorded with the original Chainer 7.8.1.
    assert shift_values(lambda opt: extensions.LinearShift(
        'lr', (1.0, 2.0), (2, 6), optimizer=opt)) == \
        [1.0, 1.0, 1.0, 1.25, 1.5, 1.75, 2.0, 2.0, 2.0]


def test_resume(shift_resumed_values):
    keys, values = shift_resumed_values(lambda opt: extensions.LinearShift(
        'lr', (1.0, 2.0), (2, 6), optimizer=opt))
    assert keys == ['_last_value', '_t']
    assert values == [1.25, 1.5, 1.75, 2.0, 2.0]
