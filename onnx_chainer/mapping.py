"""The built-in converters, keyed by function name."""

import contextlib
import inspect
import sys

import chainer.functions as F

from onnx_chainer import functions
from onnx_chainer.functions.converter import FunctionConverter
from onnx_chainer.replace_func import fake_as_funcnode


def _collect_converters():
    prefix = 'convert_'
    return {
        name[len(prefix):]: FunctionConverter(getattr(functions, name))
        for name in dir(functions) if name.startswith(prefix)}


#: Converters of the functions the exporter supports, keyed by the class
#: name of the function node.
converters = _collect_converters()

# Functions of ``chainer.functions`` that are made of several function
# nodes but have one ONNX operator: during export they are wrapped into one
# node named after the function.
_wrapped_functions = (
    'n_step_rnn', 'n_step_birnn', 'n_step_gru', 'n_step_bigru',
    'n_step_lstm', 'n_step_bilstm', 'sign')


def _wrapped_attributes():
    # (module, name) of each wrapped function: in chainer.functions and,
    # for the recurrent ones, in the module defining it, which the links
    # call (L.NStepLSTM calls chainer.functions.rnn.n_step_lstm.n_step_lstm).
    places = []
    for name in _wrapped_functions:
        places.append((F, name))
        module = sys.modules[getattr(F, name).__module__]
        if name.startswith('n_step') and \
                getattr(module, name, None) is getattr(F, name):
            places.append((module, name))
    return places


def _wrap(func, name):
    # One node of the function; for the recurrent ones only on sequences of
    # one length (an ONNX RNN op), other batches being exported step by
    # step, exact for the lengths given.
    node = fake_as_funcnode(func, name, experimental_warning=False)
    if not name.startswith('n_step'):
        return node
    signature = inspect.signature(func)

    def wrapper(*args, **kwargs):
        xs = signature.bind(*args, **kwargs).arguments['xs']
        if len({len(x) for x in xs}) > 1:
            return func(*args, **kwargs)
        return node(*args, **kwargs)
    return wrapper


@contextlib.contextmanager
def patch_functions():
    """Wraps the functions of ``_wrapped_functions`` while exporting."""
    originals = [(module, name, getattr(module, name))
                 for module, name in _wrapped_attributes()]
    for module, name, func in originals:
        setattr(module, name, _wrap(func, name))
    try:
        yield
    finally:
        for module, name, func in originals:
            setattr(module, name, func)
