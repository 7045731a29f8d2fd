"""Conditions for skipping doctests."""

import os

from chainer.testing import helper

_gpu_limit = int(os.getenv('CHAINER_TEST_GPU_LIMIT', '-1'))


def skipif(condition):
    """Returns ``condition``, except on Read the Docs where it is False.

    Documentation builds must run every example, or the output would be
    missing from the pages.
    """
    if os.environ.get('READTHEDOCS') == 'True':
        return False
    return condition


def skipif_requires_satisfied(*requirements):
    """True (skip) when all the requirement strings are satisfied."""
    return skipif(helper._requirements_satisfied(requirements))


def skipif_not_enough_cuda_devices(device_count):
    """True (skip) when ``CHAINER_TEST_GPU_LIMIT`` is below the count."""
    return skipif(0 <= _gpu_limit < device_count)
