"""Utilities to test exported models."""

from onnx_chainer.testing import input_generator  # NOQA
