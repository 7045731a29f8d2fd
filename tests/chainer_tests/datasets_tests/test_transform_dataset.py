"""TransformDataset."""

import numpy

from chainer import datasets


def test_transform_dataset():
    base = datasets.TupleDataset(numpy.arange(4), numpy.arange(4) * 10)
    d = datasets.TransformDataset(base, lambda xt: xt[0] + xt[1])
    assert len(d) == 4
    assert d[3] == 33
    assert d[[0, 2]] == [0, 22]
