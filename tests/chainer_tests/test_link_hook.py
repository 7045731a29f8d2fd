import numpy
import pytest

import chainer
from chainer import link_hook


class Identity(chainer.Link):

    def forward(self, x, scale=1):
        return x


class Recorder(chainer.LinkHook):

    def __init__(self):
        self.log = []

    def added(self, link):
        self.log.append(('added', link))

    def deleted(self, link):
        self.log.append(('deleted', link))

    def forward_preprocess(self, args):
        self.log.append(('pre', args))

    def forward_postprocess(self, args):
        self.log.append(('post', args))


def test_callback_args_repr():
    link = chainer.Link()
    pre = link_hook._ForwardPreprocessCallbackArgs(
        link, 'forward', (1,), {'a': 2})
    assert repr(pre) == (
        "<chainer.link_hook._ForwardPreprocessCallbackArgs link=Link() "
        "forward_name=forward args=(1,) kwargs={'a': 2}>")
    post = link_hook._ForwardPostprocessCallbackArgs(
        link, 'forward', (1,), {}, 3)
    assert repr(post) == (
        '<chainer.link_hook._ForwardPostprocessCallbackArgs link=Link() '
        'forward_name=forward args=(1,) kwargs={} out=3>')
    assert not isinstance(post, link_hook._ForwardPreprocessCallbackArgs)


def test_global_hook_sees_calls():
    hook = Recorder()
    link = Identity()
    x = numpy.ones(2)
    with hook:
        assert link(x, scale=2) is x
        with pytest.raises(KeyError, match='already exists'):
            with hook:
                pass
    kinds = [entry[0] for entry in hook.log]
    assert kinds == ['added', 'pre', 'post', 'deleted']
    assert hook.log[0][1] is None
    pre, post = hook.log[1][1], hook.log[2][1]
    assert pre.link is link and pre.forward_name == 'forward'
    assert pre.args == (x,) and pre.kwargs == {'scale': 2}
    assert post.out is x


def test_registry_is_shared_with_function_hooks():
    assert chainer._get_link_hooks() is chainer._thread_local.link_hooks
    with Recorder() as hook:
        assert chainer._get_link_hooks()[hook.name] is hook
    assert hook.name not in chainer._get_link_hooks()
