import os
import shutil

import numpy
import pytest

import chainer
from chainer import functions as F
import chainer.links
from chainer.links.model.vision import resnet
from chainer import serializers
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


# Caffe names of the bottlenecks of each stage in MSRA's models.
CAFFE_BOTTLENECKS = {
    50: (['2a', '2b', '2c'], ['3a', '3b', '3c', '3d'],
         ['4a', '4b', '4c', '4d', '4e', '4f'], ['5a', '5b', '5c']),
    101: (['2a', '2b', '2c'], ['3a', '3b1', '3b2', '3b3'],
          ['4a'] + ['4b{}'.format(i) for i in range(1, 23)],
          ['5a', '5b', '5c']),
    152: (['2a', '2b', '2c'], ['3a'] + ['3b{}'.format(i) for i in range(1, 8)],
          ['4a'] + ['4b{}'.format(i) for i in range(1, 36)],
          ['5a', '5b', '5c']),
}
CLASSES = {50: resnet.ResNet50Layers, 101: resnet.ResNet101Layers,
           152: resnet.ResNet152Layers}


def _resnet_caffemodel(caffe_model, n_layers, reduced):
    # The layers of MSRA's Caffe model (conv1 has a bias only in
    # ResNet-50), with random weights.
    net = caffe_model(reduced=reduced)
    net.convolution('conv1', 64, 3, 7, bias=n_layers == 50)
    net.batch_norm('bn_conv1', 64)
    net.scale('scale_conv1', 64)
    net.relu('conv1_relu')
    net.pooling('pool1', 3, 2)
    in_channels = 64
    for names, (mid, out) in zip(CAFFE_BOTTLENECKS[n_layers], (
            (64, 256), (128, 512), (256, 1024), (512, 2048))):
        for i, name in enumerate(names):
            branches = [('2a', mid, in_channels, 1), ('2b', mid, mid, 3),
                        ('2c', out, mid, 1)]
            if i == 0:
                branches.append(('1', out, in_channels, 1))
            for branch, n_out, n_in, ksize in branches:
                suffix = '{}_branch{}'.format(name, branch)
                net.convolution('res' + suffix, n_out, n_in, ksize,
                                bias=False)
                net.batch_norm('bn' + suffix, n_out)
                net.scale('scale' + suffix, n_out)
            in_channels = out
    net.inner_product('fc1000', 1000, 2048)
    return net


def _expected_values(n_layers, blobs):
    # The value of every parameter and statistic, by link path and name.
    def conv_bn(conv, bn, conv_name, bn_name, scale_name):
        # Caffe's statistics are the running sums over the factor (2).
        mean, var, factor = blobs[bn_name]
        values[conv + 'W'] = blobs[conv_name][0]
        values[bn + 'avg_mean'] = mean / factor
        values[bn + 'avg_var'] = var / factor
        values[bn + 'gamma'], values[bn + 'beta'] = blobs[scale_name]

    values = {}
    conv_bn('/conv1/', '/bn1/', 'conv1', 'bn_conv1', 'scale_conv1')
    values['/conv1/b'] = blobs['conv1'][1] if n_layers == 50 \
        else numpy.zeros(64, numpy.float32)
    for stage, names in enumerate(CAFFE_BOTTLENECKS[n_layers], 2):
        for i, name in enumerate(names):
            prefix = '/res{}/{}/'.format(stage, 'b{}'.format(i) if i else 'a')
            for j, branch in enumerate(['2a', '2b', '2c', '1'][:4 - bool(i)],
                                       1):
                suffix = '{}_branch{}'.format(name, branch)
                conv_bn('{}conv{}/'.format(prefix, j),
                        '{}bn{}/'.format(prefix, j),
                        'res' + suffix, 'bn' + suffix, 'scale' + suffix)
    values['/fc6/W'], values['/fc6/b'] = blobs['fc1000']
    return values


def _assert_values(model, expected):
    links = dict(model.namedlinks())
    actual = {}
    for path in expected:
        link_path, name = path.rsplit('/', 1)
        value = getattr(links[link_path], name)
        actual[path] = value.array if name in ('W', 'b', 'gamma', 'beta') \
            else value
    assert len(actual) == len(dict(model.namedparams())) + 2 * sum(
        1 for _, link in model.namedlinks()
        if isinstance(link, chainer.links.BatchNormalization))
    for path, value in actual.items():
        assert numpy.broadcast_shapes(expected[path].shape, value.shape) \
            == value.shape, path
        assert (value == expected[path]).all(), path


@pytest.fixture(scope='module')
def caffemodel_50(caffe_model, tmp_path_factory):
    net = _resnet_caffemodel(caffe_model, 50, reduced=False)
    path = net.save(tmp_path_factory.mktemp('resnet') / 'r50.caffemodel')
    return path, net.blobs


def test_pretrained_auto(caffemodel_50, models_root, capsys):
    # The first model converts the Caffe model of the dataset root, the
    # second reads the converted file.
    path, blobs = caffemodel_50
    expected = _expected_values(50, blobs)
    caffemodel = os.path.join(models_root, 'ResNet-50-model.caffemodel')
    shutil.copy(path, caffemodel)
    _assert_values(resnet.ResNet50Layers(), expected)
    assert 'Now loading caffemodel' in capsys.readouterr().err
    # The file holds what a model saves (the parameters, the statistics
    # and the counts N of the batch normalizations).
    saved = serializers.DictionarySerializer()
    saved.save(resnet.ResNet50Layers(None))
    with numpy.load(os.path.join(models_root, 'ResNet-50-model.npz')) as npz:
        assert sorted(npz.files) == sorted(saved.target)
        numpy.testing.assert_array_equal(npz['res2/a/bn1/N'], 0)

    os.remove(caffemodel)
    _assert_values(resnet.ResNet50Layers(), expected)
    assert capsys.readouterr().err == ''


@pytest.mark.parametrize('n_layers,cls,args', [
    (50, resnet.ResNetLayers, ()),
    (101, resnet.ResNetLayers, (101,)),
    (152, resnet.ResNet152Layers, ()),
])
def test_convert_caffemodel_to_npz(caffe_model, tmp_path, n_layers, cls,
                                   args):
    # convert_caffemodel_to_npz of ResNetLayers converts 50 layers unless
    # told the depth; that of each model converts its own.
    net = _resnet_caffemodel(caffe_model, n_layers, reduced=True)
    path = net.save(tmp_path / 'resnet.caffemodel')
    path_npz = str(tmp_path / 'resnet.npz')
    cls.convert_caffemodel_to_npz(path, path_npz, *args)
    model = CLASSES[n_layers](pretrained_model=path_npz)
    _assert_values(model, _expected_values(n_layers, net.blobs))


def test_convert_invalid_n_layers(caffe_model, tmp_path):
    path = caffe_model().save(tmp_path / 'empty.caffemodel')
    with pytest.raises(ValueError, match='50, 101, or 152, but 34'):
        resnet.ResNetLayers.convert_caffemodel_to_npz(
            path, str(tmp_path / 'r.npz'), 34)
    assert not os.path.exists(str(tmp_path / 'r.npz'))


@pytest.mark.parametrize('cls,args,name', [
    (resnet.ResNet50Layers, (), 'ResNet-50-model'),
    (resnet.ResNet101Layers, (), 'ResNet-101-model'),
    (resnet.ResNet152Layers, (), 'ResNet-152-model'),
    (resnet.ResNet50Layers, ('my.caffemodel',), 'my'),
])
def test_missing_caffemodel(models_root, cls, args, name, capsys):
    with pytest.raises(OSError) as info:
        cls(*args)
    # Chainer 7.8's message, word for word.
    assert str(info.value) == (
        'The pre-trained caffemodel does not exist. Please download it from '
        "'https://github.com/KaimingHe/deep-residual-networks', and place "
        'it on ' + os.path.join(models_root, name + '.caffemodel'))
    assert capsys.readouterr().err == (
        'Now loading caffemodel (usually it may take few minutes)\n')
    assert not [name for name in os.listdir(models_root)
                if not name.endswith('.lock')]


@pytest.mark.slow
@pytest.mark.parametrize('n_layers', [101, 152])
def test_pretrained_auto_full_size(caffe_model, models_root, n_layers):
    net = _resnet_caffemodel(caffe_model, n_layers, reduced=False)
    net.save(os.path.join(models_root,
                          'ResNet-{}-model.caffemodel'.format(n_layers)))
    _assert_values(CLASSES[n_layers](),
                   _expected_values(n_layers, net.blobs))


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


# Layouts of saved files, initial parameters, layer outputs and the
# preprocessing, against the numbers of Chainer 7.8.1 (see conftest.py).
@pytest.mark.parametrize('name', [
    'ResNet50/layout',
    'ResNet50/init',
    'ResNet50/forward',
    'prepare/resnet',
])
def test_matches_chainer_7_8(name, matches_chainer_7_8):
    matches_chainer_7_8(name)


@pytest.mark.slow
@pytest.mark.parametrize('name', [
    'ResNet50fb/layout',
    'ResNet50fb/init',
    'ResNet50fb/forward',
    'ResNet101/layout',
    'ResNet101/init',
    'ResNet101/forward',
    'ResNet152/layout',
    'ResNet152/init',
    'ResNet152/forward',
])
def test_matches_chainer_7_8_slow(name, matches_chainer_7_8):
    matches_chainer_7_8(name)
