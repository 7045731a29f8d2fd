import numpy
import pytest

import chainer
from chainer.dataset import download
from chainer import functions as F
from chainer.links.model.vision import resnet
from chainer import testing


LAYERS = ['conv1', 'pool1', 'res2', 'res3', 'res4', 'res5', 'pool5', 'fc6',
          'prob']

# Output shapes for one 40x40 image.
SHAPES_40 = {
    'conv1': (1, 64, 20, 20), 'pool1': (1, 64, 10, 10),
    'res2': (1, 256, 10, 10), 'res3': (1, 512, 5, 5),
    'res4': (1, 1024, 3, 3), 'res5': (1, 2048, 2, 2),
    'pool5': (1, 2048), 'fc6': (1, 1000), 'prob': (1, 1000),
}


@pytest.fixture(scope='module')
def model():
    numpy.random.seed(0)
    return resnet.ResNet50Layers(pretrained_model=None)


def _input(size, n=1):
    return numpy.random.RandomState(0).uniform(
        -50, 50, (n, 3, size, size)).astype(numpy.float32)


def _block_names(block):
    return [name for name, _ in block.namedlinks(skipself=True)
            if name.count('/') == 1]


def test_available_layers(model):
    assert model.available_layers == LAYERS


def test_structure(model):
    assert [len(_block_names(b)) for b in
            (model.res2, model.res3, model.res4, model.res5)] == [3, 4, 6, 3]
    assert model.res4._forward == ['a', 'b1', 'b2', 'b3', 'b4', 'b5']
    assert model.conv1.W.shape == (64, 3, 7, 7)
    assert model.conv1.b is not None
    assert model.res3.a.conv4.W.shape == (512, 256, 1, 1)
    assert model.res3.a.conv1.b is None
    assert model.res5.b2.conv2.W.shape == (512, 512, 3, 3)
    assert model.fc6.W.shape == (1000, 2048)
    assert model.count_params() == 25557096


def test_batch_normalization_statistics_are_saved(model):
    bn = model.res2.b1.bn3
    assert bn.avg_mean.shape == bn.avg_var.shape == (256,)
    numpy.testing.assert_array_equal(bn.avg_var, 1)


def test_forward_shapes(model):
    with chainer.using_config('train', False):
        out = model(_input(40), layers=LAYERS)
    assert {k: v.shape for k, v in out.items()} == SHAPES_40
    numpy.testing.assert_allclose(out['prob'].array.sum(), 1, rtol=1e-5)
    numpy.testing.assert_allclose(
        out['pool5'].array, out['res5'].array.mean(axis=(2, 3)), rtol=1e-5)


def test_extract_default_layer(model):
    images = [numpy.zeros((30, 50, 3), numpy.uint8)] * 2
    with chainer.using_config('train', False):
        out = model.extract(images, size=(40, 40))
    assert list(out) == ['pool5']
    assert out['pool5'].shape == (2, 2048)


def test_retired_argument(model):
    with pytest.raises(ValueError, match='test argument'):
        model(_input(40), layers=['conv1'], test=True)


def test_invalid_n_layers():
    with pytest.raises(ValueError, match='50, 101, or 152, but 34'):
        resnet.ResNetLayers(None, 34)


@pytest.mark.parametrize('cls,args,message', [
    (resnet.ResNet50Layers, (), 'ResNet-50-model.npz'),
    (resnet.ResNet50Layers, ('my.caffemodel',), 'my.caffemodel'),
    (resnet.ResNet101Layers, (), 'ResNet-101-model.npz'),
    (resnet.ResNet152Layers, (), 'ResNet-152-model.caffemodel'),
])
def test_missing_converted_model(tmp_path, cls, args, message):
    root = download.get_dataset_root()
    download.set_dataset_root(str(tmp_path))
    try:
        with pytest.raises(FileNotFoundError, match=message):
            cls(*args)
    finally:
        download.set_dataset_root(root)


def test_missing_model_file(tmp_path):
    with pytest.raises(FileNotFoundError, match='none.npz'):
        resnet.ResNet50Layers(str(tmp_path / 'none.npz'))


class TestBottlenecks:

    def setup_method(self):
        self.x = numpy.random.RandomState(0).uniform(
            -1, 1, (2, 4, 6, 6)).astype(numpy.float32)

    @pytest.mark.parametrize('downsample_fb,strides', [
        (False, ((2, 2), (1, 1))), (True, ((1, 1), (2, 2)))])
    def test_bottleneck_a_strides(self, downsample_fb, strides):
        block = resnet.BottleneckA(4, 3, 8, stride=2,
                                   downsample_fb=downsample_fb)
        conv_strides = (block.conv1.stride, block.conv2.stride)
        assert tuple(tuple(s) for s in conv_strides) == strides
        assert tuple(block.conv4.stride) == (2, 2)
        assert block(self.x).shape == (2, 8, 3, 3)

    def test_bottleneck_a_forward(self):
        block = resnet.BottleneckA(4, 3, 8, stride=1)
        with chainer.using_config('train', False):
            y = block(self.x)
            h = F.relu(block.bn1(block.conv1(self.x)))
            h = F.relu(block.bn2(block.conv2(h)))
            h = block.bn3(block.conv3(h))
            expected = F.relu(h + block.bn4(block.conv4(self.x)))
        testing.assert_allclose(y.array, expected.array)

    def test_bottleneck_b_forward(self):
        block = resnet.BottleneckB(4, 3)
        assert block.conv3.W.shape == (4, 3, 1, 1)
        with chainer.using_config('train', False):
            y = block(self.x)
            h = F.relu(block.bn1(block.conv1(self.x)))
            h = F.relu(block.bn2(block.conv2(h)))
            expected = F.relu(block.bn3(block.conv3(h)) + self.x)
        testing.assert_allclose(y.array, expected.array)

    def test_building_block(self):
        block = resnet.BuildingBlock(3, 4, 2, 8, 2, downsample_fb=True)
        assert block._forward == ['a', 'b1', 'b2']
        assert isinstance(block.a, resnet.BottleneckA)
        assert tuple(block.a.conv2.stride) == (2, 2)
        with chainer.using_config('train', False):
            expected = block.b2(block.b1(block.a(self.x)))
            testing.assert_allclose(block(self.x).array, expected.array)

    def test_building_block_initial_weight(self):
        block = resnet.BuildingBlock(2, 4, 2, 8, 1, initialW=0.5)
        for name, param in block.namedparams():
            if name.endswith('/W'):
                numpy.testing.assert_array_equal(param.array, 0.5)

    def test_deprecated_n_layer(self):
        with testing.assert_warns(DeprecationWarning):
            block = resnet.BuildingBlock(n_layer=2, in_channels=4,
                                         mid_channels=2, out_channels=8,
                                         stride=1)
        assert block._forward == ['a', 'b1']


@pytest.mark.slow
@pytest.mark.parametrize('cls,blocks,n_params', [
    (resnet.ResNet101Layers, [3, 4, 23, 3], 44549224),
    (resnet.ResNet152Layers, [3, 8, 36, 3], 60192872),
])
def test_deeper_models(cls, blocks, n_params):
    model = cls(pretrained_model=None)
    assert [len(_block_names(b)) for b in
            (model.res2, model.res3, model.res4, model.res5)] == blocks
    assert model.count_params() == n_params
    with chainer.using_config('train', False):
        out = model(_input(40), layers=LAYERS)
    assert {k: v.shape for k, v in out.items()} == SHAPES_40


@pytest.mark.slow
def test_forward_full_size(model):
    with chainer.using_config('train', False):
        out = model(_input(224), layers=['res5', 'prob'])
    assert out['res5'].shape == (1, 2048, 7, 7)
    assert out['prob'].shape == (1, 1000)
