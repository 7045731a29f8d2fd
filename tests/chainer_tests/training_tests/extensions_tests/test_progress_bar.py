import io
import re

from chainer import testing
from chainer.training import extensions


_SPEED = re.compile(r' *(inf|[0-9.e+]+) iters/sec\. Estimated time to '
                    r'finish: [0-9:.]+\.\n')


def _run(stop, iter_per_epoch, **kwargs):
    out = io.StringIO()
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=stop, iter_per_epoch=iter_per_epoch)
    trainer.extend(extensions.ProgressBar(out=out, **kwargs))
    trainer.run()
    return out.getvalue()


def _frames(text):
    # Each drawing: erase, four lines, cursor up four lines.
    frames = text.split('\x1b[4A')
    assert frames[-1] == '\x1b[J'
    lines = []
    for frame in frames[:-1]:
        assert frame.startswith('\x1b[J')
        frame_lines = frame[3:].splitlines(keepends=True)
        assert len(frame_lines) == 4
        assert _SPEED.fullmatch(frame_lines[3])
        lines.append(''.join(frame_lines[:3]))
    return lines


def _bar(label, marks, percent, length=50):
    return '{} [{}{}] {}\n'.format(label, '#' * marks, '.' * (length - marks),
                                    percent)


def test_epoch_length():
    # The bars and status lines recorded with the original Chainer 7.8.1.
    frames = _frames(_run((2, 'epoch'), 4, update_interval=3))
    assert frames == [
        _bar('     total', 18, '37.50%') +
        _bar('this epoch', 37, '75.00%') +
        '         3 iter, 0 epoch / 2 epochs\n',
        _bar('     total', 37, '75.00%') +
        _bar('this epoch', 25, '50.00%') +
        '         6 iter, 1 epoch / 2 epochs\n',
    ]


def test_iteration_length():
    frames = _frames(_run((10, 'iteration'), 4, update_interval=5))
    assert frames == [
        _bar('     total', 25, '50.00%') +
        _bar('this epoch', 12, '25.00%') +
        '         5 iter, 1 epoch / 10 iterations\n',
        _bar('     total', 50, '100.00%') +
        _bar('this epoch', 25, '50.00%') +
        '        10 iter, 2 epoch / 10 iterations\n',
    ]


def test_given_length_and_bar_length():
    frames = _frames(_run((4, 'iteration'), 4, update_interval=2,
                          training_length=(8, 'iteration'), bar_length=10))
    assert frames[0] == (_bar('     total', 2, '25.00%', 10) +
                         _bar('this epoch', 5, '50.00%', 10) +
                         '         2 iter, 0 epoch / 8 iterations\n')
