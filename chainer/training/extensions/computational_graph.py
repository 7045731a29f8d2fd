"""An extension that dumps the computational graph of a reported value."""

import os
import subprocess

from chainer import computational_graph
from chainer import configuration
from chainer.training import extension
from chainer.utils import argument
from chainer import variable


def is_return_code_zero(args):
    """Returns whether a command exits with 0, silencing its output.

    Args:
        args (list of str): The command and its arguments.
    """
    try:
        subprocess.check_call(args, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    except (subprocess.CalledProcessError, OSError):
        return False
    return True


def is_graphviz_available():
    """Returns whether the Graphviz ``dot`` command can be run."""
    return is_return_code_zero(['dot', '-V'])


_var_style = {'shape': 'octagon', 'fillcolor': '#E0E0E0', 'style': 'filled'}
_func_style = {'shape': 'record', 'fillcolor': '#6495ED', 'style': 'filled'}


class DumpGraph(extension.Extension):
    """__init__(root_name, filename='cg.dot', variable_style=None, \
function_style=None)

    Trainer extension that writes the graph of a reported variable.

    At its first call it writes, in the DOT language, the computational
    graph that produced the variable observed under ``root_name`` (e.g.
    ``'main/loss'``) to ``filename`` in the output directory, and renders a
    PNG beside it when Graphviz is installed. It runs once.

    Reported variables normally drop their graph; this extension sets
    ``chainer.config.keep_graph_on_report`` from its ``initialize`` until
    its call, then restores the previous value. Keep its default trigger.

    Args:
        root_name (str): The observation key of the root variable.
        filename (str): Name of the file written. ``out_name`` is an old alias.
        variable_style (dict): DOT attributes of variable nodes; octagons
            by default.
        function_style (dict): DOT attributes of function nodes; records
            by default.
    """

    default_name = 'dump_graph'

    def __init__(self, root_name, filename=None,
                 variable_style=None, function_style=None, **kwargs):
        out_name, = argument.parse_kwargs(kwargs, ('out_name', 'cg.dot'))
        if filename is None:
            filename = out_name
        self._root_name = root_name
        self._filename = filename
        self._variable_style = _var_style if variable_style is None \
            else variable_style
        self._function_style = _func_style if function_style is None \
            else function_style
        self._original_flag = None
        self._flag_called = False

    def initialize(self, trainer):
        """Turns on ``keep_graph_on_report`` until the first call."""
        if not self._flag_called:
            self._original_flag = configuration.config.keep_graph_on_report
            configuration.config.keep_graph_on_report = True

    def trigger(self, trainer):
        """Fires at the first iteration only."""
        if self._flag_called:
            return False
        self._flag_called = True
        return True

    def __call__(self, trainer):
        try:
            var = trainer.observation[self._root_name]
            if not isinstance(var, variable.Variable):
                raise TypeError('root value is not a Variable')
            dot = computational_graph.build_computational_graph(
                [var],
                variable_style=self._variable_style,
                function_style=self._function_style).dump()

            path = os.path.join(trainer.out, self._filename)
            with open(path, 'w') as f:
                f.write(dot)
            if is_graphviz_available():
                image = os.path.splitext(self._filename)[0] + '.png'
                subprocess.check_call(
                    ['dot', '-Tpng', path, '-o',
                     os.path.join(trainer.out, image)])
        finally:
            configuration.config.keep_graph_on_report = self._original_flag

    def serialize(self, serializer):
        """Saves or loads whether it has run and the saved reporting flag."""
        self._original_flag = serializer('_original_flag', self._original_flag)
        self._flag_called = serializer('_flag_called', self._flag_called)
