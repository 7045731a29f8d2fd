from chainer import function_node
from chainer.utils import type_check


def _pair(x):
    if hasattr(x, '__getitem__'):
        return x
    return x, x


class Pooling2D(function_node.FunctionNode):

    """Base class of pooling over a set of 2-D planes."""

    def __init__(self, ksize, stride=None, pad=0, cover_all=True,
                 return_indices=False):
        if stride is None:
            stride = ksize
        self.kh, self.kw = _pair(ksize)
        self.sy, self.sx = _pair(stride)
        self.ph, self.pw = _pair(pad)
        self.cover_all = cover_all
        self.return_indices = return_indices

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
        )

    @property
    def _ksize(self):
        return self.kh, self.kw

    @property
    def _stride(self):
        return self.sy, self.sx

    @property
    def _pad(self):
        return self.ph, self.pw
