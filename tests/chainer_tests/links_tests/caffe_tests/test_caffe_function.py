import os
import subprocess
import sys

import numpy
import pytest

import chainer
from chainer import links
from chainer.links.caffe.protobuf3 import caffe_pb2


def _blob(layer, array):
    blob = layer.blobs.add()
    blob.shape.dim.extend(array.shape)
    blob.data.extend(array.ravel())


def _layer(net, layer_type, name, bottom, top):
    layer = net.layer.add()
    layer.type = layer_type
    layer.name = name
    layer.bottom.extend(bottom)
    layer.top.extend(top)
    return layer


def _write(tmp_path, net):
    path = os.path.join(str(tmp_path), 'model.caffemodel')
    with open(path, 'wb') as f:
        f.write(net.SerializeToString())
    return path


def _conv_reference(x, W, b, stride, pad):
    n, c, h, w = x.shape
    out_c, _, kh, kw = W.shape
    xp = numpy.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (w + 2 * pad - kw) // stride + 1
    y = numpy.empty((n, out_c, oh, ow), x.dtype)
    for i in range(oh):
        for j in range(ow):
            patch = xp[:, :, i * stride:i * stride + kh,
                       j * stride:j * stride + kw]
            y[:, :, i, j] = numpy.tensordot(
                patch, W, axes=([1, 2, 3], [1, 2, 3]))
    return y + b[None, :, None, None]


def _max_pool_reference(x, k):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // k, k, w // k, k).max(axis=(3, 5))


@pytest.fixture
def small_net():
    rng = numpy.random.RandomState(0)
    W1 = rng.uniform(-1, 1, (4, 3, 3, 3)).astype(numpy.float32)
    b1 = rng.uniform(-1, 1, (4,)).astype(numpy.float32)
    W2 = rng.uniform(-1, 1, (5, 4 * 3 * 3)).astype(numpy.float32)
    b2 = rng.uniform(-1, 1, (5,)).astype(numpy.float32)

    net = caffe_pb2.NetParameter()
    net.name = 'small'
    data = _layer(net, 'Data', 'data', [], ['data'])
    data.data_param.batch_size = 2
    conv = _layer(net, 'Convolution', 'conv1', ['data'], ['conv1'])
    conv.convolution_param.num_output = 4
    conv.convolution_param.kernel_size.append(3)
    conv.convolution_param.pad.append(1)
    _blob(conv, W1)
    _blob(conv, b1)
    _layer(net, 'ReLU', 'relu1', ['conv1'], ['conv1'])
    pool = _layer(net, 'Pooling', 'pool1', ['conv1'], ['pool1'])
    pool.pooling_param.pool = caffe_pb2.PoolingParameter.MAX
    pool.pooling_param.kernel_size = 2
    pool.pooling_param.stride = 2
    ip = _layer(net, 'InnerProduct', 'fc2', ['pool1'], ['fc2'])
    ip.inner_product_param.num_output = 5
    _blob(ip, W2)
    _blob(ip, b2)
    return net, (W1, b1, W2, b2)


def _small_reference(x, params):
    W1, b1, W2, b2 = params
    h = numpy.maximum(_conv_reference(x, W1, b1, 1, 1), 0)
    h = _max_pool_reference(h, 2)
    return h.reshape(len(h), -1).dot(W2.T) + b2


def test_forward_matches_numpy_reference(tmp_path, small_net):
    net, params = small_net
    func = links.caffe.CaffeFunction(_write(tmp_path, net))
    assert isinstance(func.conv1, links.Convolution2D)
    assert isinstance(func.fc2, links.Linear)
    numpy.testing.assert_array_equal(func.conv1.W.array, params[0])
    assert [name for name, _, _ in func.layers] == [
        'conv1', 'relu1', 'pool1', 'fc2']

    x = numpy.random.RandomState(1).uniform(
        -1, 1, (2, 3, 6, 6)).astype(numpy.float32)
    y, = func(inputs={'data': x}, outputs=['fc2'])
    assert y.shape == (2, 5)
    numpy.testing.assert_allclose(
        y.array, _small_reference(x, params), rtol=1e-5, atol=1e-5)
    # The intermediate blobs are kept, and the graph allows backprop.
    assert func.variables['pool1'].shape == (2, 4, 3, 3)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert func.conv1.W.grad is not None


def test_disable_and_missing_bottoms(tmp_path, small_net):
    net, params = small_net
    func = links.caffe.CaffeFunction(_write(tmp_path, net))
    x = numpy.zeros((1, 3, 6, 6), numpy.float32)
    conv, = func(inputs={'data': x}, outputs=['conv1'], disable=['relu1'])
    numpy.testing.assert_allclose(
        conv.array, _conv_reference(x, params[0], params[1], 1, 1),
        atol=1e-6)
    # Layers whose bottoms are neither given nor computed are skipped.
    func(inputs={'other': x}, outputs=[])
    assert set(func.variables) == {'other'}


def test_train_argument_is_rejected(tmp_path, small_net):
    func = links.caffe.CaffeFunction(_write(tmp_path, small_net[0]))
    with pytest.raises(ValueError, match='train argument'):
        func(inputs={}, outputs=[], train=True)


def test_v1_format(tmp_path):
    W = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    net = caffe_pb2.NetParameter()
    layer = net.layers.add()
    layer.name = 'fc'
    layer.type = caffe_pb2.V1LayerParameter.INNER_PRODUCT
    layer.bottom.append('x')
    layer.top.append('y')
    layer.inner_product_param.bias_term = False
    blob = layer.blobs.add()
    blob.num, blob.channels, blob.height, blob.width = 1, 1, 2, 3
    blob.data.extend(W.ravel())
    relu = net.layers.add()
    relu.name = 'relu'
    relu.type = caffe_pb2.V1LayerParameter.RELU
    relu.bottom.append('y')
    relu.top.append('z')

    func = links.caffe.CaffeFunction(_write(tmp_path, net))
    x = numpy.array([[1, -2, 3]], numpy.float32)
    z, = func(inputs={'x': x}, outputs=['z'])
    numpy.testing.assert_allclose(z.array, numpy.maximum(x.dot(W.T), 0))


def test_grouped_convolution_is_block_diagonal(tmp_path):
    W = numpy.arange(2 * 1 * 1 * 1 * 2, dtype=numpy.float32).reshape(
        4, 1, 1, 1) + 1
    net = caffe_pb2.NetParameter()
    conv = _layer(net, 'Convolution', 'conv', ['x'], ['y'])
    conv.convolution_param.kernel_size.append(1)
    conv.convolution_param.group = 2
    conv.convolution_param.bias_term = False
    _blob(conv, W)
    func = links.caffe.CaffeFunction(_write(tmp_path, net))
    expected = numpy.zeros((4, 2, 1, 1), numpy.float32)
    expected[:2, 0] = W[:2, 0]
    expected[2:, 1] = W[2:, 0]
    numpy.testing.assert_array_equal(func.conv.W.array, expected)


def test_batch_norm_and_scale(tmp_path):
    mean = numpy.array([1, 2], numpy.float32)
    var = numpy.array([4, 9], numpy.float32)
    gamma = numpy.array([2, 3], numpy.float32)
    beta = numpy.array([-1, 1], numpy.float32)
    net = caffe_pb2.NetParameter()
    bn = _layer(net, 'BatchNorm', 'bn', ['x'], ['h'])
    bn.batch_norm_param.use_global_stats = True
    bn.batch_norm_param.eps = 0
    # Caffe stores running sums and their scale factor.
    _blob(bn, mean * 2)
    _blob(bn, var * 2)
    _blob(bn, numpy.array([2], numpy.float32))
    sc = _layer(net, 'Scale', 'scale', ['h'], ['y'])
    sc.scale_param.bias_term = True
    _blob(sc, gamma)
    _blob(sc, beta)

    func = links.caffe.CaffeFunction(_write(tmp_path, net))
    x = numpy.array([[3, 8], [1, -1]], numpy.float32)
    y, = func(inputs={'x': x}, outputs=['y'])
    expected = (x - mean) / numpy.sqrt(var) * gamma + beta
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-5)


def test_unsupported_layer_warns(tmp_path):
    net = caffe_pb2.NetParameter()
    _layer(net, 'TanH', 'tanh', ['x'], ['y'])
    with pytest.warns(UserWarning, match='does not support TanH layer'):
        func = links.caffe.CaffeFunction(_write(tmp_path, net))
    assert func.layers == []


def test_wire_format_of_caffe_proto():
    # Field numbers and packing of caffe.proto, as Caffe writes them:
    # relu_param is field 123 of LayerParameter, data is packed.
    blob = caffe_pb2.BlobProto()
    blob.shape.dim.extend([2, 3])
    blob.data.append(1.0)
    assert blob.SerializeToString() == (
        b'\x2a\x04\x00\x00\x80\x3f' b'\x3a\x04\x0a\x02\x02\x03')
    layer = caffe_pb2.LayerParameter(name='a', type='ReLU')
    layer.relu_param.negative_slope = 0.5
    assert layer.SerializeToString() == (
        b'\x0a\x01a\x12\x04ReLU\xda\x07\x05\x0d\x00\x00\x00\x3f')
    assert caffe_pb2.TEST == 1
    assert caffe_pb2.V1LayerParameter.CONVOLUTION == 4
    assert caffe_pb2.LRNParameter().beta == pytest.approx(0.75)
    assert caffe_pb2.ConvolutionParameter().bias_term is True


def test_import_without_protobuf_names_the_package():
    code = (
        'import sys\n'
        'sys.modules["google.protobuf"] = None\n'
        'try:\n'
        '    import chainer.links.caffe\n'
        'except ImportError as e:\n'
        '    print(e)\n')
    out = subprocess.run(
        [sys.executable, '-c', code], capture_output=True, text=True,
        check=True).stdout
    assert 'protobuf' in out
    assert 'pip install protobuf' in out


def test_chainer_imports_without_caffe():
    assert 'chainer' in sys.modules
    assert chainer.links.Linear is links.Linear
