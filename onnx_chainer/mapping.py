"""The built-in converters, keyed by function name."""

import contextlib

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


@contextlib.contextmanager
def patch_functions():
    """Wraps the functions of ``_wrapped_functions`` while exporting."""
    originals = {name: getattr(F, name) for name in _wrapped_functions}
    for name, func in originals.items():
        setattr(F, name, fake_as_funcnode(
            func, name, experimental_warning=False))
    try:
        yield
    finally:
        for name, func in originals.items():
            setattr(F, name, func)
