"""``chainer.utils.collections_abc``: the abstract collection classes.

The same classes as :mod:`collections.abc` (``Iterable``, ``Sequence``,
``MutableSequence``, ...), under the name Chainer offers them.
"""

from collections.abc import *  # NOQA
from collections.abc import __all__  # NOQA
