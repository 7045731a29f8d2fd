import io

import pytest

import chainer
from chainer import testing
from chainer.training import extensions


def _report(trainer):
    it = trainer.updater.iteration
    chainer.report({'main/loss': 1.0 / it, 'main/accuracy': it * 0.1})
    if it % 3 == 0:
        chainer.report({'validation/main/accuracy': 0.5 + it / 100})


def _trainer(tmp_path, stop):
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=(stop, 'iteration'), iter_per_epoch=3)
    trainer.out = str(tmp_path)
    trainer.extend(_report, name='rep', priority=300)
    return trainer


def test_prints_registered_log_report(tmp_path):
    out = io.StringIO()
    trainer = _trainer(tmp_path, 7)
    trainer.extend(extensions.LogReport(
        trigger=(2, 'iteration'),
        postprocess=lambda entry: entry.update({'pp': 1})))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'main/loss', 'validation/main/accuracy',
         'pp', 'missing'], out=out))
    trainer.run()
    # Recorded with the original Chainer 7.8.1.
    assert out.getvalue() == (
        'epoch       iteration   main/loss   validation/main/accuracy  pp'
        '          missing   \n'
        '\x1b[J0           2           0.75                             '
        '     1                       \n'
        '\x1b[J1           4           0.291667    0.53                 '
        '     1                       \n'
        '\x1b[J2           6           0.183333    0.56                 '
        '     1                       \n')


def test_owned_log_report(tmp_path):
    out = io.StringIO()
    trainer = _trainer(tmp_path, 4)
    trainer.extend(extensions.PrintReport(
        ['iteration', 'main/accuracy'],
        log_report=extensions.LogReport(keys=['main/accuracy'],
                                        trigger=(1, 'iteration')),
        out=out))
    trainer.run()
    # Recorded with the original Chainer 7.8.1.
    assert out.getvalue() == (
        'iteration   main/accuracy\n'
        '\x1b[J1           0.1            \n'
        '\x1b[J2           0.2            \n'
        '\x1b[J3           0.3            \n'
        '\x1b[J4           0.4            \n')


def test_wrong_log_report_type(tmp_path):
    trainer = _trainer(tmp_path, 1)
    trainer.extend(extensions.PrintReport(['epoch'], log_report=3,
                                          out=io.StringIO()))
    with pytest.raises(TypeError, match='log report has a wrong type'):
        trainer.run(show_loop_exception_msg=False)
