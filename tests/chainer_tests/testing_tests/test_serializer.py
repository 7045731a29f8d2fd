"""chainer.testing.serializer: save_and_load and save_and_load_npz."""

import os

import numpy
import pytest

from chainer import testing


def test_save_and_load():
    saved = []

    def saver(path, obj):
        with open(path, 'w') as f:
            f.write(obj)
        saved.append(path)

    def loader(path, dst):
        with open(path) as f:
            dst.append(f.read())

    dst = []
    testing.save_and_load('content', dst, 'file.txt', saver, loader)
    assert dst == ['content']
    assert os.path.basename(saved[0]) == 'file.txt'
    assert not os.path.exists(saved[0])


def test_save_and_load_npz():
    pytest.importorskip('chainer.serializers')
    pytest.importorskip('chainer.link')
    import chainer

    def make_link(value):
        link = chainer.Link()
        with link.init_scope():
            link.w = chainer.Parameter(numpy.full(3, value, numpy.float32))
        return link

    src, dst = make_link(1.0), make_link(0.0)
    testing.save_and_load_npz(src, dst)
    numpy.testing.assert_array_equal(dst.w.array, src.w.array)
