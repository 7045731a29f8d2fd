import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import links as L
from chainer import optimizer_hooks
from chainer import optimizers
from chainer import testing
from chainer.graph_optimizations import static_graph as static_graph_module


def _forward_of(cls):
    """The undecorated forward of a static chain class."""
    return cls.forward.__wrapped__


class MLP(chainer.Chain):

    def __init__(self, n_in=6, n_units=8, n_out=3):
        super(MLP, self).__init__()
        with self.init_scope():
            self.l1 = L.Linear(n_in, n_units)
            self.l2 = L.Linear(n_units, n_units)
            self.l3 = L.Linear(n_units, n_out)

    @chainer.static_graph
    def forward(self, x):
        h = F.relu(self.l1(x))
        h = F.tanh(self.l2(h)) + h
        return self.l3(h)


class DynamicMLP(MLP):

    forward = _forward_of(MLP)


class LeNet(chainer.Chain):

    def __init__(self):
        super(LeNet, self).__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(1, 3, 3)
            self.conv2 = L.Convolution2D(3, 4, 3)
            self.fc = L.Linear(None, 5)

    @chainer.static_graph
    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.conv1(x)), 2)
        h = F.relu(self.conv2(h))
        return self.fc(h)


class DynamicLeNet(LeNet):

    forward = _forward_of(LeNet)


class LSTMModel(chainer.Chain):
    """A stateful LSTM unrolled over the time steps of one input."""

    def __init__(self):
        super(LSTMModel, self).__init__()
        with self.init_scope():
            self.lstm = L.LSTM(4, 5)
            self.out = L.Linear(5, 3)

    @chainer.static_graph
    def forward(self, xs):
        self.lstm.reset_state()
        h = None
        for x in F.separate(xs, axis=1):
            h = self.lstm(x)
        return self.out(h)


class DynamicLSTMModel(LSTMModel):

    forward = _forward_of(LSTMModel)


class BNModel(chainer.Chain):

    def __init__(self):
        super(BNModel, self).__init__()
        with self.init_scope():
            self.l1 = L.Linear(6, 5)
            self.bn = L.BatchNormalization(5)
            self.l2 = L.Linear(5, 3)

    @chainer.static_graph
    def forward(self, x):
        return self.l2(F.relu(self.bn(self.l1(x))))


class DynamicBNModel(BNModel):

    forward = _forward_of(BNModel)


def _train_side_by_side(static_cls, dynamic_cls, make_batch, n_steps,
                        make_optimizer):
    static_model = static_cls()
    dynamic_model = dynamic_cls()
    x0, t0 = make_batch(numpy.random.RandomState(0))
    static_model(x0)
    dynamic_model(x0)
    dynamic_model.copyparams(static_model)
    optimizers_ = []
    for model in (static_model, dynamic_model):
        optimizer = make_optimizer()
        optimizer.setup(model)
        optimizer.add_hook(optimizer_hooks.WeightDecay(1e-4))
        optimizers_.append(optimizer)
    rng = numpy.random.RandomState(1)
    for step in range(n_steps):
        x, t = make_batch(rng)
        losses = []
        for model, optimizer in zip((static_model, dynamic_model),
                                    optimizers_):
            loss = F.softmax_cross_entropy(model(x), t)
            model.cleargrads()
            loss.backward()
            optimizer.update()
            losses.append(float(loss.array))
        testing.assert_allclose(losses[0], losses[1], atol=1e-5, rtol=1e-4)
    for (name, p_static), (_, p_dynamic) in zip(
            sorted(static_model.namedparams()),
            sorted(dynamic_model.namedparams())):
        testing.assert_allclose(p_static.array, p_dynamic.array,
                                atol=1e-5, rtol=1e-4)
    return static_model


def _classification_batch(shape, n_classes=3):
    def make_batch(rng):
        x = rng.uniform(-1, 1, shape).astype(numpy.float32)
        t = rng.randint(0, n_classes, shape[0]).astype(numpy.int32)
        return x, t
    return make_batch


def test_mlp_100_steps_match_define_by_run():
    model = _train_side_by_side(
        MLP, DynamicMLP, _classification_batch((7, 6)), 100,
        lambda: optimizers.MomentumSGD(lr=0.05))
    # One schedule for the training signature, recorded once.
    assert len(model.schedule_manager.schedules) == 1


def test_lenet_100_steps_match_define_by_run():
    _train_side_by_side(
        LeNet, DynamicLeNet, _classification_batch((4, 1, 10, 10), 5), 100,
        optimizers.Adam)


def test_lstm_100_steps_match_define_by_run():
    _train_side_by_side(
        LSTMModel, DynamicLSTMModel, _classification_batch((4, 3, 4)), 100,
        lambda: optimizers.SGD(lr=0.1))


def test_batch_normalization_steps_match_define_by_run():
    model = _train_side_by_side(
        BNModel, DynamicBNModel, _classification_batch((8, 6)), 20,
        lambda: optimizers.SGD(lr=0.1))
    assert model.bn.avg_mean is not None


def _copied_pair(static_cls, dynamic_cls, x):
    static_model = static_cls()
    dynamic_model = dynamic_cls()
    static_model(x)
    dynamic_model(x)
    dynamic_model.copyparams(static_model)
    return static_model, dynamic_model


def test_batch_normalization_running_statistics_and_test_mode():
    rng = numpy.random.RandomState(2)
    x = rng.uniform(size=(8, 6)).astype(numpy.float32)
    static_model, dynamic_model = _copied_pair(BNModel, DynamicBNModel, x)
    for _ in range(3):
        x = rng.uniform(size=(8, 6)).astype(numpy.float32)
        static_model(x)
        static_model.schedule_manager.end_forward()
        dynamic_model(x)
    testing.assert_allclose(static_model.bn.avg_mean,
                            dynamic_model.bn.avg_mean)
    testing.assert_allclose(static_model.bn.avg_var,
                            dynamic_model.bn.avg_var)
    with chainer.using_config('train', False):
        for _ in range(2):
            x = rng.uniform(size=(8, 6)).astype(numpy.float32)
            testing.assert_allclose(static_model(x).array,
                                    dynamic_model(x).array)


def test_input_gradient_and_accumulation():
    rng = numpy.random.RandomState(3)
    x_data = rng.uniform(size=(4, 6)).astype(numpy.float32)
    static_model, dynamic_model = _copied_pair(MLP, DynamicMLP, x_data)
    for model in (static_model, dynamic_model):
        model.cleargrads()
    for _ in range(3):
        x_data = rng.uniform(size=(4, 6)).astype(numpy.float32)
        grads = []
        for model in (static_model, dynamic_model):
            x = chainer.Variable(x_data)
            # The gradients of the parameters add up without cleargrads.
            F.sum(model(x) ** 2).backward()
            grads.append(x.grad)
        testing.assert_allclose(grads[0], grads[1], rtol=1e-5)
    testing.assert_allclose(static_model.l1.W.grad, dynamic_model.l1.W.grad,
                            rtol=1e-5)


def test_two_calls_in_one_iteration_use_two_schedules():
    rng = numpy.random.RandomState(4)
    x1 = rng.uniform(size=(4, 6)).astype(numpy.float32)
    x2 = rng.uniform(size=(4, 6)).astype(numpy.float32)
    static_model, dynamic_model = _copied_pair(MLP, DynamicMLP, x1)
    static_model.schedule_manager.end_forward()
    for _ in range(3):
        for model in (static_model, dynamic_model):
            model.cleargrads()
            loss = F.sum(model(x1) * model(x2))
            loss.backward()
        testing.assert_allclose(static_model.l2.W.grad,
                                dynamic_model.l2.W.grad, rtol=1e-5)
    (schedules,) = static_model.schedule_manager.schedules.values()
    assert len(schedules) == 2


def test_one_schedule_per_signature():
    model = MLP()
    rng = numpy.random.RandomState(5)
    for shape in [(4, 6), (3, 6), (4, 6)]:
        model(rng.uniform(size=shape).astype(numpy.float32))
        model.schedule_manager.end_forward()
    with chainer.using_config('train', False):
        model(rng.uniform(size=(4, 6)).astype(numpy.float32))
    with chainer.using_config('enable_backprop', False):
        model(rng.uniform(size=(4, 6)).astype(numpy.float32))
    assert len(model.schedule_manager.schedules) == 4


def test_schedules_built_are_announced_as_chainer_prints_them(capsys):
    # Chainer 7.8 prints these lines whatever the verbosity: once a
    # schedule is recorded, and on the first backward pass of a schedule,
    # which records a backward schedule too.
    model = MLP()
    rng = numpy.random.RandomState(6)
    for _ in range(3):
        model.cleargrads()
        F.sum(model(rng.uniform(size=(4, 6)).astype(numpy.float32))).backward()
    assert capsys.readouterr().out.splitlines() == [
        'end of build_schedule()',
        'Creating new backward schedule...',
        'end of build_schedule()',
    ]
    with chainer.using_config('train', False):
        for _ in range(2):
            model(rng.uniform(size=(4, 6)).astype(numpy.float32))
    assert capsys.readouterr().out.splitlines() == [
        'end of build_schedule()']


def test_minimize_cache_size_drops_schedules_on_mode_change():
    class Model(chainer.Chain):
        def __init__(self):
            super(Model, self).__init__()
            with self.init_scope():
                self.l1 = L.Linear(3, 2)

        @chainer.static_graph(minimize_cache_size=True)
        def forward(self, x):
            return self.l1(x)

    model = Model()
    x = numpy.ones((2, 3), numpy.float32)
    model(x)
    model.schedule_manager.end_forward()
    with chainer.using_config('train', False):
        model(x)
    assert len(model.schedule_manager.schedules) == 1


def test_replaced_parameter_array_is_used():
    model = MLP()
    x = numpy.ones((2, 6), numpy.float32)
    with chainer.using_config('train', False):
        model(x)
        model.l3.b.array = model.l3.b.array + 1
        y = model(x)
    model.l3.b.array -= 1
    expected = _forward_of(MLP)(model, x).array + 1
    testing.assert_allclose(y.array, expected, rtol=1e-6)


def test_nested_and_list_arguments():
    class Model(chainer.Chain):
        def __init__(self):
            super(Model, self).__init__()
            with self.init_scope():
                self.l1 = L.Linear(3, 2)

        @chainer.static_graph
        def forward(self, xs, pair):
            a, b = pair
            return self.l1(xs[0] + xs[1]), [a * b, (a + b,)]

    model = Model()
    rng = numpy.random.RandomState(6)
    for _ in range(2):
        x0, x1, a, b = [rng.uniform(size=(2, 3)).astype(numpy.float32)
                        for _ in range(4)]
        y, (ab, (apb,)) = model([x0, chainer.Variable(x1)], (a, b))
        model.schedule_manager.end_forward()
        testing.assert_allclose(ab.array, a * b)
        testing.assert_allclose(apb.array, a + b)
        testing.assert_allclose(
            y.array, x0.dot(model.l1.W.array.T) + x1.dot(model.l1.W.array.T)
            + model.l1.b.array, rtol=1e-5)


def test_static_code_runs_on_replay_other_code_does_not():
    calls = []

    @chainer.static_code
    def count(n):
        calls.append(n)

    @chainer.static_code(func_name='scale')
    def scaled(inputs):
        x, = inputs
        return x * 2

    class Model(chainer.Chain):
        def __init__(self):
            super(Model, self).__init__()
            self.plain_calls = 0

        @chainer.static_graph
        def forward(self, x):
            self.plain_calls += 1
            count(1)
            h = F.relu(x)
            doubled = scaled(inputs=[h.array])
            return h + doubled

    model = Model()
    rng = numpy.random.RandomState(7)
    for _ in range(3):
        x = rng.uniform(-1, 1, (2, 3)).astype(numpy.float32)
        with chainer.using_config('train', False):
            y = model(x)
        testing.assert_allclose(y.array, 3 * numpy.maximum(x, 0))
    assert calls == [1, 1, 1]
    assert model.plain_calls == 1


def test_static_code_outside_a_static_chain_just_runs():
    @chainer.static_code
    def add_one(x):
        return x + 1

    assert add_one(1) == 2


def test_use_static_graph_false_runs_define_by_run():
    model = MLP()
    x = numpy.ones((2, 6), numpy.float32)
    with chainer.using_config('use_static_graph', False):
        y = model(x)
    assert not hasattr(model, 'schedule_manager')
    assert y.creator.label == 'LinearFunction'


def test_force_test_define_by_run():
    class Model(chainer.Chain):
        def __init__(self):
            super(Model, self).__init__()
            with self.init_scope():
                self.l1 = L.Linear(3, 2)

        @chainer.static_graph(force_test_define_by_run=True)
        def forward(self, x):
            return self.l1(x)

    model = Model()
    x = numpy.ones((2, 3), numpy.float32)
    with chainer.using_config('train', False):
        model(x)
    assert not hasattr(model, 'schedule_manager')
    y = model(x)
    assert isinstance(y.creator,
                      static_graph_module.StaticScheduleFunction)


def test_replayed_output_is_one_schedule_node():
    model = MLP()
    x = numpy.ones((2, 6), numpy.float32)
    for _ in range(2):
        y = model(x)
        assert y.creator is model.static_schedule
        model.schedule_manager.end_forward()


class _Returns(chainer.Chain):

    def __init__(self, body):
        super(_Returns, self).__init__()
        self.body = body

    @chainer.static_graph
    def forward(self, x):
        return self.body(self, x)


def test_error_output_not_computed_in_chain():
    model = _Returns(lambda self, x: x)
    with pytest.raises(RuntimeError, match='not computed by a function'):
        model(numpy.ones(3, numpy.float32))
    # A failed recording is retried on the next call.
    assert model.static_schedule.is_empty()


def test_error_input_computed_outside_chain():
    outside = F.exp(chainer.Variable(numpy.ones(3, numpy.float32)))
    model = _Returns(lambda self, x: x * outside)
    with pytest.raises(RuntimeError, match='computed outside the chain'):
        model(numpy.ones(3, numpy.float32))


def test_error_no_backprop_mode_inside_chain():
    def body(self, x):
        with chainer.no_backprop_mode():
            return F.relu(x)
    model = _Returns(body)
    with pytest.raises(RuntimeError, match='enable_backprop=False'):
        model(numpy.ones(3, numpy.float32))


def test_error_nested_static_chains():
    inner = MLP()
    model = _Returns(lambda self, x: inner(x))
    with pytest.raises(RuntimeError, match='Not allowed to nest'):
        model(numpy.ones((2, 6), numpy.float32))


def test_error_bad_arguments():
    model = MLP()
    with pytest.raises(TypeError, match='keyword'):
        model(x=numpy.ones((2, 6), numpy.float32))
    with pytest.raises(TypeError, match='variables, arrays'):
        model(3)
    with pytest.raises(TypeError, match='unexpected arguments'):
        chainer.static_graph(verbose=1)


def test_constant_created_in_chain_is_kept():
    def body(self, x):
        c = chainer.Variable(numpy.full(3, 2, numpy.float32))
        return x * c
    model = _Returns(body)
    for value in (1, 3):
        y = model(numpy.full(3, value, numpy.float32))
        model.schedule_manager.end_forward()
        testing.assert_allclose(y.array, numpy.full(3, 2 * value))


class DropoutMLP(chainer.Chain):

    def __init__(self):
        super(DropoutMLP, self).__init__()
        with self.init_scope():
            self.l1 = L.Linear(6, 8)
            self.l2 = L.Linear(8, 3)

    @chainer.static_graph
    def forward(self, x):
        return self.l2(F.dropout(F.relu(self.l1(x)), 0.4))


class DynamicDropoutMLP(DropoutMLP):

    forward = _forward_of(DropoutMLP)


def test_dropout_masks_are_drawn_again_on_replay():
    rng = numpy.random.RandomState(8)
    x = rng.uniform(size=(5, 6)).astype(numpy.float32)
    static_model, dynamic_model = _copied_pair(
        DropoutMLP, DynamicDropoutMLP, x)
    static_model.schedule_manager.end_forward()
    for seed in range(5):
        x = rng.uniform(size=(5, 6)).astype(numpy.float32)
        grads = []
        for model in (static_model, dynamic_model):
            numpy.random.seed(seed)
            model.cleargrads()
            F.sum(model(x) ** 2).backward()
            grads.append(model.l1.W.grad)
        testing.assert_allclose(grads[0], grads[1], rtol=1e-5)
    dropout_step = [step for step in static_model.static_schedule._node_steps
                    if step.node.label == 'Dropout']
    # The mask is an attribute of the dropout node: its backward is traced.
    assert dropout_step[0].plan is not None


def test_backward_plans_cover_linear_and_activations():
    model = MLP()
    x = numpy.ones((2, 6), numpy.float32)
    F.sum(model(x)).backward()
    steps = model.static_schedule._node_steps
    assert [step.node.label for step in steps if step.plan is None] == []


class _ScaleByMaskOutsideGraph(chainer.FunctionNode):
    """Its backward computes an array in Python from the retained input."""

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return x * (x > 0),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        mask = (x.array > 0).astype(gy.dtype)
        return gy * chainer.Variable(mask),


class _MulByHeldArray(chainer.FunctionNode):
    """Its gradient node holds an array made in backward."""

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return x * x,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return _Scale(2 * x.array).apply(grad_outputs)


class _Scale(chainer.FunctionNode):

    def __init__(self, scale):
        self.scale = scale

    def forward(self, inputs):
        return inputs[0] * self.scale,

    def backward(self, indexes, grad_outputs):
        return _Scale(self.scale).apply(grad_outputs)


class _Custom(chainer.Chain):

    def __init__(self, node_class):
        super(_Custom, self).__init__()
        self.node_class = node_class
        with self.init_scope():
            self.l1 = L.Linear(3, 3)

    @chainer.static_graph
    def forward(self, x):
        h, = self.node_class().apply((self.l1(x),))
        return F.sum(h)


@pytest.mark.parametrize('node_class', [_ScaleByMaskOutsideGraph,
                                        _MulByHeldArray])
def test_backward_outside_function_nodes_is_not_replayed_stale(node_class):
    model = _Custom(node_class)
    rng = numpy.random.RandomState(9)
    for _ in range(4):
        x = rng.uniform(-1, 1, (4, 3)).astype(numpy.float32)
        model.cleargrads()
        model(x).backward()
        static_grad = model.l1.W.grad.copy()
        model.cleargrads()
        _forward_of(_Custom)(model, x).backward()
        testing.assert_allclose(static_grad, model.l1.W.grad, rtol=1e-5)
    custom_step, = [step for step in model.static_schedule._node_steps
                    if isinstance(step.node, node_class)]
    assert custom_step.plan is None


def test_enable_double_backprop_runs_define_by_run():
    class Model(chainer.Chain):
        def __init__(self):
            super(Model, self).__init__()
            with self.init_scope():
                self.l1 = L.Linear(3, 2)

        @chainer.static_graph(enable_double_backprop=True)
        def forward(self, x):
            return F.tanh(self.l1(x))

    model = Model()
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    gx, = chainer.grad([F.sum(model(x))], [x], enable_double_backprop=True)
    F.sum(gx * gx).backward()
    assert model.l1.W.grad is not None


def test_loss_scale_reaches_parameters():
    rng = numpy.random.RandomState(10)
    x = rng.uniform(size=(3, 6)).astype(numpy.float32)
    static_model, dynamic_model = _copied_pair(MLP, DynamicMLP, x)
    static_model.schedule_manager.end_forward()
    for _ in range(2):
        for model in (static_model, dynamic_model):
            model.cleargrads()
            F.sum(model(x)).backward(loss_scale=8.0)
        testing.assert_allclose(static_model.l1.W.grad,
                                dynamic_model.l1.W.grad, rtol=1e-5)


def test_static_code_reads_an_array_no_variable_keeps():
    seen = []

    @chainer.static_code
    def record(inputs):
        seen.append(inputs[0].copy())

    def body(self, x):
        record(inputs=[F.exp(x).array])
        return x * 2

    model = _Returns(body)
    for value in (0, 1):
        x = numpy.full(2, value, numpy.float32)
        with chainer.using_config('train', False):
            model(x)
    testing.assert_allclose(seen[1], numpy.exp(numpy.ones(2)), rtol=1e-6)


def test_new_variable_of_an_array_gets_new_data_and_no_gradient():
    def body(self, x):
        h = F.exp(x)
        # A new leaf made of h's array: its data follows h, its gradient
        # does not flow back into h.
        detached = chainer.Variable(h.array)
        again = chainer.Variable(x.array)
        return F.sum(h * detached + again)

    model = _Returns(body)
    for value in (0.5, 1.5):
        x = chainer.Variable(numpy.full(2, value, numpy.float32))
        y = model(x)
        y.backward()
        model.schedule_manager.end_forward()
        e = numpy.exp(value)
        testing.assert_allclose(y.array, 2 * (e * e + value), rtol=1e-6)
        testing.assert_allclose(x.grad, numpy.full(2, e * e), rtol=1e-6)


def test_variables_held_by_the_chain_are_read_each_call():
    class Model(chainer.Chain):
        def __init__(self):
            super(Model, self).__init__()
            self.scale = chainer.Variable(numpy.full(3, 2, numpy.float32))
            self.shift = chainer.Variable(numpy.ones(3, numpy.float32),
                                          requires_grad=False)

        @chainer.static_graph
        def forward(self, x):
            return F.sum(x * self.scale + self.shift)

    model = Model()
    for value in (1, 2, 3):
        model.shift.array = numpy.full(3, value, numpy.float32)
        model.scale.cleargrad()
        y = model(numpy.full(3, value, numpy.float32))
        y.backward()
        testing.assert_allclose(y.array, 3 * (2 * value + value))
        # The gradient reaches a plain variable as it does a parameter.
        testing.assert_allclose(model.scale.grad, numpy.full(3, value))
        assert model.shift.grad is None


def test_test_mode_schedule_sees_running_statistics_of_later_training():
    rng = numpy.random.RandomState(11)
    x = rng.uniform(size=(8, 6)).astype(numpy.float32)
    static_model, dynamic_model = _copied_pair(BNModel, DynamicBNModel, x)
    static_model.schedule_manager.end_forward()
    for _ in range(3):
        x = rng.uniform(size=(8, 6)).astype(numpy.float32)
        for model in (static_model, dynamic_model):
            model.cleargrads()
            F.sum(model(x)).backward()
        with chainer.using_config('train', False):
            testing.assert_allclose(static_model(x).array,
                                    dynamic_model(x).array, rtol=1e-5)


class _Elementwise(chainer.Chain):

    def __init__(self):
        super(_Elementwise, self).__init__()
        with self.init_scope():
            self.w = chainer.Parameter(numpy.linspace(
                0.5, 1.5, 4).astype(numpy.float32))

    @chainer.static_graph
    def forward(self, x):
        # Gradients passed on unchanged (+ constant), made by one gradient
        # node (* constant, sigmoid), by two inputs (* w) and summed over
        # two uses of h.
        h = x * 1.5 + 0.25
        h = F.sigmoid(h) * self.w
        return F.sum(h * h + h * 2)


class _DynamicElementwise(_Elementwise):

    forward = _forward_of(_Elementwise)


def test_compiled_replay_gives_define_by_run_gradients():
    static, dynamic = _Elementwise(), _DynamicElementwise()
    rng = numpy.random.RandomState(4)
    for _ in range(4):
        x_data = rng.uniform(-1, 1, 4).astype(numpy.float32)
        results = []
        for model in (static, dynamic):
            model.cleargrads()
            x = chainer.Variable(x_data.copy())
            loss = model(x)
            loss.backward()
            results.append((loss.array, x.grad, model.w.grad))
        for a, b in zip(*results):
            testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    compiled = [entry for entry in static.static_schedule._backward_program
                if entry[3] is None]
    assert any(entry[2] is None for entry in compiled)
    assert any(entry[2] is not None for entry in compiled)


class _Constants(chainer.Chain):

    # Constant operands of every kind: Python floats and ints, a NumPy
    # scalar of another dtype, and one the input's dtype cannot hold.
    def __init__(self, big=1e10):
        super().__init__()
        self.big = big

    @chainer.static_graph
    def forward(self, x):
        h = (x * 1.0001 + 0.5) * 3 + numpy.float64(0.1)
        h = 2.5 * h - 1
        return F.sum((h + self.big) * 1e-10 + h * h)


class _DynamicConstants(_Constants):

    forward = _forward_of(_Constants)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('shape', [(3,), (2, 3), ()])
def test_constant_operations_replay_define_by_run_bit_for_bit(dtype, shape):
    static, dynamic = _Constants(), _DynamicConstants()
    rng = numpy.random.RandomState(7)
    with numpy.errstate(over='ignore', invalid='ignore'):
        for _ in range(3):
            x_data = rng.uniform(-1, 1, shape).astype(dtype)
            results = []
            for model in (static, dynamic):
                x = chainer.Variable(x_data.copy())
                loss = model(x)
                loss.backward()
                results.append((loss.array, x.grad))
            for a, b in zip(*results):
                assert type(a) is type(b) and a.dtype == b.dtype
                numpy.testing.assert_array_equal(a, b)
    kernels = [step.kernel is not None
               for step in static.static_schedule._node_steps]
    # Arrays with dimensions replay the constant operations through their
    # kernels, except the one whose constant overflows float16; a
    # 0-dimensional array (NumPy scalars from its operations) never does.
    assert any(kernels) == (shape != ())
    backward_kernels = [step.plan.kernel is not None
                        for step in static.static_schedule._node_steps
                        if step.plan is not None]
    assert any(backward_kernels) == (shape != ())
    if dtype == numpy.float16 and shape != ():
        big_step, = [step for step in static.static_schedule._node_steps
                     if getattr(step.node, 'value', None) == 1e10]
        assert big_step.kernel is None


def test_a_subclass_of_a_constant_operation_replays_its_own_forward():
    from chainer.functions.math import basic_math

    class Doubled(basic_math.MulConstant):
        def forward(self, inputs):
            return super().forward(inputs)[0] * 2,

    class Chain(chainer.Chain):
        @chainer.static_graph
        def forward(self, x):
            return F.sum(Doubled(3.0).apply((x,))[0])

    model = Chain()
    for _ in range(3):
        x = chainer.Variable(numpy.ones(4, numpy.float32))
        y = model(x)
        assert float(y.array) == 24.0
        y.backward()
    step, = [step for step in model.static_schedule._node_steps
             if isinstance(step.node, Doubled)]
    assert step.kernel is None


def test_constant_kernel_hands_other_arrays_to_forward():
    from chainer.functions.math import basic_math
    node = basic_math.MulConstant(1.0001)
    kernel = node._replay_forward((numpy.ones(3, numpy.float32),))
    x32 = numpy.linspace(-1, 1, 3).astype(numpy.float32)
    for same in (x32, x32[:0]):
        numpy.testing.assert_array_equal(
            kernel(same), node.forward((same,))[0])
    # A float64 array would get the float32 constant from the kernel, a
    # 0-dimensional one a NumPy scalar: both go to forward.
    for other in (x32.astype(numpy.float64), numpy.array(3.0, numpy.float32)):
        y = kernel(other)
        expected = node.forward((other,))[0]
        assert type(y) is numpy.ndarray and y.dtype == expected.dtype
        numpy.testing.assert_array_equal(y, expected)
    assert node._replay_forward((numpy.ones(3, numpy.int32),)) is None
    assert node._replay_forward((numpy.array(1, numpy.float32),)) is None
