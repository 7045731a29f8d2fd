import importlib.util

import pytest

from chainer import links
from chainer.links.theano import theano_function


@pytest.mark.skipif(importlib.util.find_spec('theano') is not None,
                    reason='Theano is installed')
def test_requires_theano():
    assert links.TheanoFunction is theano_function.TheanoFunction
    with pytest.raises(RuntimeError, match='Theano is not available'):
        links.TheanoFunction(inputs=[], outputs=[])
