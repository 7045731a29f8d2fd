import chainer
import chainer.functions as F
import chainer.links as L
import numpy as np
import pytest


def _x(*shape):
    x = np.arange(np.prod(shape)).reshape(shape) % 11 - 5
    return (x * 0.3).astype(np.float32)


@pytest.mark.parametrize('train', [False, True], ids=['test', 'train'])
def test_batch_normalization_link(check_all_opsets, train):
    bn = L.BatchNormalization(3)
    bn.avg_mean[:] = [0.5, -0.2, 0.1]
    bn.avg_var[:] = [2.0, 0.5, 1.5]
    bn.gamma.array[:] = [1.5, 0.5, 1.0]
    name = 'BatchNormalization' if train else 'FixedBatchNormalization'
    check_all_opsets(bn, _x(4, 3, 2, 2), name, train=train)


@pytest.mark.parametrize('train', [False, True], ids=['test', 'train'])
def test_batch_normalization_link_names(check, train):
    model = chainer.Sequential(L.BatchNormalization(3))
    onnx_model = check(model, _x(2, 3), 13, train=train)
    names = {i.name for i in onnx_model.graph.initializer}
    assert names == {'param_0_gamma', 'param_0_beta', 'param_0_avg_mean',
                     'param_0_avg_var'}


def test_batch_normalization_other_axes(check_all_opsets):
    gamma = np.full((3, 2), 1.5, np.float32)
    beta = np.full((3, 2), 0.5, np.float32)
    model = chainer.Sequential(
        lambda x: F.batch_normalization(x, gamma, beta, axis=0))
    check_all_opsets(model, _x(4, 3, 2), 'BatchNormalization', train=True)


def test_group_normalization(check_all_opsets):
    model = L.GroupNormalization(2, 4)
    model.gamma.array[:] = [1, 2, 3, 4]
    check_all_opsets(model, _x(2, 4, 3, 3), 'GroupNormalization')


def test_layer_normalization(check_all_opsets):
    model = L.LayerNormalization(5)
    model.beta.array[:] = 0.25
    check_all_opsets(model, _x(3, 5), 'LayerNormalization')


@pytest.mark.parametrize('n', [3, 4, 5])
def test_local_response_normalization(check_all_opsets, n):
    # An even n: Chainer's window is n // 2 channels each side.
    model = chainer.Sequential(
        lambda x: F.local_response_normalization(x, n=n, k=1, alpha=0.1))
    check_all_opsets(model, _x(2, 6, 3, 3), 'LocalResponseNormalization')


@pytest.mark.parametrize('axis', [1, (1, 2)], ids=['axis1', 'axes12'])
def test_normalize(check_all_opsets, axis):
    model = chainer.Sequential(lambda x: F.normalize(x, axis=axis))
    check_all_opsets(model, _x(2, 5, 3), 'NormalizeL2')
