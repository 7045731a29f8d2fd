"""SerialIterator."""

import importlib.util
import os

import chainer
from chainer import iterators


def _load_contract():
    # The tests shared by the iterators (iterator_contract.py).
    path = os.path.join(os.path.dirname(__file__), 'iterator_contract.py')
    spec = importlib.util.spec_from_file_location('iterator_contract', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


contract = _load_contract()


class TestSerialIteratorContract(contract.IteratorContract):
    iterator_class = iterators.SerialIterator


def test_serializer_without_children_saves_no_order_state():
    # A serializer that cannot make child serializers (as some user code
    # writes) still serializes the iterator, as Chainer 7.8 does.
    class FlatSerializer(chainer.serializer.Serializer):
        def __init__(self):
            self.saved = {}

        def __getitem__(self, key):
            raise NotImplementedError

        def __call__(self, key, value):
            self.saved[key] = value
            return value

    it = chainer.iterators.SerialIterator(list(range(6)), 2, shuffle=True)
    it.next()
    serializer = FlatSerializer()
    it.serialize(serializer)
    assert serializer.saved['current_position'] == 2
