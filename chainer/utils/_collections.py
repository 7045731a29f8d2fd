"""Collections used across the framework.

``OrderedDict`` is :class:`collections.OrderedDict`; the name is kept for
code that imports it from here.
"""

from collections import OrderedDict  # NOQA
