import numpy
import pytest

import chainerx


def test_is_available_is_false():
    assert chainerx.is_available() is False


def test_ndarray_is_a_type_no_array_belongs_to():
    assert isinstance(chainerx.ndarray, type)
    assert not isinstance(numpy.zeros(1), chainerx.ndarray)
    assert not isinstance(1.0, chainerx.ndarray)
    with pytest.raises(RuntimeError, match='chainerx is not available'):
        chainerx.ndarray((2,), 'float32')


@pytest.mark.parametrize(
    'name', ['array', 'Device', 'get_device', 'float32', 'asarray'],
    ids=['array', 'Device', 'get_device', 'float32', 'asarray'])
def test_other_attributes_raise_attribute_error(name):
    with pytest.raises(AttributeError) as info:
        getattr(chainerx, name)
    message = str(info.value)
    assert repr(name) in message
    assert 'ChainerX is not available' in message
    assert not hasattr(chainerx, name)


def test_from_import_fails_cleanly():
    with pytest.raises(ImportError):
        exec('from chainerx import array', {})
