"""chainer.testing.training: a trainer with a mock updater."""

import pytest

from chainer import testing


def test_trainer_with_mock_updater():
    pytest.importorskip('chainer.training')
    trainer = testing.get_trainer_with_mock_updater(
        stop_trigger=(5, 'iteration'), iter_per_epoch=2)
    trainer.run()
    updater = trainer.updater
    assert updater.iteration == 5
    assert updater.epoch == 2
    assert updater.epoch_detail == 2.5
    assert updater.update_core.call_count == 5
