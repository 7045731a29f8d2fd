"""An extension that cuts the graphs of the observed variables."""

from chainer import configuration
from chainer.training import extension
from chainer import variable


class unchain_variables(extension.Extension):
    """Trainer extension that unchains the graphs of observed variables.

    Reported variables keep their graph when
    ``chainer.config.keep_graph_on_report`` is on; this extension then
    calls :meth:`~chainer.Variable.unchain_backward` on every variable of
    the observation after the other extensions (priority 0), to free the
    graphs. It fires at iterations where the flag was on at the previous
    call.
    """

    priority = 0

    def __init__(self):
        self._prev_flag = None

    def initialize(self, _):
        self._prev_flag = configuration.config.keep_graph_on_report

    def trigger(self, _):
        """Fires when ``keep_graph_on_report`` was on at the last call."""
        flag = self._prev_flag
        self._prev_flag = configuration.config.keep_graph_on_report
        return flag

    def __call__(self, trainer):
        for value in trainer.observation.values():
            if isinstance(value, variable.Variable):
                value.unchain_backward()
