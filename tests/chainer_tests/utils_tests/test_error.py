import numpy

import chainer
from chainer import utils
from chainer.utils import error


def test_format_array_props():
    arrays = [numpy.zeros((2, 3), numpy.float32), None,
              chainer.Variable(numpy.zeros((), numpy.int32))]
    assert error._format_array_props(arrays) == (
        '(2, 3):float32, None, ():int32')
    assert utils._format_array_props is error._format_array_props
