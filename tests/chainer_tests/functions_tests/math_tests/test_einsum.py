import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import testing
from chainer.functions.math import einsum
from chainer.utils import type_check


CASES = [
    ('ij,jk->ik', [(2, 3), (3, 4)]),
    ('ij,jk', [(2, 3), (3, 4)]),
    ('ij,ik,jkl->il', [(2, 3), (2, 4), (3, 4, 2)]),
    ('ii->i', [(3, 3)]),
    ('ii', [(3, 3)]),
    ('iij->ji', [(3, 3, 2)]),
    ('ij->i', [(3, 2)]),
    ('ji', [(3, 2)]),
    ('ij->', [(3, 2)]),
    ('i,i', [(3,), (3,)]),
    ('i,j->ij', [(3,), (2,)]),
    ('ii,i->i', [(3, 3), (3,)]),
    ('...i,...i->...', [(2, 3, 4), (2, 3, 4)]),
    ('i...->...', [(2, 3)]),
    ('bIj,bjk->bkI', [(2, 3, 2), (2, 2, 4)]),
    ('ij->ij', [(0, 3)]),
]


@testing.parameterize(*testing.product({
    'spec_shapes': CASES,
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestEinSum(testing.FunctionTestCase):

    def setUp(self):
        self.spec, self.shapes = self.spec_shapes
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-4}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype)
                     for s in self.shapes)

    def forward(self, inputs, device):
        return F.einsum(self.spec, *inputs),

    def forward_expected(self, inputs):
        y = numpy.einsum(self.spec, *[x.astype(numpy.float64)
                                      for x in inputs])
        return numpy.asarray(y, self.dtype),


def test_sublist_form():
    x1 = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    x2 = numpy.arange(8, dtype=numpy.float32).reshape(2, 4)
    w = numpy.ones((3, 4, 5), numpy.float32)
    y = F.einsum(x1, [0, 1], x2, [0, 2], w, [1, 2, 3], [0, 3])
    numpy.testing.assert_allclose(
        y.array, numpy.einsum('ij,ik,jkl->il', x1, x2, w))
    y = F.einsum(x1, [Ellipsis, 1], x2, [Ellipsis, 2], w, [1, 2, 3])
    numpy.testing.assert_allclose(
        y.array, numpy.einsum('ij,ik,jkl->il', x1, x2, w))


def test_implicit_output_order():
    x = numpy.ones((2, 3), numpy.float32)
    # Upper-case letters sort before lower-case ones.
    assert F.einsum('iJ', x).shape == (3, 2)
    assert F.einsum('ba', x).shape == (3, 2)
    assert F.einsum('i...', numpy.ones((2, 3, 4), numpy.float32)).shape \
        == (3, 4, 2)


def test_mixed_dtypes():
    a = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    b = chainer.Variable(numpy.ones((3, 4), numpy.float64))
    y = F.einsum('ij,jk->ik', a, b)
    assert y.dtype == numpy.float64
    y.grad = numpy.ones((2, 4))
    y.backward()
    assert a.grad.dtype == numpy.float32
    assert b.grad.dtype == numpy.float64


def test_classes():
    x = chainer.Variable(numpy.ones((3, 3), numpy.float32))
    y = F.einsum('ii->i', x)
    assert type(y.creator).__name__ == 'EinSum'
    gy = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
    gx, = chainer.grad([y], [x], [gy], enable_double_backprop=True)
    assert type(gx.creator).__name__ == 'DiagEinSum'
    numpy.testing.assert_array_equal(gx.array, numpy.diag([0., 1., 2.]))


@pytest.mark.parametrize('args, error', [
    ((), 'No input operands'),
    (('ij',), 'Number of einsum subscripts'),
    (('ij->ij', 'x', 'x'), 'Number of einsum subscripts'),
    (('ij.->i', 'x'), 'Invalid Ellipses'),
    (('ij->i->j', 'x'), "only contain one '->'"),
    (('ij-i', 'x'), "only contain one '->'"),
    (('i1->i', 'x'), 'not a valid symbol'),
    (('ij->k', 'x'), 'did not appear in the input'),
    (('ij->ii', 'x'), 'multiple times'),
    (('i', 'x'), 'more dimensions than subscripts'),
    (('ij->...', 'x'), 'Output character ... did not appear'),
], ids=['no_operands', 'no_array', 'too_many_arrays', 'ellipsis', 'arrows',
        'arrow_half', 'symbol', 'output_letter', 'output_repeat',
        'many_dims', 'output_ellipsis'])
def test_bad_subscripts(args, error):
    x = numpy.ones((2, 3), numpy.float32)
    args = tuple(x if a == 'x' else a for a in args)
    with pytest.raises(ValueError, match=error):
        F.einsum(*args)


def test_bad_sublist():
    with pytest.raises(TypeError, match='int or Ellipsis'):
        F.einsum(numpy.ones((2, 3), numpy.float32), ['i', 'j'])


def test_shape_mismatch():
    with pytest.raises(type_check.InvalidType):
        F.einsum('ij,jk->ik', numpy.ones((2, 3), numpy.float32),
                 numpy.ones((2, 4), numpy.float32))


def test_integer_input():
    with pytest.raises(type_check.InvalidType):
        F.einsum('ij->i', numpy.ones((2, 3), numpy.int32))


def test_too_few_dimensions():
    # As in the original, the type check indexes an axis that is missing.
    with pytest.raises(IndexError):
        F.einsum('ijk->i', numpy.ones((2, 3), numpy.float32))


@pytest.mark.parametrize('subscripts, shapes', [
    ('...i,...i', [(2,), (1, 2)]),
    ('...i,...i', [(2, 2), (1, 2)]),
    ('...i,...i', [(2, 2), (3, 2)]),
])
def test_ellipsis_shapes_must_match(subscripts, shapes):
    xs = [numpy.zeros(s, numpy.float32) for s in shapes]
    with pytest.raises(type_check.InvalidType):
        F.einsum(subscripts, *xs)


@pytest.mark.parametrize('subscripts, shapes', [
    ('...->', [(2,)]),
    ('j...i->ij', [(2, 1, 3)]),
    ('i,...i->', [(2,), (3, 2)]),
])
def test_sum_over_ellipsis_refused(subscripts, shapes):
    xs = [numpy.zeros(s, numpy.float32) for s in shapes]
    with pytest.raises(ValueError):
        F.einsum(subscripts, *xs)


def test_empty_ellipsis_may_be_left_out():
    x = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    y = F.einsum('...i->i', x)
    y.grad = numpy.array([3., 4.], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [3., 4.])


def test_sublist_letters_follow_integers():
    # 26 comes after 0 in the implicit output, as its letter does.
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    y = F.einsum(x, [26, 0])
    numpy.testing.assert_array_equal(y.array, x.T)
    y = F.einsum(x, [0, -1], [-1, 0])
    numpy.testing.assert_array_equal(y.array, x.T)


@pytest.mark.parametrize('in_subs, out_sub, shapes, out_shape', [
    ('i', 'ij', [(3,)], (3, 4)),
    ('', 'i', [()], (3,)),
    (',i', 'ij', [(), (2,)], (2, 3)),
    (',ij', 'i', [(), (3, 4)], (3,)),
    ('i', 'ii', [(3,)], (3, 3)),
])
def test_diag_einsum(in_subs, out_sub, shapes, out_shape):
    from chainer.functions.math import einsum as einsum_module
    rng = numpy.random.RandomState(0)
    xs = [rng.uniform(-1, 1, s) for s in shapes]
    y, = einsum_module.DiagEinSum(
        in_subs=in_subs, out_sub=out_sub, out_shape=out_shape).apply(xs)
    assert y.shape == out_shape
    # Reference: the sum over the input letters, broadcast along the new
    # ones and put on the diagonal of repeated ones.
    out_letters = ''.join(dict.fromkeys(out_sub))
    letters = set(in_subs) - {','}
    computed = ''.join(c for c in out_letters if c in letters)
    expected_core = numpy.einsum('{}->{}'.format(in_subs, computed), *xs)
    expected = numpy.zeros(out_shape)
    for index in numpy.ndindex(*out_shape):
        value = dict()
        consistent = True
        for c, k in zip(out_sub, index):
            if value.setdefault(c, k) != k:
                consistent = False
        if consistent:
            expected[index] = expected_core[
                tuple(value[c] for c in computed)]
    numpy.testing.assert_allclose(y.array, expected)

    def f(*xs):
        return einsum_module.DiagEinSum(
            in_subs=in_subs, out_sub=out_sub, out_shape=out_shape).apply(xs)

    gy = rng.uniform(-1, 1, out_shape)
    ggxs = [rng.uniform(-1, 1, s) for s in shapes]
    chainer.gradient_check.check_double_backward(f, xs, gy, ggxs)


def test_symbols_of_the_sublist_form():
    assert einsum.einsum_symbols == (
        'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')
    assert einsum.einsum_symbols_set == set(einsum.einsum_symbols)
    a = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    # Axis numbers 0 and 27 are the letters 'A' and 'b'.
    y = F.einsum(a, [0, 27], [27])
    numpy.testing.assert_array_equal(
        y.array, F.einsum('Ab->b', a).array)
    with pytest.raises(ValueError, match='not a valid symbol'):
        F.einsum('i1->i', a)
