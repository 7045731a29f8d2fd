"""Caffe models shaped like the pre-trained ones, built for the tests."""

import hashlib
import os

import numpy
import pytest

from chainer.dataset import download

try:
    from chainer.links.caffe.protobuf3 import caffe_pb2
except ImportError:
    caffe_pb2 = None


def _varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7f
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


class CaffeModel:

    """A ``NetParameter`` of Caffe layers with random blobs.

    ``blobs`` keeps the arrays of each layer, by layer name. With
    ``reduced=True``, the weights of convolutions have one input channel
    and a 1x1 kernel and those of inner products one input: the blobs are
    small but still broadcast to the shapes of the real links, as loading
    a model file allows.
    """

    def __init__(self, reduced=False, seed=0):
        self.net = caffe_pb2.NetParameter()
        self.net.name = 'test'
        self.blobs = {}
        self.reduced = reduced
        self._rng = numpy.random.default_rng(seed)
        self._last_top = 'data'

    def _random(self, shape):
        return self._rng.standard_normal(shape, dtype=numpy.float32)

    def _layer(self, name, type_name, arrays, bottom=None, top=None):
        layer = self.net.layer.add()
        layer.name = name
        layer.type = type_name
        layer.bottom.append(bottom or self._last_top)
        layer.top.append(top or name)
        self._last_top = top or name
        for array in arrays:
            blob = layer.blobs.add()
            blob.shape.dim.extend(array.shape)
            # The data as a packed field: far faster than extending it.
            data = numpy.ascontiguousarray(array, '<f4').tobytes()
            blob.MergeFromString(b'\x2a' + _varint(len(data)) + data)
        if arrays:
            self.blobs[name] = arrays
        return layer

    def convolution(self, name, out_channels, in_channels, ksize, bias=True,
                    **kwargs):
        if self.reduced:
            in_channels, ksize = 1, 1
        arrays = [self._random((out_channels, in_channels, ksize, ksize))]
        if bias:
            arrays.append(self._random((out_channels,)))
        layer = self._layer(name, 'Convolution', arrays, **kwargs)
        param = layer.convolution_param
        param.num_output = out_channels
        param.kernel_size.append(ksize)
        param.bias_term = bias
        return layer

    def inner_product(self, name, out_size, in_size, **kwargs):
        if self.reduced:
            in_size = 1
        arrays = [self._random((out_size, in_size)),
                  self._random((out_size,))]
        layer = self._layer(name, 'InnerProduct', arrays, **kwargs)
        layer.inner_product_param.num_output = out_size
        return layer

    def batch_norm(self, name, channels, factor=2.0):
        # Caffe stores the running sums and their scale factor.
        mean = self._random((channels,))
        var = self._rng.uniform(0.5, 2, channels).astype(numpy.float32)
        arrays = [mean, var, numpy.array([factor], numpy.float32)]
        layer = self._layer(name, 'BatchNorm', arrays,
                            bottom=self._last_top, top=self._last_top)
        layer.batch_norm_param.use_global_stats = True
        return layer

    def scale(self, name, channels):
        arrays = [self._random((channels,)), self._random((channels,))]
        layer = self._layer(name, 'Scale', arrays,
                            bottom=self._last_top, top=self._last_top)
        layer.scale_param.bias_term = True
        return layer

    def relu(self, name):
        return self._layer(name, 'ReLU', [], bottom=self._last_top,
                           top=self._last_top)

    def pooling(self, name, ksize=2, stride=2):
        layer = self._layer(name, 'Pooling', [])
        layer.pooling_param.pool = caffe_pb2.PoolingParameter.MAX
        layer.pooling_param.kernel_size = ksize
        layer.pooling_param.stride = stride
        return layer

    def save(self, path):
        os.makedirs(os.path.dirname(str(path)) or '.', exist_ok=True)
        with open(str(path), 'wb') as f:
            f.write(self.net.SerializeToString())
        return str(path)


@pytest.fixture(scope='session')
def caffe_model():
    """Makes a :class:`CaffeModel`; skips without protobuf."""
    if caffe_pb2 is None:
        pytest.skip('needs protobuf')
    return CaffeModel


@pytest.fixture
def models_root(tmp_path):
    """Points the dataset root to an empty folder; yields the folder of
    the pre-trained models in it."""
    root = download.get_dataset_root()
    download.set_dataset_root(str(tmp_path / 'root'))
    try:
        yield download.get_dataset_directory('pfnet/chainer/models/')
    finally:
        download.set_dataset_root(root)


def cached_download_path(url):
    """Where :func:`chainer.dataset.cached_download` keeps ``url``; its
    folder is created."""
    cache = os.path.join(download.get_dataset_root(), '_dl_cache')
    os.makedirs(cache, exist_ok=True)
    return os.path.join(cache, hashlib.md5(url.encode('utf-8')).hexdigest())


@pytest.fixture
def download_cache():
    """Returns where the download of a URL is cached (computed as
    Chainer 7.8 does: the MD5 hash of the URL)."""
    return cached_download_path
