import chainer
import chainer.functions as F
import numpy as np
import pytest

import onnx_chainer


def _x(*shape):
    x = np.arange(np.prod(shape)).reshape(shape) - np.prod(shape) // 2
    return (x * 0.5).astype(np.float32)


def _cases(cases):
    return pytest.mark.parametrize(
        'name,func,shape', cases,
        ids=['{}-{}'.format(i, c[0] if isinstance(c[0], str) else 'opset')
             for i, c in enumerate(cases)])


_SINGLE_INPUT = [
    ('Cast', lambda x: F.cast(x, np.float64), (2, 3)),
    ('Copy', lambda x: F.copy(x, -1), (2, 3)),
    ('Depth2Space', lambda x: F.depth2space(x, 2), (1, 8, 2, 3)),
    ('Space2Depth', lambda x: F.space2depth(x, 2), (1, 2, 4, 6)),
    ('ExpandDims', lambda x: F.expand_dims(x, -1), (2, 3)),
    ('Squeeze', F.squeeze, (1, 3, 1, 2)),
    ('Squeeze', lambda x: F.squeeze(x, (0, 2)), (1, 3, 1, 2)),
    ('Transpose', F.transpose, (2, 3, 4)),
    ('Transpose', lambda x: F.transpose(x, (1, 2, 0)), (2, 3, 4)),
    ('Swapaxes', lambda x: F.swapaxes(x, 0, -1), (2, 3, 4)),
    ('Moveaxis', lambda x: F.moveaxis(x, (0, 2), (2, 0)), (2, 3, 4, 5)),
    ('Rollaxis', lambda x: F.rollaxis(x, 3, 1), (2, 3, 4, 5)),
    ('Reshape', lambda x: F.reshape(x, (3, -1)), (2, 3, 4)),
    ('Tile', lambda x: F.tile(x, (2, 1, 3)), (2, 3)),
    ('Repeat', lambda x: F.repeat(x, 2, axis=1), (2, 3)),
    ('Repeat', lambda x: F.repeat(x, (1, 0, 2), axis=1), (2, 3)),
    ('Repeat', lambda x: F.repeat(x, 2), (2, 3)),
    ('Pad', lambda x: F.pad(x, ((1, 0), (2, 3)), 'constant',
                            constant_values=-1.5), (2, 3)),
    ('Pad', lambda x: F.pad(x, ((0, 0), (1, 1), (2, 1)), 'reflect'),
     (1, 2, 4)),
    ('Pad', lambda x: F.pad(x, ((0, 0), (0, 0), (1, 2), (2, 1)), 'edge'),
     (1, 2, 3, 4)),
    ('SplitAxis', lambda x: F.split_axis(x, 3, 1), (2, 6)),
    ('SplitAxis', lambda x: F.split_axis(x, [1, 4], 1), (2, 6)),
    ('Separate', lambda x: F.separate(x, 1), (2, 3)),
    ('Separate', F.separate, (1, 3)),
    ('GetItem', lambda x: x[1:, None, ..., -1], (3, 4, 5)),
    ('GetItem', lambda x: x[0], (3, 4, 5)),
    ('GetItem', lambda x: x[:, [2, 0, 1]], (3, 4, 5)),
    ('GetItem', lambda x: x[:, 1, [[0, 1], [3, 2]]], (3, 4, 5)),
    (10, lambda x: x[..., ::-2], (3, 4, 5)),
    (11, lambda x: x[[0, 2], [1, 3]], (3, 4, 5)),
    ('Stack', lambda x: F.stack([x, x * 2], axis=-1), (2, 3)),
    ('Hstack', lambda x: F.hstack([x, x]), (2, 3)),
    ('Vstack', lambda x: F.vstack([x, x]), (3,)),
    ('Dstack', lambda x: F.dstack([x, x]), (2, 3)),
    ('Concat', lambda x: F.concat([x, x * 2], axis=0), (2, 3)),
    ('TransposeSequence',
     lambda x: F.transpose_sequence([x, x[:2], x[:1]]), (3, 2)),
    (11, lambda x: F.resize_images(x, (5, 7)), (1, 2, 3, 4)),
    (11, lambda x: F.resize_images(x, (3, 2), mode='nearest'), (1, 1, 4, 5)),
    (11, lambda x: F.resize_images(x, (2, 7)), (1, 2, 5, 4)),
    ('ResizeImages', lambda x: F.resize_images(x, (8, 10), mode='nearest'),
     (1, 2, 4, 5)),
    ('Flip', lambda x: F.flip(x, -1), (2, 3)),
    ('FlipLR', F.fliplr, (2, 3)),
    ('FlipUD', F.flipud, (2, 3)),
]


@_cases(_SINGLE_INPUT)
def test_array(check_all_opsets, name, func, shape):
    # ``name``: the function node, or the oldest opset where the case is
    # exported exactly
    check_all_opsets(chainer.Sequential(func), _x(*shape), name)


@pytest.mark.parametrize('opset_version', [7, 9, 10])
def test_resize_images_before_opset_11_warns(check, opset_version):
    model = chainer.Sequential(lambda x: F.resize_images(x, (5, 7)))
    with pytest.warns(UserWarning, match='align corners'):
        with pytest.raises(AssertionError):
            check(model, _x(1, 2, 3, 4), opset_version)


@pytest.mark.parametrize('opset_version', [7, 9, 10])
@pytest.mark.parametrize('mode', ['nearest', 'bilinear'])
def test_shrinking_resize_before_opset_11_is_refused(check, opset_version,
                                                     mode):
    model = chainer.Sequential(
        lambda x: F.resize_images(x, (3, 6), mode=mode))
    with pytest.raises(ValueError, match='opset_version >= 11'):
        check(model, _x(1, 1, 4, 5), opset_version)


def test_where(check_all_opsets):
    cond = np.array([[True, False, True], [False, False, True]])
    model = chainer.Sequential(F.where)
    check_all_opsets(model, (cond, _x(2, 3), np.zeros((2, 3), np.float32)),
                     'Where')


def test_permutate(check_all_opsets):
    class Model(chainer.Chain):
        def forward(self, x):
            h = F.permutate(x, np.array([2, 0, 1], np.int32))
            return F.permutate(h, np.array([1, 0], np.int32), axis=1,
                               inv=True)
    check_all_opsets(Model(), _x(3, 2), 'Permutate')


def test_select_item(check_all_opsets):
    model = chainer.Sequential(F.select_item)
    check_all_opsets(model, (_x(3, 5), np.array([4, 0, 2], np.int32)),
                     'SelectItem')


def test_get_item_steps_need_opset_10():
    model = chainer.Sequential(lambda x: x[::2])
    with pytest.raises(ValueError, match='GetItem.*opset_version 9'):
        onnx_chainer.export(model, _x(4, 3), opset_version=9)


def test_get_item_several_arrays_need_opset_11():
    model = chainer.Sequential(lambda x: x[[0, 1], [1, 2]])
    with pytest.raises(ValueError, match='GatherND'):
        onnx_chainer.export(model, _x(4, 3), opset_version=10)


def test_get_item_separated_arrays():
    model = chainer.Sequential(lambda x: x[[0, 1], :, [1, 2]])
    with pytest.raises(ValueError, match='adjacent'):
        onnx_chainer.export(model, _x(4, 3, 3))


def test_where_needs_opset_9():
    cond = np.array([True, False])
    with pytest.raises(RuntimeError, match='`Where`.*opset_version 8'):
        onnx_chainer.export(chainer.Sequential(F.where),
                            (cond, _x(2), _x(2)), opset_version=8)
