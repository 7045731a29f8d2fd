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


_MORE_CASES = [
    ('Expm1', F.expm1, _x),
    ('Log1p', F.log1p, _positive),
    ('Log2', F.log2, _positive),
    ('Log10', F.log10, _positive),
    ('Arctanh', lambda x: F.arctanh(x * 0.1), _x),
    ('Erf', F.erf, _x),
    ('Erfc', F.erfc, _x),
    ('Fmod', lambda x: F.fmod(x, x * 0 + 0.75), _x),
    ('Cumsum', lambda x: F.cumsum(x, axis=1), _x),
    ('BatchMatMul', lambda x: F.batch_matmul(
        F.reshape(x, (3, 2, 2)), F.reshape(x, (3, 2, 2)), transb=True), _x),
    ('SquaredError', lambda x: F.squared_error(x, x * x), _x),
    ('AbsoluteError', lambda x: F.absolute_error(x, x * x), _x),
    ('MeanSquaredError', lambda x: F.mean_squared_error(x, x * x), _x),
    ('MeanAbsoluteError', lambda x: F.mean_absolute_error(x, x * x), _x),
    ('Broadcast', lambda x: F.broadcast(x, x[:1])[1], _x),
    ('SumTo', lambda x: F.sum_to(x, (1, 4)), _x),
]


@pytest.mark.parametrize('name,func,make_x', _MORE_CASES,
                         ids=['{}-{}'.format(i, c[0])
                              for i, c in enumerate(_MORE_CASES)])
def test_more_math(check_all_opsets, name, func, make_x):
    check_all_opsets(chainer.Sequential(func), make_x(3, 4), name)
