import chainer
import chainer.functions as F
import numpy as np
import pytest


def _x(*shape):
    x = np.arange(np.prod(shape)).reshape(shape) % 5 - 2
    return (x * 0.3).astype(np.float32)


@pytest.mark.parametrize('kwargs', [
    {},
    {'normalize': False},
    {'reduce': 'no'},
    {'class_weight': np.array([1, 2, 0.5, 1], np.float32)},
], ids=['mean', 'no_normalize', 'no_reduce', 'class_weight'])
def test_softmax_cross_entropy(check_all_opsets, kwargs):
    model = chainer.Sequential(
        lambda x, t: F.softmax_cross_entropy(x, t, **kwargs))
    t = np.array([3, -1, 0, 2, 1], np.int32)
    check_all_opsets(model, (_x(5, 4), t), 'SoftmaxCrossEntropy')


def test_softmax_cross_entropy_spatial(check_all_opsets):
    model = chainer.Sequential(F.softmax_cross_entropy)
    t = np.array([[[0, 2], [1, -1]]], np.int32)
    check_all_opsets(model, (_x(1, 3, 2, 2), t), 'SoftmaxCrossEntropy')
