"""The helpers of chainer.testing itself (chainer/testing/__init__.py)."""

from chainer import testing


def test_run_module_does_nothing_when_imported():
    assert testing.run_module('some.module', __file__) is None
