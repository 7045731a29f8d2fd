import numpy
import pytest

import chainer
from chainer.backends import cuda
from chainer import datasets
from chainer import iterators
from chainer import links as L
from chainer import optimizers
from chainer import training
from chainer.training.updaters import multiprocess_parallel_updater as mpu


class Net(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 2)
            self.empty = chainer.Parameter(numpy.zeros((0,), numpy.float32))


def test_size_num_grads_skips_empty_parameters():
    assert mpu.size_num_grads(Net()) == (3 * 2 + 2, 2)


@pytest.mark.parametrize('gather', [mpu.gather_grads, mpu.gather_params])
def test_gather_raises_on_cpu(gather):
    with pytest.raises(RuntimeError, match='only on GPU'):
        gather(Net())


@pytest.mark.gpu
@pytest.mark.skipif(not cuda.available, reason='needs CuPy')
def test_gather_scatter_round_trip():
    source, target = Net(), Net()
    source.to_gpu()
    target.to_gpu()
    source.cleargrads()
    source.l1.W.grad = cuda.cupy.ones((2, 3), numpy.float32)
    grads = mpu.gather_grads(source)
    assert grads.shape == (8,) and float(grads.sum()) == 6
    mpu.scatter_grads(target, grads)
    cuda.cupy.testing.assert_array_equal(target.l1.W.grad, 1)
    cuda.cupy.testing.assert_array_equal(target.l1.b.grad, 0)
    mpu.scatter_params(target, mpu.gather_params(source))
    cuda.cupy.testing.assert_array_equal(target.l1.W.array, source.l1.W.array)


def test_needs_nccl():
    optimizer = optimizers.SGD(0.1).setup(L.Linear(3, 1))
    iterator = iterators.SerialIterator(
        datasets.TupleDataset(numpy.zeros((8, 3), numpy.float32),
                              numpy.zeros((8, 1), numpy.float32)),
        4, shuffle=False)
    with pytest.raises(Exception, match='NCCL|not provided'):
        training.updaters.MultiprocessParallelUpdater(
            [iterator], optimizer, devices=[0])

