"""Static graph optimizations: record a chain's schedule, then replay it.

:func:`chainer.static_graph` lives in the module ``static_graph`` of this
package (the module keeps that name, as in Chainer).
"""

from chainer.graph_optimizations.static_graph_utilities import static_code  # NOQA
