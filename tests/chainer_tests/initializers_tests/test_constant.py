"""The constant initializers: Zero, One, NaN and Constant."""

import numpy
import pytest

from chainer import initializers


class TestConstantInitializers:

    @pytest.mark.parametrize('cls, value', [
        (initializers.Zero, 0), (initializers.One, 1),
    ])
    def test_fill(self, cls, value):
        assert isinstance(cls, type)
        assert not issubclass(cls, initializers.Constant)
        a = numpy.empty(3, numpy.float32)
        cls()(a)
        numpy.testing.assert_array_equal(a, [value] * 3)
        assert cls(numpy.float16).dtype == numpy.float16

    def test_nan(self):
        a = numpy.empty(2)
        initializers.NaN()(a)
        assert numpy.isnan(a).all()

    def test_constant_rejects_non_scalars(self):
        with pytest.raises(ValueError):
            initializers.Constant([1, 2])
