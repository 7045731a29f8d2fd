import chainer
import chainer.functions as F
import numpy as np
import pytest


def _x(*shape):
    x = np.arange(np.prod(shape)).reshape(shape) - np.prod(shape) // 2
    return (x * 0.25).astype(np.float32)


_CASES = [
    ('ClippedReLU', lambda x: F.clipped_relu(x, 1.5)),
    ('ELU', lambda x: F.elu(x, alpha=0.5)),
    ('HardSigmoid', F.hard_sigmoid),
    ('LeakyReLU', lambda x: F.leaky_relu(x, slope=0.1)),
    ('LogSoftmax', F.log_softmax),
    ('LogSoftmax', lambda x: F.log_softmax(x, axis=0)),
    ('LogSoftmax', lambda x: F.log_softmax(x, axis=2)),
    ('ReLU', F.relu),
    ('Sigmoid', F.sigmoid),
    ('Softmax', F.softmax),
    ('Softmax', lambda x: F.softmax(x, axis=0)),
    ('Softmax', lambda x: F.softmax(x, axis=2)),
    ('Softplus', F.softplus),
    ('Softplus', lambda x: F.softplus(x, beta=2.0)),
    ('Tanh', F.tanh),
    ('MulConstant', F.selu),
    ('CReLU', F.crelu),
]


@pytest.mark.parametrize('name,func', _CASES,
                         ids=['{}-{}'.format(i, c[0])
                              for i, c in enumerate(_CASES)])
def test_activation(check_all_opsets, name, func):
    check_all_opsets(chainer.Sequential(func), _x(2, 5, 3), name)


def test_prelu(check_all_opsets):
    model = chainer.links.PReLU(shape=(3,), init=0.25)
    check_all_opsets(model, _x(2, 3, 4), 'PReLUFunction')


def test_swish(check_all_opsets):
    model = chainer.links.Swish((3,), beta_init=0.5)
    check_all_opsets(model, _x(2, 3, 4), 'Swish')
