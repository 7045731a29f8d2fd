"""The MNIST examples, trained for an epoch on real MNIST images.

The images come from a local mirror of 8,000 training and 2,000 test
images (see ``mnist_env`` in conftest.py); ten classes make chance 0.1.
"""

import math
import os

import pytest


def _check_epoch_entry(entry, epoch, iteration):
    assert entry['epoch'] == epoch
    assert entry['iteration'] == iteration
    assert math.isfinite(entry['main/loss'])
    assert entry['validation/main/accuracy'] > 0.7
    assert entry['main/accuracy'] > 0.5
    assert entry['elapsed_time'] > 0


def test_train_mnist_then_autoload(
        tmp_path, mnist_env, run_example, read_log, read_npz):
    out = tmp_path / 'result'
    output = run_example(
        'mnist/train_mnist.py',
        ['--epoch', 1, '--unit', 50, '--out', out], tmp_path, mnist_env)

    assert 'Device: @numpy' in output
    assert '# unit: 50' in output
    # PrintReport's header, then one row per epoch.
    assert 'validation/main/accuracy' in output

    log = read_log(out / 'log')
    # The Evaluator and LogReport also run once before training (epoch 0).
    assert [e['epoch'] for e in log] == [0, 1]
    _check_epoch_entry(log[1], 1, 80)
    assert log[0]['validation/main/accuracy'] < 0.3

    snapshot = read_npz(out / 'snapshot_iter_80')
    assert snapshot['updater/model:main/predictor/l1/W'].shape == (50, 784)
    assert snapshot['updater/model:main/predictor/l3/b'].shape == (10,)
    assert snapshot['updater/iteration'] == 80
    assert snapshot['updater/optimizer:main/t'] == 80
    assert 'extensions/LogReport/_log' in snapshot

    with open(out / 'cg.dot') as f:
        graph = f.read()
    assert graph.startswith('digraph')
    assert 'LinearFunction' in graph
    assert 'SoftmaxCrossEntropy' in graph

    for name in ('loss.png', 'accuracy.png'):
        with open(out / name, 'rb') as f:
            assert f.read(8) == b'\x89PNG\r\n\x1a\n'

    # A second run to 2 epochs resumes from the snapshot it finds in --out.
    run_example(
        'mnist/train_mnist.py',
        ['--epoch', 2, '--unit', 50, '--out', out, '--autoload', '--noplot'],
        tmp_path, mnist_env)
    log = read_log(out / 'log')
    assert [e['epoch'] for e in log] == [0, 1, 2]
    _check_epoch_entry(log[2], 2, 160)
    # n_retains=1 keeps only the newest snapshot.
    assert sorted(p for p in os.listdir(out) if p.startswith('snapshot')) \
        == ['snapshot_iter_160']


def test_train_mnist_resume(tmp_path, mnist_env, run_example, read_log):
    out = tmp_path / 'result'
    run_example(
        'mnist/train_mnist.py',
        ['-e', 1, '-u', 20, '-b', 200, '-o', out, '--noplot'],
        tmp_path, mnist_env)
    run_example(
        'mnist/train_mnist.py',
        ['-e', 2, '-u', 20, '-b', 200, '-o', tmp_path / 'resumed',
         '--noplot', '--resume', out / 'snapshot_iter_40'],
        tmp_path, mnist_env)
    log = read_log(tmp_path / 'resumed' / 'log')
    # The log restored from the snapshot goes on from where it stopped.
    assert [e['iteration'] for e in log] == [0, 40, 80]
    # 80 iterations of a 20-unit MLP from an unseeded start: well above
    # chance (0.1), though not always above 0.7.
    assert log[2]['validation/main/accuracy'] > 0.5


def test_train_mnist_custom_loop(tmp_path, mnist_env, run_example,
                                 read_npz):
    out = tmp_path / 'result'
    output = run_example(
        'mnist/train_mnist_custom_loop.py',
        ['--epoch', 1, '--unit', 50, '--out', out], tmp_path, mnist_env)
    lines = output.splitlines()
    test_line = next(line for line in lines
                     if line.startswith('test mean  loss:'))
    assert float(test_line.rsplit('accuracy: ', 1)[1]) > 0.7
    model = read_npz(out / 'mlp.model')
    assert model['predictor/l2/W'].shape == (50, 50)
    state = read_npz(out / 'mlp.state')
    assert state['t'] == 80
    assert state['predictor/l1/W/m'].shape == (50, 784)

    # --resume reads both files back and goes on training.
    output = run_example(
        'mnist/train_mnist_custom_loop.py',
        ['--epoch', 1, '--unit', 50, '--out', tmp_path / 'resumed',
         '--resume', out], tmp_path, mnist_env)
    assert read_npz(tmp_path / 'resumed' / 'mlp.state')['t'] == 160


def test_train_mnist_custom_loop_resume_missing(tmp_path, run_example):
    output = run_example(
        'mnist/train_mnist_custom_loop.py',
        ['--resume', tmp_path / 'missing'], tmp_path, returncode=1)
    assert 'ValueError: `args.resume` ("{}") is specified, but it does not ' \
        'exist'.format(tmp_path / 'missing') in output


@pytest.mark.parametrize('script', [
    'mnist/train_mnist_data_parallel.py',
    'mnist/train_mnist_model_parallel.py',
])
def test_train_mnist_parallel_on_cpu(
        script, tmp_path, mnist_env, run_example, read_log, read_npz):
    # Both "devices" are the CPU.
    out = tmp_path / 'result'
    output = run_example(
        script, ['-d', -1, '-D', -1, '--epoch', 1, '--unit', 50,
                 '--batchsize', 100, '--out', out],
        tmp_path, mnist_env)
    assert 'Devices: @numpy, @numpy' in output
    log = read_log(out / 'log')
    assert len(log) == 1
    _check_epoch_entry(log[0], 1, 80)
    assert any(key.startswith('updater/model:main/predictor/')
               for key in read_npz(out / 'snapshot_iter_80'))
