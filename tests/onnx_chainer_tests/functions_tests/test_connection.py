import chainer
import chainer.functions as F
import chainer.links as L
import numpy as np
import pytest


def _x(*shape):
    x = np.arange(np.prod(shape)).reshape(shape) % 7 - 3
    return (x * 0.25).astype(np.float32)


_CASES = [
    ('Convolution2DFunction', lambda: L.Convolution2D(3, 4, 3, 1, 1),
     (2, 3, 5, 5)),
    ('Convolution2DFunction',
     lambda: L.Convolution2D(3, 6, 3, 2, 1, groups=3), (1, 3, 6, 5)),
    ('Convolution2DFunction',
     lambda: L.DilatedConvolution2D(3, 2, 3, 1, 2, 2), (1, 3, 7, 7)),
    ('ConvolutionND', lambda: L.ConvolutionND(3, 2, 2, 3, 1, 1),
     (1, 2, 4, 4, 4)),
    ('ConvolutionND', lambda: L.ConvolutionND(1, 4, 2, 3, 1, 0, groups=2),
     (2, 4, 6)),
    ('Deconvolution2DFunction', lambda: L.Deconvolution2D(3, 2, 4, 2, 1),
     (1, 3, 4, 4)),
    ('Deconvolution2DFunction',
     lambda: L.Deconvolution2D(4, 6, 3, 2, 0, groups=2, outsize=(10, 10)),
     (1, 4, 4, 4)),
    ('Deconvolution2DFunction',
     lambda: L.Deconvolution2D(2, 2, 3, 1, 1, dilate=2), (1, 2, 4, 4)),
    ('DeconvolutionND', lambda: L.DeconvolutionND(2, 3, 2, 3, 2, 1),
     (1, 3, 4, 5)),
    ('LinearFunction', lambda: L.Linear(6, 4), (3, 6)),
    ('LinearFunction', lambda: L.Linear(6, 4, nobias=True), (3, 6)),
    ('LinearFunction', lambda: L.Linear(None, 4), (3, 2, 3)),
]


@pytest.mark.parametrize('name,make_link,shape', _CASES,
                         ids=['{}-{}'.format(i, c[0])
                              for i, c in enumerate(_CASES)])
def test_connection(check_all_opsets, name, make_link, shape):
    np.random.seed(0)
    check_all_opsets(make_link(), _x(*shape), name)


def test_convolution_cover_all(check_all_opsets):
    w = _x(2, 3, 3, 3)
    model = chainer.Sequential(
        lambda x: F.convolution_2d(x, w, stride=2, cover_all=True))
    check_all_opsets(model, _x(1, 3, 6, 6), 'Convolution2DFunction')


def test_embed_id(check_all_opsets):
    model = L.EmbedID(5, 3)
    check_all_opsets(model, np.array([[0, 4, 2], [1, 1, 3]], np.int32),
                     'EmbedIDFunction')


def test_embed_id_ignore_label(check_all_opsets):
    model = L.EmbedID(5, 3, ignore_label=-1)
    check_all_opsets(model, np.array([[0, -1, 2], [-1, 1, 3]], np.int32),
                     9)


def test_parameters_are_named_by_link_path(check):
    class Model(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.conv = L.Convolution2D(2, 2, 1)
                self.fc = L.Linear(8, 3)

        def forward(self, x):
            return self.fc(self.conv(x))

    onnx_model = check(Model(), _x(1, 2, 2, 2), 9)
    assert sorted(i.name for i in onnx_model.graph.initializer) == [
        'param_conv_W', 'param_conv_b', 'param_fc_W', 'param_fc_b']
