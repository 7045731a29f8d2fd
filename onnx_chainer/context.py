"""Names of the values of the graph being exported."""

import chainer
from onnx import numpy_helper

from onnx_chainer import onnx_helper


class Context(object):
    """Shares the names of the exported values across converters.

    A value is any object that stands for an edge of the traced graph: a
    :class:`~chainer.Variable`, a :class:`~chainer.Parameter`, a
    :class:`~chainer.variable.VariableNode` whose variable is gone, or an
    array. Names are keyed by the object's identity, and the object is kept
    alive as long as the context, so that an identity is never reused. The
    name of a variable is also given to its array, since some functions
    (``F.where``) keep the array of an input rather than the variable.

    Attributes:
        name_list (dict): ``(name, pinned, object)`` keyed by ``id(object)``.
            A pinned name (a user-given input or output name) is never
            replaced.
        parameters (list): Arrays the converters added as initializers.
        constants (list): ``Constant`` nodes the converters added; the
            exporter inserts them before the nodes of the function.
        implicit_inputs (dict): Variables or arrays that feed a function but
            are neither network inputs, parameters nor outputs of another
            function, keyed by name. They become initializers.
        param_to_link (dict): ``(onnx link name, link)`` keyed by the id of
            each parameter of the model.
    """

    def __init__(self, model):
        self.name_list = {}
        self.parameters = []
        self.constants = []
        self.implicit_inputs = {}
        self.param_to_link = {}
        links = dict(model.namedlinks())
        for name, param in model.namedparams():
            link_name = name[:name.rindex('/')]
            if link_name in links:
                self.param_to_link[id(param)] = (
                    onnx_helper.cleanse_param_name(link_name),
                    links[link_name])
            self.set_name(param, onnx_helper.cleanse_param_name(name))

    def get_name(self, variable):
        """Returns the name of ``variable``, naming it ``v<N>`` if new."""
        entry = self.name_list.get(id(variable))
        if entry is not None:
            return entry[0]
        new_name = 'v{}'.format(len(self.name_list))
        self.set_name(variable, new_name)
        return new_name

    def set_name(self, variable, name, pinned=False):
        """Names ``variable`` (and the array of a variable).

        Args:
            variable: The object to name.
            name (str): Its ONNX name.
            pinned (bool): If ``True``, later calls cannot rename it.
        """
        entry = self.name_list.get(id(variable))
        if entry is not None and entry[1]:
            raise ValueError(
                'the name {!r} is pinned and cannot be replaced by '
                '{!r}'.format(entry[0], name))
        self.name_list[id(variable)] = (name, pinned, variable)
        if isinstance(variable, chainer.Variable) and \
                variable.array is not None:
            array = variable.array
            self.name_list[id(array)] = (name, pinned, array)

    def is_pinned(self, variable):
        """Tells whether the name of ``variable`` is pinned."""
        entry = self.name_list.get(id(variable))
        return entry is not None and entry[1]

    def add_param(self, array, name, use_original_name=False):
        """Adds ``array`` as an initializer of the graph.

        Args:
            array (numpy.ndarray): The value.
            name (str): Its name; unless ``use_original_name``, it is
                prefixed with the node name of the function being converted
                (``'BatchNormalization_0_param_avg_mean'``).
            use_original_name (bool): Use ``name`` as is.

        Returns:
            str: The name of the initializer.
        """
        if use_original_name:
            onnx_name = name
        else:
            if not name.startswith(('/', '_')):
                name = '/' + name
            onnx_name = '{}_{}'.format(
                onnx_helper.get_func_name(),
                onnx_helper.cleanse_param_name(name))
        self.set_name(array, onnx_name)
        self.parameters.append(array)
        return onnx_name

    def add_const(self, array, name):
        """Adds ``array`` as a ``Constant`` node placed before the function.

        Args:
            array (numpy.ndarray): The value.
            name (str): A suffix for its name; it must not contain ``'/'``.

        Returns:
            str: The name of the constant.
        """
        if '/' in name:
            raise ValueError('a constant name cannot contain "/"')
        onnx_name = '{}_const_{}'.format(onnx_helper.get_func_name(), name)
        self.set_name(array, onnx_name)
        tensor = numpy_helper.from_array(array, name=onnx_name)
        self.constants.append(onnx_helper.make_node(
            'Constant', [], [onnx_name], value=tensor))
        return onnx_name

    def get_link(self, param):
        """Returns ``(onnx link name, link)`` owning ``param``, or ``None``."""
        return self.param_to_link.get(id(param))
