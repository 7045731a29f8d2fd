import chainer
import chainer.functions as F
import chainer.links as L
import numpy as np
import pytest

import onnx_chainer


def _images(*shape):
    rng = np.random.RandomState(0)
    return rng.uniform(-1, 1, shape).astype(np.float32)


class MLP(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, 32)
            self.l2 = L.Linear(None, 32)
            self.l3 = L.Linear(None, 10)

    def forward(self, x):
        h = F.relu(self.l1(x))
        h = F.relu(self.l2(h))
        return self.l3(h)


class LeNet(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(1, 6, 5, pad=2)
            self.conv2 = L.Convolution2D(6, 16, 5)
            self.fc1 = L.Linear(None, 120)
            self.fc2 = L.Linear(120, 84)
            self.fc3 = L.Linear(84, 10)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.conv1(x)), 2)
        h = F.max_pooling_2d(F.relu(self.conv2(h)), 2)
        h = F.relu(self.fc1(h))
        h = F.relu(self.fc2(h))
        return F.softmax(self.fc3(h))


class ConvBN(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(3, 8, 3, pad=1, nobias=True)
            self.bn = L.BatchNormalization(8)
            self.fc = L.Linear(None, 5)

    def forward(self, x):
        h = F.relu(self.bn(self.conv(x)))
        h = F.average_pooling_2d(h, 2)
        return self.fc(h)


class Encoder(chainer.Chain):
    # The encoder of the seq2seq example: EmbedID then NStepLSTM over
    # sequences of different lengths.

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(20, 6)
            self.lstm = L.NStepLSTM(2, 6, 8, 0.1)

    def forward(self, *sentences):
        exs = [self.embed(s) for s in sentences]
        hy, cy, ys = self.lstm(None, None, exs)
        return (hy, cy) + tuple(ys)


def test_mlp(check_all_opsets):
    np.random.seed(0)
    check_all_opsets(MLP(), _images(4, 784), 7)


def test_lenet(check_all_opsets):
    np.random.seed(0)
    check_all_opsets(LeNet(), _images(2, 1, 28, 28), 7)


def test_batch_normalization_model_in_test_mode(check_all_opsets):
    np.random.seed(0)
    model = ConvBN()
    x = _images(4, 3, 6, 6)
    with chainer.using_config('train', True):
        for _ in range(3):
            model(x)
    check_all_opsets(model, x, 7)


def test_seq2seq_encoder(check_all_opsets):
    np.random.seed(0)
    sentences = [np.array([3, 1, 4, 1, 5], np.int32),
                 np.array([9, 2, 6], np.int32),
                 np.array([5, 3, 5, 8], np.int32)]
    check_all_opsets(Encoder(), sentences, 7)


def _imagenet_model(link_class):
    np.random.seed(0)
    return chainer.Sequential(link_class(pretrained_model=None))


@pytest.mark.parametrize('link_class', [L.ResNet50Layers, L.GoogLeNet])
def test_imagenet_models_default_opset(check, link_class):
    check(_imagenet_model(link_class), _images(1, 3, 224, 224),
          onnx_chainer.default_opset_version())


@pytest.mark.slow
def test_vgg16_default_opset(check):
    # Initializing VGG16's 100M-element fully connected layer is slow.
    check(_imagenet_model(L.VGG16Layers), _images(1, 3, 224, 224),
          onnx_chainer.default_opset_version())


@pytest.mark.slow
@pytest.mark.parametrize('link_class', [
    L.VGG16Layers, L.ResNet50Layers, L.GoogLeNet])
def test_imagenet_models_every_opset(check_all_opsets, link_class):
    check_all_opsets(_imagenet_model(link_class), _images(1, 3, 224, 224), 7)
