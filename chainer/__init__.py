"""Chainer: a flexible framework of neural networks, define-by-run."""

import numpy

from chainer import _environment_check
from chainer import _version
from chainer import backends  # NOQA
from chainer import cuda  # NOQA (the alias module, loaded as in Chainer 7.8)
from chainer import configuration  # NOQA
from chainer import function_hook  # NOQA
from chainer import initializer  # NOQA
from chainer import initializers  # NOQA
from chainer import utils  # NOQA
from chainer import variable
from chainer import warnings  # NOQA

from chainer import types  # NOQA
from chainer import function_node  # NOQA
from chainer import function  # NOQA
from chainer import _backprop
from chainer import _compiled_core  # NOQA
from chainer import functions  # NOQA
from chainer import distributions  # NOQA
from chainer import device_resident  # NOQA
from chainer import link_hook  # NOQA
from chainer import link  # NOQA
from chainer import sequential  # NOQA
from chainer import serializer  # NOQA
from chainer import reporter  # NOQA
from chainer import links  # NOQA
from chainer import link_hooks  # NOQA
from chainer import dataset  # NOQA
from chainer import datasets  # NOQA
from chainer import iterators  # NOQA
from chainer import optimizer  # NOQA
from chainer import optimizer_hooks  # NOQA
from chainer import optimizers  # NOQA
from chainer import serializers  # NOQA
from chainer import training  # NOQA
from chainer import computational_graph  # NOQA
from chainer import function_hooks  # NOQA
from chainer.graph_optimizations.static_graph import static_graph  # NOQA
from chainer.graph_optimizations.static_graph_utilities import static_code  # NOQA

from chainer import backend  # NOQA
from chainer.backend import get_device  # NOQA
from chainer.backend import using_device  # NOQA
from chainer.backends import cuda  # NOQA
from chainer.backends.cuda import should_use_cudnn  # NOQA
from chainer.backends.cuda import should_use_cudnn_tensor_core  # NOQA
from chainer.configuration import config  # NOQA
from chainer.configuration import DebugMode  # NOQA
from chainer.configuration import get_dtype  # NOQA
from chainer.configuration import global_config  # NOQA
from chainer.configuration import is_debug  # NOQA
from chainer.configuration import mixed16  # NOQA
from chainer._runtime_info import print_runtime_info  # NOQA
from chainer.configuration import set_debug  # NOQA
from chainer.configuration import using_config  # NOQA
from chainer.function import Function  # NOQA
from chainer.function import FunctionAdapter  # NOQA
from chainer.function_hook import FunctionHook  # NOQA
from chainer.function_hook import get_function_hooks  # NOQA
from chainer.function_node import FunctionNode  # NOQA
from chainer.function_node import grad  # NOQA
from chainer.initializer import Initializer  # NOQA
from chainer.device_resident import DeviceResident  # NOQA
from chainer.distribution import cross_entropy  # NOQA
from chainer.distribution import Distribution  # NOQA
from chainer.distribution import kl_divergence  # NOQA
from chainer.distribution import register_kl  # NOQA
from chainer.link import Chain  # NOQA
from chainer.link import ChainList  # NOQA
from chainer.link import Link  # NOQA
from chainer.link_hook import LinkHook  # NOQA
from chainer.optimizer import GradientMethod  # NOQA
from chainer.optimizer import Optimizer  # NOQA
from chainer.optimizer import UpdateRule  # NOQA
from chainer.sequential import Sequential  # NOQA
from chainer.reporter import DictSummary  # NOQA
from chainer.reporter import get_current_reporter  # NOQA
from chainer.reporter import report  # NOQA
from chainer.reporter import report_scope  # NOQA
from chainer.reporter import Reporter  # NOQA
from chainer.reporter import Summary  # NOQA
from chainer.serializer import AbstractSerializer  # NOQA
from chainer.serializer import Deserializer  # NOQA
from chainer.serializer import Serializer  # NOQA
from chainer.variable import as_array  # NOQA
from chainer.variable import as_variable  # NOQA
from chainer.variable import Parameter  # NOQA
from chainer.variable import Variable  # NOQA
from chainer._backprop_mode import force_backprop_mode  # NOQA
from chainer._backprop_mode import no_backprop_mode  # NOQA
from chainer.functions import array  # NOQA
from chainer.functions.math import basic_math  # NOQA
from chainer.link_hook import _get_link_hooks  # NOQA

# Modules Chainer 7.8 loads with the package, which code written for it
# reaches as attributes (``chainer.memory_layouts``,
# ``chainer.utils.conv_nd_kernel``) without importing them.
from chainer import _backprop_utils  # NOQA
from chainer import memory_layouts  # NOQA
from chainer.functions.pooling import average_pooling_nd_kernel  # NOQA
from chainer.functions.pooling import max_pooling_nd_kernel  # NOQA
from chainer.utils import _collections  # NOQA
from chainer.utils import conv_nd_kernel  # NOQA

import chainerx  # NOQA

__version__ = _version.__version__

backward = _backprop.backward

_environment_check.check()

# Set to True to silence the warnings of experimental features.
disable_experimental_feature_warning = False

# The registries of function hooks and link hooks of each thread.
_thread_local = function_hook._thread_local


class _FallbackType:
    """Type of :data:`Fallback`."""

    def __repr__(self):
        return 'Fallback'


#: Returned by ``FunctionNode.forward_chainerx`` when it cannot compute the
#: outputs with the given inputs, so that the NumPy/CuPy forward runs.
Fallback = _FallbackType()


def get_compute_mode():
    """Returns ``chainer.config.compute_mode``."""
    return config.compute_mode


def is_arrays_compatible(arrays):
    """Returns whether the arrays are all of one array type (and device).

    Args:
        arrays (iterable): Arrays; ``None`` entries are ignored.
    """
    arrays = [a for a in arrays if a is not None]
    if not arrays:
        return True
    first = type(arrays[0])
    if not all(type(a) is first for a in arrays):
        return False
    if first is numpy.ndarray:
        return True
    device = backend.get_device_from_array(arrays[0])
    return all(backend.get_device_from_array(a) == device for a in arrays)


def get_array_types():
    """Returns the array types a Variable can hold."""
    return variable._ARRAY_TYPES


def get_cpu_array_types():
    """Returns the array types of host memory."""
    return (numpy.ndarray,)


