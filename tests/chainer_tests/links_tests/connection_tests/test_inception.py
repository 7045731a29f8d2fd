import numpy

from chainer import functions as F
from chainer.links.connection import inception


def _x(*shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(
        numpy.float32)


def test_output_and_branches():
    link = inception.Inception(3, 2, 2, 3, 1, 2, 2, bias_init=0.1)
    x = _x(2, 3, 5, 5)
    y = link(x)
    assert y.shape == (2, 9, 5, 5)

    def conv(child, h, pad=0):
        return F.convolution_2d(h, child.W, child.b, pad=pad)

    out1 = conv(link.conv1, x)
    out3 = conv(link.conv3, F.relu(conv(link.proj3, x)), 1)
    out5 = conv(link.conv5, F.relu(conv(link.proj5, x)), 2)
    pool = conv(link.projp, F.max_pooling_2d(x, 3, stride=1, pad=1))
    expected = F.relu(F.concat((out1, out3, out5, pool), axis=1))
    numpy.testing.assert_array_equal(y.array, expected.array)
    assert link.conv5.W.shape == (2, 1, 5, 5)
    assert (link.projp.b.array == numpy.float32(0.1)).all()


def test_str_like_original():
    conv = ('Convolution2D(in_channels={}, out_channels=1, ksize={}, '
            'stride=(1, 1), pad=({p}, {p}), nobias=False, dilate=(1, 1), '
            'groups=1)')
    expected = '\n'.join([
        'Inception(',
        '  (conv1): ' + conv.format(3, 1, p=0) + ',',
        '  (conv3): ' + conv.format(1, 3, p=1) + ',',
        '  (conv5): ' + conv.format(1, 5, p=2) + ',',
        '  (proj3): ' + conv.format(3, 1, p=0) + ',',
        '  (proj5): ' + conv.format(3, 1, p=0) + ',',
        '  (projp): ' + conv.format(3, 1, p=0) + ',',
        ')'])
    assert str(inception.Inception(3, 1, 1, 1, 1, 1, 1)) == expected
