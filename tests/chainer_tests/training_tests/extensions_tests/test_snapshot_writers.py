import os

import numpy
import pytest

from chainer import serializers
from chainer.training.extensions import snapshot_writers


TARGET = {'a': numpy.arange(6, dtype=numpy.float32).reshape(2, 3),
          'b/c': numpy.array(3)}


def _check(path):
    with numpy.load(path) as f:
        assert sorted(f.files) == ['a', 'b/c']
        numpy.testing.assert_array_equal(f['a'], TARGET['a'])
        assert int(f['b/c']) == 3


@pytest.mark.parametrize('cls', [
    snapshot_writers.SimpleWriter, snapshot_writers.ThreadWriter,
    snapshot_writers.ProcessWriter, snapshot_writers.ThreadQueueWriter,
    snapshot_writers.ProcessQueueWriter,
], ids=lambda cls: cls.__name__)
def test_writers_write_npz(tmp_path, cls):
    writer = cls()
    writer('snap_1', str(tmp_path), TARGET)
    writer('snap_2', str(tmp_path), TARGET)
    writer.finalize()
    writer.finalize()
    assert sorted(os.listdir(str(tmp_path))) == ['snap_1', 'snap_2']
    _check(str(tmp_path / 'snap_1'))
    _check(str(tmp_path / 'snap_2'))


def test_savefun_keywords_are_passed(tmp_path):
    calls = []

    def savefun(path, target, **kwargs):
        calls.append(kwargs)
        serializers.save_npz(path, target, **kwargs)

    writer = snapshot_writers.SimpleWriter(savefun=savefun,
                                           compression=False)
    writer('snap', str(tmp_path), TARGET)
    assert calls == [{'compression': False}]
    _check(str(tmp_path / 'snap'))


@pytest.mark.parametrize('cls', [
    snapshot_writers.SimpleWriter, snapshot_writers.ThreadWriter,
    snapshot_writers.ThreadQueueWriter,
], ids=lambda cls: cls.__name__)
def test_post_save_hooks(tmp_path, cls):
    seen = []
    writer = cls()
    writer._add_cleanup_hook(
        lambda: seen.append(sorted(os.listdir(str(tmp_path)))))
    writer('snap_1', str(tmp_path), TARGET)
    writer('snap_2', str(tmp_path), TARGET)
    writer.finalize()
    assert seen == [['snap_1'], ['snap_1', 'snap_2']]


def test_failed_save_leaves_no_file(tmp_path):
    def savefun(path, target):
        with open(path, 'w') as f:
            f.write('partial')
        raise IOError('disk full')

    writer = snapshot_writers.SimpleWriter(savefun=savefun)
    with pytest.raises(IOError):
        writer('snap', str(tmp_path), TARGET)
    assert os.listdir(str(tmp_path)) == []


def test_custom_task_for_queue_writer(tmp_path):
    calls = []

    def task(filename, outdir, target):
        calls.append((filename, outdir, sorted(target)))

    writer = snapshot_writers.ThreadQueueWriter(task=task)
    writer('snap', str(tmp_path), TARGET)
    writer.finalize()
    assert calls == [('snap', str(tmp_path), ['a', 'b/c'])]


def test_base_writer_is_abstract(tmp_path):
    with pytest.raises(NotImplementedError):
        snapshot_writers.Writer()('x', str(tmp_path), TARGET)
