"""The static graph MNIST example, trained on real MNIST images.

The images come from the local mirror of ``mnist_env`` (conftest.py).
"""

import importlib.util
import math
import pathlib
import re

import numpy

import chainer
from chainer import testing

EXAMPLES_DIR = pathlib.Path(__file__).resolve().parents[2] / 'examples'


def _load_example():
    path = EXAMPLES_DIR / 'static_graph' / 'train_mnist.py'
    spec = importlib.util.spec_from_file_location('static_train_mnist', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_train_mnist_side_effect_model(
        tmp_path, mnist_env, run_example, read_log):
    out = tmp_path / 'result'
    output = run_example(
        'static_graph/train_mnist.py',
        ['--epoch', 1, '--unit', 50, '--model', 'MLPSideEffect',
         '--out', out, '--noplot'], tmp_path, mnist_env)
    log = read_log(out / 'log')
    assert [e['epoch'] for e in log] == [1]
    entry = log[0]
    assert entry['iteration'] == 80
    assert math.isfinite(entry['main/loss'])
    assert entry['main/accuracy'] > 0.5
    assert entry['validation/main/accuracy'] > 0.7
    # The static_code counter runs on every call, replays included: 80
    # training mini-batches and 20 of evaluation.
    assert re.search(r'Calls of the network: 100\b', output)
    with open(out / 'cg.dot') as f:
        assert 'StaticScheduleFunction' in f.read()


def test_static_training_matches_define_by_run(
        tmp_path, mnist_env, monkeypatch):
    example = _load_example()
    monkeypatch.setenv('CHAINER_MNIST_BASE_URL',
                       mnist_env['CHAINER_MNIST_BASE_URL'])
    root = chainer.dataset.get_dataset_root()
    chainer.dataset.set_dataset_root(mnist_env['CHAINER_DATASET_ROOT'])
    try:
        train, _ = chainer.datasets.get_mnist()
    finally:
        chainer.dataset.set_dataset_root(root)

    class DynamicMLP(example.MLP):
        forward = example.MLP.forward.__wrapped__

    models = []
    optimizers = []
    for cls in (example.MLP, DynamicMLP):
        model = chainer.links.Classifier(cls(50, 10))
        optimizer = chainer.optimizers.Adam()
        optimizer.setup(model)
        models.append(model)
        optimizers.append(optimizer)
    x, t = chainer.dataset.concat_examples(train[:100])
    models[0](x, t)
    models[1](x, t)
    models[1].copyparams(models[0])
    for i in range(10):
        x, t = chainer.dataset.concat_examples(train[i * 100:(i + 1) * 100])
        losses = []
        for model, optimizer in zip(models, optimizers):
            optimizer.update(model, x, t)
            losses.append(float(model.loss.array))
        testing.assert_allclose(losses[0], losses[1], rtol=1e-4)
    for (_, p_static), (_, p_dynamic) in zip(
            sorted(models[0].namedparams()), sorted(models[1].namedparams())):
        numpy.testing.assert_allclose(p_static.array, p_dynamic.array,
                                      rtol=1e-4, atol=1e-6)
