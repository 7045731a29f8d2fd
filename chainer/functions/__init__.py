"""Differentiable functions on variables and arrays (``chainer.functions``).
"""

from chainer.functions.array.broadcast import broadcast  # NOQA
from chainer.functions.array.broadcast import broadcast_to  # NOQA
from chainer.functions.array.cast import cast  # NOQA
from chainer.functions.array.copy import copy  # NOQA
from chainer.functions.array.get_item import get_item  # NOQA
from chainer.functions.array.reshape import reshape  # NOQA
from chainer.functions.array.transpose import transpose  # NOQA

from chainer.functions.math.basic_math import absolute  # NOQA
from chainer.functions.math.basic_math import add  # NOQA
from chainer.functions.math.exponential import exp  # NOQA
from chainer.functions.math.exponential import log  # NOQA
from chainer.functions.math.exponential import log10  # NOQA
from chainer.functions.math.exponential import log2  # NOQA
from chainer.functions.math.identity import identity  # NOQA
from chainer.functions.math.matmul import batch_matmul  # NOQA
from chainer.functions.math.matmul import matmul  # NOQA
from chainer.functions.math.sum import sum  # NOQA
from chainer.functions.math.sum import sum_to  # NOQA
