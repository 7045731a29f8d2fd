import chainer
import chainer.functions as F
import numpy as np
import pytest


def _x(*shape):
    x = np.arange(np.prod(shape)).reshape(shape) % 13 - 6
    return (x * 0.5).astype(np.float32)


_CASES = [
    ('AveragePooling2D', lambda x: F.average_pooling_2d(x, 2), (1, 2, 4, 4)),
    ('AveragePooling2D', lambda x: F.average_pooling_2d(x, 3, 2, 1),
     (1, 2, 5, 5)),
    ('AveragePoolingND', lambda x: F.average_pooling_nd(x, 2, 1, 1),
     (1, 2, 3, 3, 3)),
    ('AveragePoolingND',
     lambda x: F.average_pooling_nd(x, 3, 2, 1, pad_value=None),
     (1, 2, 5, 5)),
    ('MaxPoolingND', lambda x: F.max_pooling_2d(x, 2, cover_all=False),
     (1, 2, 4, 4)),
    ('MaxPoolingND', lambda x: F.max_pooling_2d(x, 3, 2, 1), (1, 2, 6, 5)),
    ('MaxPoolingND', lambda x: F.max_pooling_nd(x, 3, 2, 1, cover_all=True),
     (1, 2, 5, 4, 6)),
    ('Unpooling2D', lambda x: F.unpooling_2d(x, 2, cover_all=False),
     (1, 2, 3, 3)),
    ('Unpooling2D', lambda x: F.unpooling_2d(x, (2, 3), cover_all=False),
     (1, 2, 3, 2)),
    ('Unpooling2D', lambda x: F.unpooling_2d(x, 2), (1, 2, 3, 3)),
    ('Unpooling2D', lambda x: F.unpooling_2d(x, 3), (1, 1, 4, 4)),
    ('Unpooling2D', lambda x: F.unpooling_2d(x, 2, pad=1, cover_all=False),
     (1, 2, 3, 4)),
    ('Unpooling2D',
     lambda x: F.unpooling_2d(x, 2, outsize=(5, 4), cover_all=False),
     (1, 2, 2, 2)),
    ('Unpooling2D',
     lambda x: F.unpooling_2d(x, 3, pad=(2, 1), outsize=(5, 3)),
     (1, 1, 3, 2)),
]


@pytest.mark.parametrize('name,func,shape', _CASES,
                         ids=['{}-{}'.format(i, c[0])
                              for i, c in enumerate(_CASES)])
def test_pooling(check_all_opsets, name, func, shape):
    check_all_opsets(chainer.Sequential(func), _x(*shape), name)


def test_unpooling_2d_with_overlapping_windows_is_refused(check):
    model = chainer.Sequential(lambda x: F.unpooling_2d(x, 2, 1))
    with pytest.raises(RuntimeError, match='stride != ksize'):
        check(model, _x(1, 1, 3, 3), 11)


def test_roi_pooling_2d(check_all_opsets):
    x = _x(2, 2, 12, 8)
    rois = np.array([[0, 1, 1, 6, 6], [1, 6, 2, 7, 11], [1, 3, 1, 5, 10],
                     [0, 3, 3, 3, 3], [0, -3, 5, 20, 30]], np.float32)
    model = chainer.Sequential(
        lambda x, rois: F.roi_pooling_2d(x, rois, 3, 4, 0.6))
    check_all_opsets(model, (x, rois), 11)


def test_roi_pooling_2d_before_opset_11_warns(check):
    x = np.arange(2 * 2 * 6 * 5, dtype=np.float32).reshape(2, 2, 6, 5)
    rois = np.array([[0, 0, 0, 4, 5], [1, 1, 2, 3, 4]], np.float32)
    model = chainer.Sequential(
        lambda x, rois: F.roi_pooling_2d(x, rois, 2, 2, 1.0))
    with pytest.warns(UserWarning, match='MaxRoiPool'):
        check(model, (x, rois), 10)
