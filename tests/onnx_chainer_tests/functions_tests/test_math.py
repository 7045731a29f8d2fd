import chainer
import chainer.functions as F
import numpy as np
import pytest


def _x(*shape):
    x = np.arange(np.prod(shape)).reshape(shape) - np.prod(shape) // 2
    return (x * 0.25).astype(np.float32)


def _positive(*shape):
    return (np.arange(np.prod(shape)).reshape(shape) * 0.25 + 0.5).astype(
        np.float32)


_CASES = [
    ('Absolute', F.absolute, _x),
    ('Add', lambda x: x + x, _x),
    ('MultiAdd', lambda x: F.add(x, x, x), _x),
    ('AddConstant', lambda x: x + 2.5, _x),
    ('Sub', lambda x: x - x * 2, _x),
    ('SubFromConstant', lambda x: 1.5 - x, _x),
    ('Mul', lambda x: x * x, _x),
    ('MulConstant', lambda x: x * 3, _x),
    ('Div', lambda x: x / (x * x + 1), _x),
    ('DivFromConstant', lambda x: 2 / x, _positive),
    ('Neg', lambda x: -x, _x),
    ('PowVarConst', lambda x: x ** 2, _x),
    ('PowConstVar', lambda x: 2 ** x, _x),
    ('PowVarVar', lambda x: x ** x, _positive),
    ('Exp', F.exp, _x),
    ('Log', F.log, _positive),
    ('Sqrt', F.sqrt, _positive),
    ('Square', F.square, _x),
    ('DivFromConstant', F.rsqrt, _positive),
    ('Sin', F.sin, _x),
    ('Cos', F.cos, _x),
    ('Tan', lambda x: F.tan(x * 0.3), _x),
    ('Arcsin', lambda x: F.arcsin(x * 0.1), _x),
    ('Arccos', lambda x: F.arccos(x * 0.1), _x),
    ('Arctan', F.arctan, _x),
    ('Sinh', F.sinh, _x),
    ('Cosh', F.cosh, _x),
    # F.sign is wrapped into one node while exporting: look it up late
    ('sign', lambda x: F.sign(x), _x),
    ('Clip', lambda x: F.clip(x, -0.5, 1.0), _x),
    ('BroadcastTo', lambda x: F.broadcast_to(x[:1], (3, 4)), _x),
    ('Identity', F.identity, _x),
    ('Maximum', lambda x: F.maximum(x, x * -1), _x),
    ('Minimum', lambda x: F.minimum(x, x * -1), _x),
    ('Sum', F.sum, _x),
    ('Sum', lambda x: F.sum(x, axis=1, keepdims=True), _x),
    ('Mean', lambda x: F.mean(x, axis=0), _x),
    ('Max', lambda x: F.max(x, axis=1), _x),
    ('Min', lambda x: F.min(x, axis=(0, 1), keepdims=True), _x),
    ('Prod', lambda x: F.prod(x, axis=1), _x),
    ('LogSumExp', lambda x: F.logsumexp(x, axis=1), _x),
    ('ArgMax', lambda x: F.argmax(x, axis=1), _x),
    ('ArgMin', F.argmin, _x),
    ('MatMul', lambda x: F.matmul(x, x, transb=True), _x),
    ('MatMul', lambda x: F.matmul(x, x, transa=True), _x),
    ('LinearInterpolate',
     lambda x: F.linear_interpolate(F.sigmoid(x), x, x * 2), _x),
    ('EinSum', lambda x: F.einsum('ij,kj->ik', x, x), _x),
]


@pytest.mark.parametrize('name,func,make_x', _CASES,
                         ids=['{}-{}'.format(i, c[0])
                              for i, c in enumerate(_CASES)])
def test_math(check_all_opsets, name, func, make_x):
    check_all_opsets(chainer.Sequential(func), make_x(3, 4), name)
