import pytest

from onnx_chainer.functions.opset_version import support


class Dummy(object):
    pass


@support((7, 9, 13))
def convert_Dummy(func, opset_version, *args):
    return opset_version


@pytest.mark.parametrize('requested,seen', [
    (7, 7), (8, 7), (9, 9), (12, 9), (13, 13), (28, 13)])
def test_newest_version_not_above_the_requested(requested, seen):
    assert convert_Dummy(Dummy(), requested) == seen


def test_older_opset_names_the_function():
    with pytest.raises(RuntimeError, match='`Dummy`.*opset_version 6'):
        convert_Dummy(Dummy(), 6)
    assert convert_Dummy.minimum_opset_version == 7
