"""The machinery shared by the vision models, on a tiny stand-in model."""

import collections
import os

import numpy
import pytest

import chainer
from chainer.dataset import download
from chainer import functions as F
from chainer.links.model.vision import _pretrained
from chainer import serializers
from chainer.utils import imgproc

try:
    from PIL import Image
except ImportError:
    Image = None

requires_pillow = pytest.mark.skipif(Image is None, reason='needs Pillow')

MEAN = (10.0, 20.0, 30.0)


class TinyModel(_pretrained.PretrainedModel):

    # Layers: 'scale' (times w), 'pool' (spatial mean), 'prob' (softmax),
    # then 'branch', computed from 'scale' instead of 'prob'.

    _mean = MEAN
    _branch_sources = {'branch': 'scale'}

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.w = chainer.Parameter(numpy.float32(0.01), (3, 1, 1))
        self.calls = []
        self.train_modes = []

    def _record(self, name, func):
        def wrapped(x):
            self.calls.append(name)
            self.train_modes.append(chainer.config.train)
            return func(x)
        return wrapped

    @property
    def functions(self):
        return collections.OrderedDict([
            ('scale', [self._record('scale', lambda x: x * F.broadcast_to(
                self.w, x.shape))]),
            ('pool', [self._record('pool', lambda x: F.mean(x, axis=(2, 3)))]),
            ('prob', [self._record('prob', F.softmax)]),
            ('branch', [self._record('branch', lambda x: F.sum(x, axis=1))]),
        ])


def _images():
    rng = numpy.random.RandomState(0)
    return [rng.randint(0, 256, (300, 280, 3)).astype(numpy.uint8),
            rng.randint(0, 256, (3, 260, 260)).astype(numpy.uint8)]


def test_available_layers():
    assert TinyModel().available_layers == ['scale', 'pool', 'prob', 'branch']


def test_forward_stops_after_last_requested_layer():
    model = TinyModel()
    x = numpy.ones((2, 3, 4, 4), numpy.float32)
    out = model(x, layers=['pool', 'scale'])
    assert sorted(out) == ['pool', 'scale']
    assert model.calls == ['scale', 'pool']
    numpy.testing.assert_allclose(out['pool'].array, 0.01)


def test_forward_default_is_prob():
    model = TinyModel()
    out = model(numpy.ones((2, 3, 4, 4), numpy.float32))
    assert list(out) == ['prob']
    numpy.testing.assert_allclose(out['prob'].array, 1 / 3)


def test_forward_branch_starts_from_its_source():
    model = TinyModel()
    x = numpy.arange(2 * 3 * 4 * 4, dtype=numpy.float32).reshape(2, 3, 4, 4)
    out = model(x, layers=['branch'])
    assert model.calls == ['scale', 'pool', 'prob', 'branch']
    numpy.testing.assert_allclose(out['branch'].array,
                                  (x * 0.01).sum(axis=1), rtol=1e-6)


def test_forward_unknown_layer_runs_everything():
    model = TinyModel()
    assert model(numpy.ones((1, 3, 2, 2), numpy.float32),
                 layers=['nope']) == {}
    assert model.calls == ['scale', 'pool', 'prob', 'branch']


def test_forward_retired_argument():
    with pytest.raises(ValueError, match='test argument is not supported'):
        TinyModel()(numpy.ones((1, 3, 2, 2), numpy.float32), test=True)
    with pytest.raises(TypeError):
        TinyModel()(numpy.ones((1, 3, 2, 2), numpy.float32), foo=True)


@requires_pillow
def test_extract():
    model = TinyModel()
    images = _images()
    out = model.extract(images, layers=['pool'], size=(16, 12))
    x = numpy.stack([_pretrained.prepare_image(im, (16, 12), MEAN)
                     for im in images])
    assert x.shape == (2, 3, 12, 16)
    numpy.testing.assert_allclose(
        out['pool'].array, x.mean(axis=(2, 3)) * 0.01, rtol=1e-5)
    assert out['pool'].creator is not None
    with pytest.raises(ValueError, match='volatile argument'):
        model.extract(images, volatile=True)


@requires_pillow
def test_extract_default_layers():
    model = TinyModel()
    model._extract_layers = ('scale',)
    out = model.extract(_images()[:1], size=(8, 8))
    assert list(out) == ['scale']
    assert out['scale'].shape == (1, 3, 8, 8)


@requires_pillow
@pytest.mark.parametrize('oversample', [True, False])
def test_predict(oversample):
    model = TinyModel()
    images = _images()
    y = model.predict(images, oversample=oversample)
    assert y.creator is None
    assert model.train_modes == [False] * 3

    x = numpy.stack([_pretrained.prepare_image(im, (256, 256), MEAN)
                     for im in images])
    if oversample:
        crops = imgproc.oversample(x, (224, 224))
    else:
        crops = x[:, :, 16:240, 16:240]
    logits = crops.mean(axis=(2, 3)) * 0.01
    prob = numpy.exp(logits - logits.max(axis=1, keepdims=True))
    prob /= prob.sum(axis=1, keepdims=True)
    if oversample:
        prob = prob.reshape(2, 10, 3).mean(axis=1)
    assert y.shape == (2, 3)
    numpy.testing.assert_allclose(y.array, prob, rtol=1e-5)


@requires_pillow
class TestPrepareImage:

    def setup_method(self):
        self.rgb = numpy.random.RandomState(1).randint(
            0, 256, (20, 30, 3)).astype(numpy.uint8)

    def _expected(self, rgb, size):
        image = Image.fromarray(rgb)
        if size:
            image = image.resize(size)
        bgr = numpy.asarray(image, numpy.float32)[:, :, ::-1]
        return (bgr - numpy.array(MEAN, numpy.float32)).transpose(2, 0, 1)

    def test_hwc_array(self):
        out = _pretrained.prepare_image(self.rgb, (12, 8), MEAN)
        assert out.shape == (3, 8, 12)
        assert out.dtype == numpy.float32
        numpy.testing.assert_array_equal(out, self._expected(self.rgb,
                                                             (12, 8)))

    def test_no_resize_is_exact(self):
        out = _pretrained.prepare_image(self.rgb, None, MEAN)
        expected = (self.rgb[:, :, ::-1].astype(numpy.float32)
                    - numpy.array(MEAN, numpy.float32)).transpose(2, 0, 1)
        numpy.testing.assert_array_equal(out, expected)

    def test_chw_array(self):
        out = _pretrained.prepare_image(
            self.rgb.transpose(2, 0, 1), None, MEAN)
        numpy.testing.assert_array_equal(out, self._expected(self.rgb, None))

    @pytest.mark.parametrize('gray', ['2d', '1hw', 'pil'])
    def test_gray_image_gives_three_equal_channels(self, gray):
        g = self.rgb[:, :, 0]
        image = {'2d': g, '1hw': g[None], 'pil': Image.fromarray(g)}[gray]
        out = _pretrained.prepare_image(image, None, MEAN)
        for c, m in enumerate(MEAN[::-1]):
            numpy.testing.assert_array_equal(out[2 - c], g - m)

    def test_pil_image(self):
        out = _pretrained.prepare_image(
            Image.fromarray(self.rgb), (12, 8), MEAN)
        numpy.testing.assert_array_equal(out, self._expected(self.rgb,
                                                             (12, 8)))

    def test_float_values_are_cast_to_uint8(self):
        out = _pretrained.prepare_image(
            self.rgb.astype(numpy.float64) + 0.5, None, MEAN)
        numpy.testing.assert_array_equal(out, self._expected(self.rgb, None))

    def test_default_dtype(self):
        with chainer.using_config('dtype', numpy.float64):
            out = _pretrained.prepare_image(self.rgb, None, MEAN)
        assert out.dtype == numpy.float64


def test_prepare_without_pillow(monkeypatch):
    monkeypatch.setattr(_pretrained, '_pil_import_error',
                        ImportError('no PIL'))
    with pytest.raises(ImportError, match='Install Pillow'):
        _pretrained.prepare_image(numpy.zeros((2, 2, 3)), None, MEAN)


@pytest.fixture
def dataset_root(tmp_path):
    root = download.get_dataset_root()
    download.set_dataset_root(str(tmp_path))
    yield tmp_path
    download.set_dataset_root(root)


def test_load_npz(tmp_path):
    saved = TinyModel()
    saved.w.array[...] = [[[1]], [[2]], [[3]]]
    path = str(tmp_path / 'tiny.npz')
    serializers.save_npz(path, saved)
    model = TinyModel()
    _pretrained.load_npz(path, model)
    numpy.testing.assert_array_equal(model.w.array, saved.w.array)


def test_pretrained_path_none():
    assert _pretrained.pretrained_path(None) is None
    assert _pretrained.pretrained_path('') is None


def test_pretrained_path_of_a_file(tmp_path):
    path = tmp_path / 'model.npz'
    path.write_bytes(b'')
    assert _pretrained.pretrained_path(str(path)) == str(path)
    assert _pretrained.pretrained_path(path) == path
    with pytest.raises(FileNotFoundError, match='nothing.npz'):
        _pretrained.pretrained_path(str(tmp_path / 'nothing.npz'))


def test_pretrained_path_of_a_file_object(tmp_path):
    with open(str(tmp_path / 'model.npz'), 'wb') as f:
        assert _pretrained.pretrained_path(f) is f


def test_auto_is_a_file_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match='file auto does not'):
        _pretrained.pretrained_path('auto')


def test_models_directory(dataset_root):
    path = _pretrained.models_directory()
    assert path == os.path.join(
        str(dataset_root), 'pfnet', 'chainer', 'models', '')
    assert os.path.isdir(path)


class TestLoadConvertedModel:

    @pytest.fixture(autouse=True)
    def setup(self, dataset_root):
        self.path = os.path.join(_pretrained.models_directory(), 'tiny.npz')
        self.calls = []

    def find_caffemodel(self):
        self.calls.append('find')
        return 'tiny.caffemodel'

    def convert(self, path_caffemodel, path_npz):
        # The conversion writes a temporary file, renamed once complete.
        self.calls.append(('convert', path_caffemodel))
        assert path_npz != self.path
        assert os.path.basename(path_npz) == 'tiny.npz'
        saved = TinyModel()
        saved.w.array[...] = [[[1]], [[2]], [[3]]]
        serializers.save_npz(path_npz, saved)

    def load(self):
        model = TinyModel()
        out = _pretrained.load_converted_model(
            model, 'tiny.npz', self.find_caffemodel, self.convert)
        assert out is model
        return model

    def test_converts_on_first_use(self, capsys):
        model = self.load()
        assert self.calls == ['find', ('convert', 'tiny.caffemodel')]
        assert 'Now loading caffemodel' in capsys.readouterr().err
        numpy.testing.assert_array_equal(model.w.array.ravel(), [1, 2, 3])
        assert [name for name in os.listdir(os.path.dirname(self.path))
                if not name.endswith('.lock')] == ['tiny.npz']

        model = self.load()
        assert len(self.calls) == 2
        assert capsys.readouterr().err == ''
        numpy.testing.assert_array_equal(model.w.array.ravel(), [1, 2, 3])

    def test_loads_an_existing_file(self):
        saved = TinyModel()
        saved.w.array[...] = 7
        serializers.save_npz(self.path, saved)
        numpy.testing.assert_array_equal(self.load().w.array, 7)
        assert self.calls == []

    def test_failed_conversion_leaves_no_file(self):
        def fail():
            raise FileNotFoundError('no tiny.caffemodel')
        model = TinyModel()
        with pytest.raises(FileNotFoundError, match='no tiny.caffemodel'):
            _pretrained.load_converted_model(
                model, 'tiny.npz', fail, self.convert)
        assert not os.path.exists(self.path)
        self.load()
        assert os.path.exists(self.path)


def test_copy_link_params():
    src = chainer.links.Linear(3, 2)
    dst = chainer.links.Linear(3, 2)
    W, b = dst.W.array, dst.b.array
    _pretrained.copy_link_params(dst, src)
    assert dst.W.array is W and dst.b.array is b
    numpy.testing.assert_array_equal(W, src.W.array)
    numpy.testing.assert_array_equal(b, src.b.array)

    dst = chainer.links.Linear(3, 2, initial_bias=5)
    _pretrained.copy_link_params(dst, src, bias=False)
    numpy.testing.assert_array_equal(dst.W.array, src.W.array)
    numpy.testing.assert_array_equal(dst.b.array, 5)


def test_save_npz_is_uncompressed(tmp_path):
    import zipfile
    path = str(tmp_path / 'model.npz')
    _pretrained.save_npz(path, TinyModel())
    with zipfile.ZipFile(path) as f:
        assert [i.compress_type for i in f.infolist()] == [zipfile.ZIP_STORED]


@pytest.mark.parametrize('name', ['googlenet', 'resnet', 'vgg'])
def test_module_attributes(name):
    import importlib

    from chainer.dataset import convert

    module = importlib.import_module('chainer.links.model.vision.' + name)
    assert module.available is (Image is not None)
    assert module.concat_examples is convert.concat_examples
    with pytest.raises(AttributeError, match=name):
        module.no_such_name
