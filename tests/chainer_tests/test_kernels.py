"""chainer._kernels: the door from the operations to the compiled kernels."""

import numpy
import pytest

import chainer
from chainer import _kernels

_ARRAYS = (numpy.ones((2, 3), numpy.float32),)


def test_call_is_none_when_the_kernels_are_off():
    def run(kernels):
        raise AssertionError('ran with the kernels off')
    with chainer.using_config('use_chainerx_cpp', 'never'):
        assert _kernels.call(_ARRAYS, _kernels.FLOATS, run) is None


def test_call_is_none_for_other_dtypes_or_arrays():
    def run(kernels):
        raise AssertionError('ran for arrays the kernels do not take')
    assert _kernels.call((numpy.ones(3, numpy.int32),), _kernels.FLOATS,
                         run) is None
    assert _kernels.call((_ARRAYS[0], _ARRAYS[0].astype('d')),
                         _kernels.FLOATS, run) is None


@pytest.mark.skipif(_kernels._module is None,
                    reason='chainerx_cpp is not built')
def test_call_runs_the_kernel_or_falls_back_on_unsupported():
    def refuse(kernels):
        raise _kernels.Unsupported('not covered')
    # Whatever CHAINER_USE_CHAINERX_CPP says for the rest of the suite.
    with chainer.using_config('use_chainerx_cpp', 'auto'):
        assert _kernels.call(_ARRAYS, _kernels.FLOATS,
                             lambda k: k is _kernels._module) is True
        assert _kernels.call(_ARRAYS, _kernels.FLOATS, refuse) is None


@pytest.mark.skipif(_kernels._module is None,
                    reason='chainerx_cpp is not built')
def test_kernel_calls_records_the_kernels_that_ran_and_refused(kernel_calls):
    # The record that the comparisons of the two paths check.
    x = _ARRAYS[0]
    with chainer.using_config('use_chainerx_cpp', 'auto'):
        assert _kernels.call(_ARRAYS, _kernels.FLOATS,
                             lambda k: k.relu_forward(x)) is not None
        kernel_calls.refuse('relu_')
        assert _kernels.call(_ARRAYS, _kernels.FLOATS,
                             lambda k: k.relu_forward(x)) is None
    assert kernel_calls == ['relu_forward']
    assert kernel_calls.refused == ['relu_forward']
    kernel_calls.check(['relu_forward'], refused=['relu_forward'])
    with pytest.raises(AssertionError, match='refused'):
        kernel_calls.check(['relu_forward'])


@pytest.mark.parametrize('error,use,warned', [
    ("ImportError('undefined symbol: dnnl_gone')", None, True),
    ("OSError('libdnnl.so.3: cannot open shared object file')", None, True),
    ("ImportError('undefined symbol: dnnl_gone')", 'never', False),
    ('ModuleNotFoundError("No module named chainerx_cpp._kernels", '
     'name=name)', None, False),
], ids=['broken', 'no-onednn', 'switched-off', 'not-built'])
def test_kernels_that_do_not_load(error, use, warned,
                                  import_with_failing_module):
    # Kernels that are built and do not load leave the NumPy paths in use
    # with a warning that gives the reason, unless they are switched off;
    # kernels that are not built, silently.
    available, relu, reason, messages = import_with_failing_module(
        'chainerx_cpp._kernels', error, """
import chainerx_cpp
import numpy
y = chainer.functions.relu(numpy.array([-1.0, 2.0], numpy.float32))
print(json.dumps([chainerx_cpp.is_available(), y.array.tolist(),
                  chainerx_cpp.unavailable_reason(), runtime_warnings]))
""", use and {'CHAINER_USE_CHAINERX_CPP': use})
    assert not available and relu == [0.0, 2.0]
    if warned:
        assert messages == ['chainerx_cpp: {}; the operations run on their '
                            'NumPy code, which is slower. Reinstalling '
                            'Chainer rebuilds the kernels; '
                            'CHAINER_USE_CHAINERX_CPP=never silences this '
                            'warning.'.format(reason)]
        assert 'dnnl' in reason
    else:
        assert messages == []
