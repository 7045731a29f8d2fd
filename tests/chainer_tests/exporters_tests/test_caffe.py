import os

import numpy
import pytest
from google.protobuf import text_format

import chainer
import chainer.functions as F
import chainer.links as L
from chainer.exporters import caffe
from chainer.links.caffe.protobuf3 import caffe_pb2


class LeNet(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(1, 4, 3, pad=1)
            self.conv2 = L.Convolution2D(4, 6, (3, 2), stride=(1, 2))
            self.fc3 = L.Linear(None, 10)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.conv1(x)), 2)
        h = F.average_pooling_2d(F.relu(self.conv2(h)), 2)
        return F.softmax(self.fc3(h))


class BNNet(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(3, 4, 1, nobias=True)
            self.bn = L.BatchNormalization(4)
            self.deconv = L.Deconvolution2D(8, 2, 2, stride=2)

    def forward(self, x):
        h = self.bn(self.conv(x))
        h = F.concat([F.leaky_relu(h, 0.1), F.sigmoid(h)], axis=1)
        h = h + F.local_response_normalization(h, n=3)
        return self.deconv(h)


def _export(model, x, directory, export_params=True):
    caffe.export(model, [chainer.Variable(x)], directory, export_params,
                 'test')
    return (os.path.join(directory, 'chainer_model.prototxt'),
            os.path.join(directory, 'chainer_model.caffemodel'))


def _round_trip(model, x, tmp_path):
    prototxt, caffemodel = _export(model, x, str(tmp_path))
    loaded = L.caffe.CaffeFunction(caffemodel)
    with chainer.using_config('train', False):
        expected = model(x).array
        y, = loaded(inputs={'data': x}, outputs=[loaded.layers[-1][0]])
    return expected, y.array, prototxt, loaded


def test_lenet_round_trip(tmp_path):
    model = LeNet()
    x = numpy.random.RandomState(0).uniform(
        -1, 1, (2, 1, 8, 8)).astype(numpy.float32)
    expected, actual, prototxt, loaded = _round_trip(model, x, tmp_path)
    assert actual.shape == (2, 10)
    numpy.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_array_equal(
        loaded['Convolution2DFunction-0-1'].W.array,
        model.conv1.W.array)

    with open(prototxt) as f:
        definition = text_format.Parse(f.read(), caffe_pb2.NetParameter())
    assert definition.name == 'test'
    assert definition.layer[0].type == 'Input'
    assert list(definition.layer[0].input_param.shape[0].dim) == [2, 1, 8, 8]
    types = [layer.type for layer in definition.layer]
    assert types == ['Input', 'Convolution', 'ReLU', 'Pooling',
                     'Convolution', 'ReLU', 'Pooling', 'Reshape',
                     'InnerProduct', 'Softmax']
    assert all(len(layer.blobs) == 0 for layer in definition.layer)
    conv2 = definition.layer[4].convolution_param
    assert (conv2.kernel_h, conv2.kernel_w) == (3, 2)
    assert (conv2.stride_h, conv2.stride_w) == (1, 2)


def test_batch_norm_deconvolution_and_friends_round_trip(tmp_path):
    model = BNNet()
    rng = numpy.random.RandomState(1)
    model.bn.avg_mean[...] = rng.uniform(-1, 1, 4)
    model.bn.avg_var[...] = rng.uniform(0.5, 2, 4)
    model.bn.gamma.array[...] = rng.uniform(0.5, 2, 4)
    model.bn.beta.array[...] = rng.uniform(-1, 1, 4)
    x = rng.uniform(-1, 1, (1, 3, 4, 4)).astype(numpy.float32)
    expected, actual, _, loaded = _round_trip(model, x, tmp_path)
    assert actual.shape == (1, 2, 8, 8)
    numpy.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5)
    types = [type(child).__name__ for child in loaded.children()]
    assert sorted(types) == ['BatchNormalization', 'Convolution2D',
                             'Deconvolution2D', 'Scale']


def test_export_without_params(tmp_path):
    x = numpy.zeros((1, 1, 8, 8), numpy.float32)
    prototxt, caffemodel = _export(LeNet(), x, str(tmp_path), False)
    assert os.path.exists(prototxt)
    assert not os.path.exists(caffemodel)


def test_export_to_no_directory_writes_nothing(tmp_path):
    x = numpy.zeros((1, 1, 8, 8), numpy.float32)
    caffe.export(LeNet(), [chainer.Variable(x)])
    assert os.listdir(str(tmp_path)) == []


def test_unsupported_function():
    x = chainer.Variable(numpy.zeros((1, 3), numpy.float32))
    with pytest.raises(NotImplementedError, match='label=Tanh'):
        caffe.export(F.tanh, [x])


def test_only_one_input_is_supported():
    x = chainer.Variable(numpy.zeros((1, 3), numpy.float32))
    with pytest.raises(NotImplementedError):
        caffe.export(F.add, [x, x])
