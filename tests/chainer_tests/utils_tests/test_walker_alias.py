import numpy
import pytest

from chainer.utils import walker_alias


def test_table_and_samples_of_original():
    # Chainer 7.8.1's table and draws after numpy.random.seed(0).
    sampler = walker_alias.WalkerAlias([0.5, 3, 1, 0, 2.5])
    numpy.testing.assert_array_equal(sampler.threshold, numpy.array(
        [0.0, 0.3571428656578064, 0.7142857313156128, 0.785714328289032,
         1.0000001192092896], numpy.float32))
    numpy.testing.assert_array_equal(
        sampler.values, [3, 4, 0, 1, 2, 1, 4, 1, 1, 0])
    numpy.random.seed(0)
    samples = sampler.sample((2, 6))
    assert samples.dtype == numpy.int32
    numpy.testing.assert_array_equal(
        samples, [[1, 4, 4, 1, 2, 4], [2, 1, 1, 1, 1, 2]])


def test_powered_counts_of_original():
    counts = numpy.power(numpy.arange(1, 6, dtype=numpy.float32),
                         numpy.float32(0.75))
    sampler = walker_alias.WalkerAlias(counts)
    # The thresholds come from float32 pow and sums: their last bit depends
    # on the CPU and the NumPy build, for the original as for this code.
    numpy.testing.assert_allclose(sampler.threshold, numpy.array(
        [0.4490979313850403, 0.7552897334098816, 0.4728199243545532,
         0.49835050106048584, 1.0000001192092896], numpy.float32),
        rtol=1e-6)
    numpy.testing.assert_array_equal(
        sampler.values, [0, 2, 1, 3, 2, 3, 3, 4, 4, 0])
    numpy.random.seed(3)
    numpy.testing.assert_array_equal(
        sampler.sample((8,)), [3, 4, 1, 3, 4, 4, 2, 1])


def test_frequencies_follow_probabilities():
    probs = numpy.array([0.1, 0.0, 0.4, 0.2, 0.3])
    sampler = walker_alias.WalkerAlias(probs * 7)
    numpy.random.seed(1)
    samples = sampler.sample((200000,))
    freq = numpy.bincount(samples, minlength=5) / samples.size
    numpy.testing.assert_allclose(freq, probs, atol=5e-3)
    assert freq[1] == 0


def test_use_gpu_on_cpu():
    assert not walker_alias.WalkerAlias([1, 1]).use_gpu


@pytest.mark.gpu
def test_gpu_sampling():
    import cupy
    sampler = walker_alias.WalkerAlias([0.1, 0.0, 0.4, 0.2, 0.3])
    sampler.to_gpu()
    assert sampler.use_gpu
    cupy.random.seed(0)
    samples = sampler.sample((100000,))
    assert isinstance(samples, cupy.ndarray)
    assert samples.dtype == numpy.int32
    freq = numpy.bincount(cupy.asnumpy(samples), minlength=5) / 100000
    numpy.testing.assert_allclose(freq, [0.1, 0.0, 0.4, 0.2, 0.3],
                                  atol=1e-2)
