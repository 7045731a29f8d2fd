import numpy
import pytest

import chainer
import chainer.links as L
from chainer import iterators
from chainer import optimizers
from chainer import training
from chainer.training import extensions


class Model(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(1, 1, initialW=1., initial_bias=0.)

    def forward(self, x):
        return chainer.functions.sum(self.l1(x))


@pytest.mark.parametrize('value,fails', [
    (1.0, False), (numpy.nan, True), (numpy.inf, True)],
    ids=['finite', 'nan', 'inf'])
def test_fail_on_nonnumber(tmp_path, value, fails):
    model = Model()
    data = [numpy.array([value], numpy.float32)] * 4
    updater = training.updaters.StandardUpdater(
        iterators.SerialIterator(data, 1), optimizers.SGD().setup(model))
    trainer = training.Trainer(updater, (3, 'iteration'), out=str(tmp_path))
    trainer.extend(extensions.FailOnNonNumber())
    if fails:
        with pytest.raises(RuntimeError,
                           match="parameters in optimizer 'main' diverge"):
            trainer.run(show_loop_exception_msg=False)
        assert updater.iteration == 1
    else:
        trainer.run()
        assert updater.iteration == 3
