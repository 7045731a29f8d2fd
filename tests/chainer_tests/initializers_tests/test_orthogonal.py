import numpy
import pytest

from chainer.initializers import orthogonal


def _fill(init, shape, dtype=numpy.float32, seed=0):
    numpy.random.seed(seed)
    array = numpy.empty(shape, dtype)
    init(array)
    return array


def test_same_draws_as_original():
    # Chainer 7.8.1, numpy.random.seed(0).
    numpy.testing.assert_array_equal(
        _fill(orthogonal.Orthogonal(), (2, 3)),
        numpy.array([
            [0.9434900879859924, 0.21402105689048767, 0.5234706401824951],
            [0.30140337347984314, 0.6712375283241272, -0.8176773190498352]],
            numpy.float32))
    numpy.testing.assert_array_equal(
        _fill(orthogonal.Orthogonal(scale=2.0), (3, 2)),
        numpy.array([
            [1.2833645343780518, 0.1221984401345253],
            [0.7120410203933716, 1.7183833122253418],
            [1.3586658239364624, -1.015985369682312]], numpy.float32))
    assert _fill(orthogonal.Orthogonal(), ()) == numpy.float32(-1.1)
    array = numpy.empty((2, 2))
    orthogonal.Orthogonal(rng=numpy.random.RandomState(3))(array)
    numpy.testing.assert_allclose(array, [
        [1.098402622931111, 0.05925941223177932],
        [0.05925941223177932, -1.098402622931111]], rtol=1e-12)


@pytest.mark.parametrize('shape', [(3, 5), (4, 2, 3), (5, 5), (8, 2)],
                         ids=str)
def test_rows_or_columns_orthogonal(shape):
    array = _fill(orthogonal.Orthogonal(scale=1.5), shape, numpy.float64)
    m = array.reshape(shape[0], -1)
    if m.shape[0] <= m.shape[1]:
        gram = m.dot(m.T)
    else:
        gram = m.T.dot(m)
    numpy.testing.assert_allclose(
        gram, 2.25 * numpy.eye(len(gram)), atol=1e-12)


@pytest.mark.parametrize('mode,shape', [
    ('projection', (3, 2)), ('embedding', (2, 3)), ('basis', (2, 3)),
    ('basis', (3, 2))])
def test_mode_rejects_shape(mode, shape):
    with pytest.raises(ValueError, match='Cannot make orthogonal'):
        _fill(orthogonal.Orthogonal(mode=mode), shape)


@pytest.mark.parametrize('mode,shape', [
    ('projection', (2, 3)), ('embedding', (3, 2)), ('basis', (2, 2, 1))])
def test_mode_accepts_shape(mode, shape):
    assert _fill(orthogonal.Orthogonal(mode=mode), shape).shape == shape


def test_invalid_mode():
    with pytest.raises(ValueError, match='Invalid mode'):
        orthogonal.Orthogonal(mode='square')


def test_empty_array():
    with pytest.raises(ValueError, match='non-empty'):
        _fill(orthogonal.Orthogonal(), (0, 3))
