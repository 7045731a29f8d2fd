import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import gradient_check
from chainer import testing
from chainer.functions.loss import softmax_cross_entropy as sce_module
from chainer.utils import type_check


GPU_CONFIGS = [{}, {'use_cuda': True}]


def _log_softmax(x):
    x = x.astype(numpy.float64)
    m = x.max(axis=1, keepdims=True)
    return x - m - numpy.log(numpy.exp(x - m).sum(axis=1, keepdims=True))


def _expected_loss(x, t, normalize=True, class_weight=None, ignore_label=-1,
                   reduce='mean'):
    log_y = _log_softmax(x)
    if class_weight is not None:
        shape = [1] * x.ndim
        shape[1] = -1
        log_y = log_y * class_weight.reshape(shape)
    valid = t != ignore_label
    t_safe = numpy.where(valid, t, 0)
    log_p = numpy.take_along_axis(log_y, t_safe[:, None], axis=1)[:, 0]
    loss = -log_p * valid
    if reduce == 'no':
        return loss.astype(x.dtype)
    count = valid.sum() if normalize else len(x)
    return numpy.asarray(loss.sum() / max(count, 1), x.dtype)


def _expected_soft_loss(x, t, soft_target_loss, reduce):
    log_y = _log_softmax(x)
    t = t.astype(numpy.float64)
    if soft_target_loss == 'kl-divergence':
        loss = (t * (numpy.log(t + 1e-7) - log_y)).sum(axis=1)
    else:
        loss = -(t * log_y).sum(axis=1)
    if reduce == 'mean':
        loss = numpy.asarray(loss.mean())
    return loss.astype(x.dtype)


def _labels(shape, n_class, ignore_label):
    t = numpy.random.randint(0, n_class, shape[:1] + shape[2:])
    t.ravel()[::3] = ignore_label
    return t.astype(numpy.int32)


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
        test.check_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        test.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
    else:
        test.check_forward_options = {'atol': 1e-5, 'rtol': 1e-5}
        test.check_backward_options = {'atol': 1e-4, 'rtol': 1e-4}
        test.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}


@testing.parameterize(*testing.product({
    'shape': [(4, 3), (2, 3, 2), (2, 3, 2, 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['mean', 'no'],
    'enable_double_backprop': [False, True],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, GPU_CONFIGS)
class TestSoftmaxCrossEntropy(testing.FunctionTestCase):

    def setUp(self):
        _tolerances(self)
        self.skip_double_backward_test = not self.enable_double_backprop

    def generate_inputs(self):
        x = numpy.random.uniform(-2, 2, self.shape).astype(self.dtype)
        return x, _labels(self.shape, self.shape[1], -1)

    def forward(self, inputs, device):
        x, t = inputs
        return F.softmax_cross_entropy(
            x, t, reduce=self.reduce,
            enable_double_backprop=self.enable_double_backprop),

    def forward_expected(self, inputs):
        x, t = inputs
        return _expected_loss(x, t, reduce=self.reduce),


@testing.parameterize(*testing.product({
    'class_weight': [False, True],
    'ignore_label': [-1, 1],
    'normalize': [True, False],
    'reduce': ['mean', 'no'],
    'enable_double_backprop': [False, True],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, GPU_CONFIGS)
class TestSoftmaxCrossEntropyOptions(testing.FunctionTestCase):

    shape = (3, 4, 2)
    dtype = numpy.float64

    def setUp(self):
        _tolerances(self)
        self.skip_double_backward_test = not self.enable_double_backprop
        self.weight = None
        if self.class_weight:
            self.weight = numpy.random.uniform(0.5, 2, (self.shape[1],))

    def generate_inputs(self):
        x = numpy.random.uniform(-2, 2, self.shape).astype(self.dtype)
        return x, _labels(self.shape, self.shape[1], self.ignore_label)

    def forward(self, inputs, device):
        x, t = inputs
        weight = None
        if self.weight is not None:
            weight = device.send(self.weight)
        # cache_score varies with normalize to cover both without
        # doubling the number of cases
        return F.softmax_cross_entropy(
            x, t, normalize=self.normalize, cache_score=self.normalize,
            class_weight=weight, ignore_label=self.ignore_label,
            reduce=self.reduce,
            enable_double_backprop=self.enable_double_backprop),

    def forward_expected(self, inputs):
        x, t = inputs
        return _expected_loss(
            x, t, self.normalize, self.weight, self.ignore_label,
            self.reduce),


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'shape': [(2, 3, 2)],
    'soft_target_loss': ['cross-entropy', 'kl-divergence'],
    'reduce': ['mean', 'no'],
    'enable_double_backprop': [False, True],
}))
@testing.fix_random()
@testing.inject_backend_tests(None, GPU_CONFIGS)
class TestSoftTargets(testing.FunctionTestCase):

    def setUp(self):
        _tolerances(self)
        self.skip_double_backward_test = not self.enable_double_backprop
        # The targets are constants: the loss is differentiable by x only.
        t = numpy.random.uniform(0.1, 1, self.shape)
        t /= t.sum(axis=1, keepdims=True)
        self.t = t.astype(self.dtype)

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.softmax_cross_entropy(
            x, device.send(self.t), reduce=self.reduce,
            soft_target_loss=self.soft_target_loss,
            enable_double_backprop=self.enable_double_backprop),

    def forward_expected(self, inputs):
        x, = inputs
        return _expected_soft_loss(
            x, self.t, self.soft_target_loss, self.reduce),


def test_node_class_and_label():
    x = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    loss = F.softmax_cross_entropy(x, numpy.array([0, 1], numpy.int32))
    assert type(loss.creator) is sce_module.SoftmaxCrossEntropy
    assert loss.creator.label == 'SoftmaxCrossEntropy'
    assert loss.dtype == numpy.float32 and loss.shape == ()
    assert isinstance(loss.array, numpy.ndarray)


def test_example_value():
    x = numpy.array([[-1, 0, 1, 2], [2, 0, 1, -1]], numpy.float32)
    t = numpy.array([3, 0], numpy.int32)
    loss = F.softmax_cross_entropy(x, t)
    testing.assert_allclose(loss.array, 0.4401897, atol=1e-6, rtol=0)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_large_logits_are_stable(dtype):
    x = numpy.array([[1000, 0, -1000], [-1000, 1000, 0]], dtype)
    t = numpy.array([0, 2], numpy.int32)
    loss = F.softmax_cross_entropy(x, t, reduce='no')
    assert numpy.isfinite(loss.array).all()
    testing.assert_allclose(loss.array, [0, 1000], rtol=1e-3)


def test_gradient_value():
    x = chainer.Variable(numpy.array([[0., 0.], [0., 0.]], numpy.float32))
    t = numpy.array([0, -1], numpy.int32)
    F.softmax_cross_entropy(x, t).backward()
    # the second sample is ignored; the mean is over one sample
    numpy.testing.assert_allclose(x.grad, [[-0.5, 0.5], [0, 0]])


def _expected_gradient(x, t, class_weight, reduce):
    # d(sum of the losses)/dx: (softmax(x) - onehot(t)) * weight, over the
    # batch size for 'mean'.
    x = numpy.moveaxis(x.astype(numpy.float64), 1, -1)
    y = numpy.exp(x - x.max(axis=-1, keepdims=True))
    y /= y.sum(axis=-1, keepdims=True)
    onehot = numpy.eye(x.shape[-1])[t]
    weight = 1 if class_weight is None else class_weight[t][..., None]
    gx = (y - onehot) * weight
    if reduce == 'mean':
        gx /= t.size
    return numpy.moveaxis(gx, -1, 1)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
@pytest.mark.parametrize('class_weight', [None, [1, 2, 1, 1]])
@pytest.mark.parametrize('layout', ['2-d transposed', '4-d channels-last'])
def test_gradient_of_non_contiguous_scores(layout, class_weight, reduce):
    rng = numpy.random.RandomState(1)
    if layout == '2-d transposed':
        x_data = rng.randn(4, 5).astype(numpy.float32).T
        t = rng.randint(0, 4, 5).astype(numpy.int32)
    else:
        x_data = rng.randn(2, 3, 1, 4).astype(numpy.float32).transpose(
            0, 3, 1, 2)
        t = rng.randint(0, 4, (2, 3, 1)).astype(numpy.int32)
    assert not x_data.flags.c_contiguous
    if class_weight is not None:
        class_weight = numpy.array(class_weight, numpy.float32)
    x = chainer.Variable(x_data)
    loss = F.softmax_cross_entropy(
        x, t, class_weight=class_weight, reduce=reduce)
    F.sum(loss).backward()
    numpy.testing.assert_allclose(
        x.grad, _expected_gradient(x_data, t, class_weight, reduce),
        rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('cache_score', [True, False])
def test_cache_score_gives_same_gradient(cache_score):
    x_data = numpy.random.RandomState(0).randn(5, 4).astype(numpy.float32)
    t = numpy.array([0, 3, 1, -1, 2], numpy.int32)
    grads = []
    for cache in (True, cache_score):
        x = chainer.Variable(x_data)
        F.softmax_cross_entropy(x, t, cache_score=cache).backward()
        grads.append(x.grad)
    numpy.testing.assert_array_equal(grads[0], grads[1])


def test_backward_twice_with_retained_graph():
    x = chainer.Variable(numpy.random.RandomState(1).randn(3, 4))
    t = numpy.array([0, 3, 1], numpy.int32)
    loss = F.softmax_cross_entropy(x, t)
    gx1, = chainer.grad([loss], [x])
    gx2, = chainer.grad([loss], [x])
    numpy.testing.assert_allclose(gx1.array, gx2.array)


def test_fast_path_cannot_be_differentiated_twice():
    x = chainer.Variable(numpy.random.RandomState(2).randn(3, 4))
    t = numpy.array([0, 3, 1], numpy.int32)
    loss = F.softmax_cross_entropy(x, t)
    gx, = chainer.grad([loss], [x], enable_double_backprop=True)
    with pytest.raises(RuntimeError, match='enable_double_backprop=True'):
        gx.grad = numpy.ones_like(gx.array)
        gx.backward()


def test_double_backprop_matches_fast_path():
    rng = numpy.random.RandomState(3)
    x = rng.randn(4, 5, 3)
    t = rng.randint(-1, 5, (4, 3)).astype(numpy.int32)
    w = rng.uniform(0.5, 2, 5)
    for reduce in ('mean', 'no'):
        fast = F.softmax_cross_entropy(x, t, class_weight=w, reduce=reduce)
        slow = F.softmax_cross_entropy(
            x, t, class_weight=w, reduce=reduce, enable_double_backprop=True)
        testing.assert_allclose(fast.array, slow.array, rtol=1e-12)


def test_target_gets_no_gradient():
    x = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    t = chainer.Variable(numpy.full((2, 3), 1 / 3, numpy.float32))
    F.softmax_cross_entropy(x, t).backward()
    assert x.grad is not None
    assert t.grad is None


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_empty_batch(reduce):
    x = chainer.Variable(numpy.zeros((0, 3), numpy.float32))
    t = numpy.zeros((0,), numpy.int32)
    loss = F.softmax_cross_entropy(x, t, reduce=reduce)
    assert loss.shape == (() if reduce == 'mean' else (0,))
    assert float(loss.array.sum()) == 0
    if reduce == 'no':
        loss = F.sum(loss)
    loss.backward()
    assert x.grad.shape == (0, 3)


def test_all_labels_ignored():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    t = numpy.full((2,), -1, numpy.int32)
    loss = F.softmax_cross_entropy(x, t)
    assert float(loss.array) == 0
    loss.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.zeros((2, 3)))


def test_debug_mode_checks_labels():
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.array([0, 3], numpy.int32)
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match='0 <= t < x.shape'):
            F.softmax_cross_entropy(x, t)
        with pytest.raises(ValueError, match='0 <= t < x.shape'):
            F.softmax_cross_entropy(x, t, enable_double_backprop=True)
        F.softmax_cross_entropy(x, numpy.array([0, -1], numpy.int32))


@pytest.mark.parametrize('x_shape, t_shape, t_dtype', [
    ((2, 3), (3,), numpy.int32),
    ((2, 3), (2, 1), numpy.int32),
    ((2, 3, 4), (2, 3), numpy.int32),
    ((2, 3), (2, 4), numpy.float32),
    ((3,), (), numpy.int32),
    ((3,), (3,), numpy.float32),
])
def test_invalid_shapes(x_shape, t_shape, t_dtype):
    x = numpy.zeros(x_shape, numpy.float32)
    t = numpy.zeros(t_shape, t_dtype)
    with pytest.raises(type_check.InvalidType):
        F.softmax_cross_entropy(x, t)


def test_integer_x_is_refused():
    with pytest.raises(type_check.InvalidType):
        F.softmax_cross_entropy(numpy.zeros((2, 3), numpy.int32),
                                numpy.zeros(2, numpy.int32))


@pytest.mark.parametrize('weight, message', [
    (numpy.ones((2, 3), numpy.float32), 'ndim should be 1'),
    (numpy.ones(3, numpy.int32), 'dtype of class_weight'),
    (chainer.Variable(numpy.ones(3, numpy.float32)), 'not a chainer'),
], ids=['ndim', 'dtype', 'variable'])
def test_invalid_class_weight(weight, message):
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.zeros(2, numpy.int32)
    with pytest.raises(ValueError, match=message):
        F.softmax_cross_entropy(x, t, class_weight=weight)


def test_invalid_options():
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.zeros(2, numpy.int32)
    with pytest.raises(ValueError, match='reduce'):
        F.softmax_cross_entropy(x, t, reduce='sum')
    with pytest.raises(ValueError, match='soft_target_loss'):
        F.softmax_cross_entropy(x, t, soft_target_loss='l2')


def test_double_backprop_gradient_of_gradient():
    rng = numpy.random.RandomState(4)
    x = rng.randn(3, 4)
    t = numpy.array([1, 0, 3], numpy.int32)
    gy = numpy.array(1.3)
    ggx = rng.randn(3, 4)
    gradient_check.check_double_backward(
        lambda x: F.softmax_cross_entropy(x, t, enable_double_backprop=True),
        x, gy, ggx, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize('cache_score', [True, False])
def test_cached_softmax_is_exposed_as_y(cache_score):
    x = numpy.array([[0., 1., 2.], [3., 1., -1.]], numpy.float32)
    t = numpy.array([2, 0], numpy.int32)
    loss = F.softmax_cross_entropy(x, t, cache_score=cache_score)
    if cache_score:
        testing.assert_allclose(
            loss.creator.y, numpy.exp(_log_softmax(x)), rtol=1e-6)
    else:
        assert loss.creator.y is None


@pytest.mark.parametrize('label', [3, 7, -5], ids=['n', 'beyond', 'below'])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_unreachable_label_raises_index_error(label, reduce):
    # As indexing the class axis with the label, also with reduce='no',
    # where the loss used to be read from the next row silently.
    x = chainer.Variable(numpy.zeros((3, 3), numpy.float32))
    t = numpy.array([0, label, 1], numpy.int32)
    message = 'index %d is out of bounds for axis 0 with size 3' % label
    with pytest.raises(IndexError, match=message):
        F.softmax_cross_entropy(x, t, reduce=reduce)


@pytest.mark.parametrize('label', [-2, -3])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_negative_label_other_than_ignore_label_raises(label, reduce):
    # Such a label picked class n_class + label silently.
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.array([label, 1], numpy.int32)
    with pytest.raises(ValueError, match=r'0 <= t < x.shape\[1\] or t == -1'):
        F.softmax_cross_entropy(x, t, reduce=reduce)


@pytest.mark.parametrize('label', [3, -2, -5])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_bad_label_raises_with_double_backprop(label, reduce):
    # The differentiable form clipped such labels into the classes.
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.array([0, label], numpy.int32)
    with pytest.raises(ValueError, match=r'0 <= t < x.shape\[1\] or t == -1'):
        F.softmax_cross_entropy(
            x, t, reduce=reduce, enable_double_backprop=True)


def test_other_ignore_label():
    x = numpy.zeros((2, 3), numpy.float32)
    loss = F.softmax_cross_entropy(
        x, numpy.array([5, 1], numpy.int32), ignore_label=5, reduce='no')
    testing.assert_allclose(loss.array, [0, numpy.log(3)], rtol=1e-6)
    with pytest.raises(ValueError, match='or t == 5'):
        F.softmax_cross_entropy(
            x, numpy.array([-1, 1], numpy.int32), ignore_label=5)


@pytest.mark.parametrize('length', [2, 4])
def test_class_weight_of_wrong_length(length):
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.array([0, 2], numpy.int32)
    weight = numpy.ones(length, numpy.float32)
    with pytest.raises(ValueError, match='could not be broadcast'):
        F.softmax_cross_entropy(x, t, class_weight=weight)
    with pytest.raises(type_check.InvalidType):
        F.softmax_cross_entropy(
            x, t, class_weight=weight, enable_double_backprop=True)


@pytest.mark.parametrize('enable_double_backprop', [False, True])
def test_single_class_weight_weighs_every_class(enable_double_backprop):
    rng = numpy.random.RandomState(5)
    x = rng.randn(4, 3)
    t = numpy.array([0, 2, -1, 1], numpy.int32)
    loss = F.softmax_cross_entropy(
        x, t, class_weight=numpy.array([2.5]), reduce='no',
        enable_double_backprop=enable_double_backprop)
    expected = F.softmax_cross_entropy(x, t, reduce='no').array * 2.5
    testing.assert_allclose(loss.array, expected, rtol=1e-12)
