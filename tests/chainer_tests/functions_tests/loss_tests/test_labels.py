import numpy
import pytest

from chainer.functions.loss import _labels


def test_labels_in_range_and_ignored_pass():
    labels = numpy.array([[0, 2], [-1, 1]], numpy.int32)
    _labels.check_labels(labels, 3, 't', ignore_label=-1)
    _labels.check_labels(numpy.zeros((0,), numpy.int32), 3, 't')


@pytest.mark.parametrize('label', [-1, 3])
def test_bad_label_raises_value_error_naming_it(label):
    labels = numpy.array([0, label, 1], numpy.int32)
    with pytest.raises(ValueError, match=r'^each label of t must satisfy '
                       r'0 <= t < 3, but %d is given$' % label):
        _labels.check_labels(labels, 3, 't')


def test_ignore_label_in_the_message():
    with pytest.raises(ValueError, match='0 <= y < 2 or y == 7, but -1'):
        _labels.check_labels(numpy.array([7, -1]), 2, 'y', ignore_label=7)


@pytest.mark.parametrize('labels, first', [
    ([0, 4, -5], 4), ([-5, 4], -5), ([-1, -9, 3], -9),
])
def test_labels_beyond_the_axis_raise_index_error(labels, first):
    labels = numpy.array(labels, numpy.int32)
    with pytest.raises(IndexError, match='^index %d is out of bounds for '
                       'axis 2 with size 4$' % first):
        _labels.check_labels(labels, 4, 't', axis=2)


def test_negative_label_within_the_axis_raises_value_error():
    labels = numpy.array([0, -2], numpy.int8)
    with pytest.raises(ValueError, match='but -2 is given'):
        _labels.check_labels(labels, 4, 't', axis=0)


def test_ignore_label_beyond_the_axis_is_allowed():
    _labels.check_labels(numpy.array([0, 9]), 4, 't', ignore_label=9, axis=0)


def test_custom_message_gets_the_first_bad_label():
    with pytest.raises(ValueError, match=r'^length in \[0, 4\], not 6$'):
        _labels.check_labels(numpy.array([1, 6, 7]), 5, 'length',
                             message='length in [0, 4], not {}')
