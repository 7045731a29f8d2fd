import numpy
import pytest

import chainer
from chainer import backend
from chainer.dataset import convert
from chainer.testing import attr


def test_concat_arrays():
    batch = [numpy.full((2, 3), i, numpy.float32) for i in range(4)]
    result = convert.concat_examples(batch)
    assert result.shape == (4, 2, 3)
    assert result.dtype == numpy.float32
    numpy.testing.assert_array_equal(result, numpy.stack(batch))


def test_concat_tuples():
    batch = [(numpy.array([i, i + 1]), i * 2) for i in range(3)]
    x, t = convert.concat_examples(batch)
    numpy.testing.assert_array_equal(x, [[0, 1], [1, 2], [2, 3]])
    numpy.testing.assert_array_equal(t, [0, 2, 4])
    assert isinstance(t, numpy.ndarray)


def test_concat_dicts():
    batch = [{'x': numpy.float32(i), 'y': numpy.array([i] * 2)}
             for i in range(3)]
    result = convert.concat_examples(batch)
    assert set(result) == {'x', 'y'}
    assert result['x'].dtype == numpy.float32
    numpy.testing.assert_array_equal(result['x'], [0, 1, 2])
    numpy.testing.assert_array_equal(result['y'], [[0, 0], [1, 1], [2, 2]])


def test_concat_builtin_values():
    # Lists and Python numbers are turned into arrays by NumPy.
    numpy.testing.assert_array_equal(
        convert.concat_examples([[1, 2], [3, 4]]), [[1, 2], [3, 4]])
    x, t = convert.concat_examples([(1, 2.0), (3, 4.0)])
    assert x.dtype.kind == 'i' and t.dtype == numpy.float64


def test_concat_empty_batch():
    with pytest.raises(ValueError, match='batch is empty'):
        convert.concat_examples([])


def test_concat_shape_mismatch_without_padding():
    with pytest.raises(ValueError):
        convert.concat_examples([numpy.zeros(2), numpy.zeros(3)])


def test_concat_padding_scalar():
    batch = [(numpy.array([1, 2]), 0), (numpy.array([3]), 1),
             (numpy.array([], numpy.int64), 2)]
    x, t = convert.concat_examples(batch, padding=100)
    numpy.testing.assert_array_equal(x, [[1, 2], [3, 100], [100, 100]])
    numpy.testing.assert_array_equal(t, [0, 1, 2])


def test_concat_padding_tuple():
    batch = [(numpy.array([1, 2]), numpy.array([0])),
             (numpy.array([3]), numpy.array([], numpy.int64))]
    x, t = convert.concat_examples(batch, padding=(-1, -2))
    numpy.testing.assert_array_equal(x, [[1, 2], [3, -1]])
    numpy.testing.assert_array_equal(t, [[0], [-2]])


def test_concat_padding_dict_2d():
    batch = [{'a': numpy.zeros((2, 1), numpy.float32)},
             {'a': numpy.ones((1, 3), numpy.float32)}]
    result = convert.concat_examples(batch, padding={'a': -1})
    expected = numpy.array([[[0, -1, -1], [0, -1, -1]],
                            [[1, 1, 1], [-1, -1, -1]]], numpy.float32)
    assert result['a'].dtype == numpy.float32
    numpy.testing.assert_array_equal(result['a'], expected)


@pytest.mark.parametrize('device', [-1, '@numpy', backend.CpuDevice()])
def test_concat_to_cpu(device):
    x, = convert.concat_examples([(numpy.ones(2),)], device)
    assert isinstance(x, numpy.ndarray)


def test_to_device_none_keeps_array():
    x = numpy.arange(3)
    assert convert.to_device(None, x) is x
    assert convert.to_device(-1, x) is x


def test_converter_decorator_converts_device():
    received = []

    @chainer.dataset.converter()
    def conv(batch, device):
        received.append(device)
        return batch

    assert isinstance(conv, chainer.dataset.Converter)
    conv([1], -1)
    conv([1], device='@numpy')
    conv([1], None)
    assert received == [backend.CpuDevice(), backend.CpuDevice(), None]


def test_converter_decorator_rejects_non_callable():
    with pytest.raises(TypeError):
        chainer.dataset.converter()(1)


def test_converter_base_is_abstract():
    with pytest.raises(NotImplementedError):
        chainer.dataset.Converter()([1], None)


def test_call_converter_old_style_gets_integer():
    received = []

    def old_style(batch, device):
        received.append(device)
        return batch

    convert._call_converter(old_style, [1], backend.CpuDevice())
    convert._call_converter(old_style, [1], None)
    assert received == [-1, None]
    assert convert._call_converter(
        convert.concat_examples, [numpy.ones(2)], None).shape == (1, 2)


@pytest.mark.parametrize('device', [None, -1])
def test_concat_with_async_transfer_on_cpu(device):
    converter = convert.ConcatWithAsyncTransfer()
    tuple_batch = [(numpy.array([i, i]), i) for i in range(3)]
    x, t = converter(tuple_batch, device)
    numpy.testing.assert_array_equal(x, [[0, 0], [1, 1], [2, 2]])
    numpy.testing.assert_array_equal(t, [0, 1, 2])
    result = converter([{'a': numpy.zeros(1)}, {'a': numpy.ones(2)}],
                       device, padding=5)
    numpy.testing.assert_array_equal(result['a'], [[0, 5], [1, 1]])
    with pytest.raises(ValueError, match='device is different'):
        converter(tuple_batch, 0 if device is None else None)
    with pytest.raises(ValueError, match='batch is empty'):
        converter([], device)


@attr.gpu
def test_concat_to_gpu():
    import cupy
    x, t = convert.concat_examples(
        [(numpy.ones(2, numpy.float32), 1)] * 3, 0)
    assert isinstance(x, cupy.ndarray) and isinstance(t, cupy.ndarray)
    assert int(x.device.id) == 0
    padded = convert.concat_examples([cupy.ones(1), cupy.ones(2)], padding=0)
    assert isinstance(padded, cupy.ndarray)
    cupy.testing.assert_array_equal(padded, [[1, 0], [1, 1]])


@attr.gpu
def test_concat_with_async_transfer_on_gpu():
    import cupy
    converter = convert.ConcatWithAsyncTransfer()
    for i in range(3):
        batch = [(numpy.full(4, i + j, numpy.float32), j) for j in range(2)]
        x, t = converter(batch, 0)
        assert isinstance(x, cupy.ndarray)
        cupy.testing.assert_array_equal(
            x, numpy.stack([b[0] for b in batch]))
        cupy.testing.assert_array_equal(t, [0, 1])
