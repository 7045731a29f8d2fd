"""``export``: trace a Chainer model once and write it as an ONNX model."""

import collections
import functools
import warnings

import chainer
import numpy
import onnx
from onnx import helper
from onnx import numpy_helper
from onnx import shape_inference

from onnx_chainer.context import Context
from onnx_chainer.graph import Graph
from onnx_chainer import mapping
from onnx_chainer.onnx_helper import is_support_non_standard_domain

#: The oldest opset the converters support.
MINIMUM_OPSET_VERSION = 7
#: The newest opset the converters are tested with.
MAXIMUM_OPSET_VERSION = 28


def _runtime_opset_supported(opset_version):
    import onnxruntime
    graph = helper.make_graph(
        [helper.make_node('Identity', ['x'], ['y'])], 'probe',
        [helper.make_tensor_value_info('x', onnx.TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info('y', onnx.TensorProto.FLOAT, [1])])
    model = helper.make_model(
        graph, opset_imports=[helper.make_operatorsetid('', opset_version)])
    try:
        onnxruntime.InferenceSession(
            model.SerializeToString(), providers=['CPUExecutionProvider'])
    except Exception:
        return False
    return True


@functools.lru_cache(maxsize=None)
def default_opset_version():
    """Returns the opset ``export`` uses when none is given.

    It is the newest opset that the installed ``onnx`` defines, that the
    installed ``onnxruntime`` (when there is one) loads, and that the
    converters are tested with (:data:`MAXIMUM_OPSET_VERSION`).
    """
    version = min(onnx.defs.onnx_opset_version(), MAXIMUM_OPSET_VERSION)
    try:
        import onnxruntime  # NOQA
    except ImportError:
        return version
    while version > MINIMUM_OPSET_VERSION and \
            not _runtime_opset_supported(version):
        version -= 1
    return version


def _tensor_type(dtype):
    return helper.np_dtype_to_tensor_dtype(numpy.dtype(dtype))


def convert_parameter(parameter, context):
    """Converts a parameter, variable or array to a named ``TensorProto``.

    Args:
        parameter (~chainer.Variable or array): The value.
        context (~onnx_chainer.context.Context): Gives its name.

    Returns:
        onnx.TensorProto: The tensor.
    """
    if isinstance(parameter, chainer.Variable):
        array = parameter.array
    elif isinstance(parameter, chainer.get_array_types()):
        array = parameter
    else:
        raise ValueError(
            'The type of parameter is unknown. It should be either Parameter '
            'or Variable or ndarray, but the type was {}.'.format(
                type(parameter)))
    array = chainer.backend.CpuDevice().send(array)
    return numpy_helper.from_array(array, context.get_name(parameter))


def _rename_variables(context, variables, named_vars, new_names,
                      prefix='Input'):
    # Give the graph inputs (or outputs) ``variables`` the names
    # ``new_names`` (default: Input_0, Input_1, ...), pinned.
    if isinstance(variables, (list, tuple)):
        if new_names is None:
            new_names = ['{}_{}'.format(prefix, i)
                         for i in range(len(variables))]
        if not isinstance(new_names, (list, tuple)) or \
                len(new_names) != len(variables):
            raise ValueError(
                'Replacing name list is not match with input (or output) '
                'variables')
        pairs = list(zip(variables, new_names))
    elif isinstance(variables, dict):
        if new_names is None:
            new_names = ['{}_{}'.format(prefix, i)
                         for i in range(len(variables))]
        if not isinstance(new_names, (list, tuple, dict)) or \
                len(new_names) != len(variables):
            raise ValueError(
                'Replacing name dict is not match with input (or output) '
                'variables')
        if isinstance(new_names, (list, tuple)):
            new_names = dict(zip(variables.keys(), new_names))
        pairs = []
        for key, var in variables.items():
            if key not in new_names:
                raise ValueError(
                    'Key of replacing name is not found in variables: '
                    '{}'.format(key))
            pairs.append((var, new_names[key]))
    elif isinstance(variables, chainer.Variable):
        if not new_names:
            new_names = prefix + '_0'
        if isinstance(new_names, (list, tuple)):
            if len(new_names) != 1:
                raise ValueError('Replacing name must be single')
            new_names = new_names[0]
        if not isinstance(new_names, str):
            raise ValueError(
                'Type {} is not supported for single variable'.format(
                    type(new_names)))
        pairs = [(variables, new_names)]
    else:
        raise ValueError(
            'Unexpected type of variables: {}'.format(type(variables)))

    renamed = {context.get_name(var): name for var, name in pairs}
    items = [(renamed.get(k, k), v) for k, v in named_vars.items()]
    named_vars.clear()
    named_vars.update(items)
    for var, name in pairs:
        context.set_name(var, name, pinned=True)


def _format_input_shapes(args, shapes):
    # Validate ``input_shapes`` against ``args``; returns one shape per
    # network input, in input order.
    if isinstance(args, (list, tuple)):
        if not isinstance(shapes, list) or len(shapes) != len(args):
            raise ValueError('Customized shapes cannot fit for input list')
        for i, (arg, shape) in enumerate(zip(args, shapes)):
            if not isinstance(shape, (list, tuple)) or \
                    len(shape) != len(arg.shape):
                raise ValueError(
                    'Index-{} shape length must be same as input'.format(i))
        return list(shapes)
    if isinstance(args, dict):
        if not isinstance(shapes, (list, dict)) or len(shapes) != len(args):
            raise ValueError('Customized shapes cannot fit for input dict')
        if isinstance(shapes, list):
            shapes = dict(zip(args.keys(), shapes))
        formatted = []
        for key, arg in args.items():
            if key not in shapes:
                raise ValueError(
                    'Key "{}" is not found in customized shapes'.format(key))
            if len(shapes[key]) != len(arg.shape):
                raise ValueError(
                    'Key "{}" shape length must be same as input'.format(key))
            formatted.append(shapes[key])
        return formatted
    if isinstance(shapes, list):
        if len(shapes) != 1:
            raise ValueError('Customized shape must be single')
    elif isinstance(shapes, tuple):
        shapes = [shapes]
    else:
        raise ValueError(
            'Type {} is not supported for single input'.format(type(shapes)))
    if not isinstance(shapes[0], (list, tuple)) or \
            len(shapes[0]) != len(args.shape):
        raise ValueError('Shape length must be same as input')
    return shapes


class RetainInputHook(chainer.LinkHook):
    """Keeps alive the inputs of every function applied while it is active.

    A function node holds its inputs' variable nodes, and a variable node
    holds its variable only weakly. A variable made inside a forward pass
    (a constant, or an array that ``apply`` wraps) is freed when the pass
    returns, and the exporter would lose its value. While this hook is
    active, ``FunctionNode.apply`` is patched to keep such inputs in
    :attr:`retain_inputs`; an input that is an array gets a variable of its
    own. Variables given to a link's forward are left alone, since the
    caller holds them. Leaving the hook restores the functions' inputs.

    Attributes:
        retain_inputs (list of ~chainer.Variable): The variables kept.
    """

    name = 'RetainInputHook'

    def __init__(self):
        self.link_inputs = set()
        self.retain_inputs = []
        self.replaced_inputs = []
        self.org_apply = chainer.FunctionNode.apply
        hook = self

        def hooked_apply(node, inputs):
            outputs = hook.org_apply(node, inputs)
            input_nodes = list(node.inputs)
            for i, vnode in enumerate(input_nodes):
                var = vnode.get_variable_or_none()
                if var is None:
                    var = chainer.as_variable(inputs[i])
                    input_nodes[i] = var.node
                    hook.retain_inputs.append(var)
                elif id(var) not in hook.link_inputs:
                    hook.retain_inputs.append(var)
            hook.replaced_inputs.append((node, node.inputs))
            node.inputs = tuple(input_nodes)
            return outputs

        self.hooked_apply = hooked_apply

    def _variable_ids(self, args):
        if isinstance(args, chainer.Variable):
            return {id(args)}
        ids = set()
        if isinstance(args, (list, tuple)):
            for arg in args:
                ids |= self._variable_ids(arg)
        elif isinstance(args, dict):
            for arg in args.values():
                ids |= self._variable_ids(arg)
        return ids

    def forward_preprocess(self, args):
        self.link_inputs |= self._variable_ids(args.args)
        self.link_inputs |= self._variable_ids(args.kwargs)

    def forward_postprocess(self, args):
        self.link_inputs.clear()

    def __enter__(self):
        chainer.FunctionNode.apply = self.hooked_apply
        return super().__enter__()

    def __exit__(self, *exc_details):
        chainer.FunctionNode.apply = self.org_apply
        for node, inputs in reversed(self.replaced_inputs):
            node.inputs = inputs
        super().__exit__(*exc_details)


def export(model, args, filename=None, export_params=True,
           graph_name='Graph', save_text=False, opset_version=None,
           input_names=None, output_names=None, train=False,
           return_named_inout=False, external_converters=None,
           external_opset_imports=None, input_shapes=None, no_testcase=False):
    """Exports a Chainer model to ONNX.

    The model is run once, ``y = model(*args)`` (``model(**args)`` for a
    dict, ``model(args)`` for a single array or variable), and every
    function applied on the way becomes one or more ONNX nodes. Parameters
    become initializers named after their paths (``/l1/W`` is
    ``param_l1_W``); inputs are named ``Input_0``, ``Input_1``, ... and
    outputs after the function that computed them (``LinearFunction_1``)
    unless ``input_names``/``output_names`` are given.

    ``external_converters`` adds or replaces converters, keyed by the class
    name of the function node (or the name given to
    :func:`~onnx_chainer.replace_func.as_funcnode`). A converter takes
    :class:`~onnx_chainer.functions.converter.FunctionConverterParams` and
    returns ONNX nodes:

    >>> import onnx_chainer
    >>> from onnx_chainer import onnx_helper
    >>> def custom_converter(params):
    ...     return onnx_helper.make_node(
    ...         'CustomizedRelu', params.input_names, params.output_names,
    ...         domain='chainer'),
    >>> model = onnx_chainer.export(
    ...     chainer.Sequential(F.relu), np.zeros((1, 10), np.float32),
    ...     external_converters={'ReLU': custom_converter},
    ...     external_opset_imports={'chainer': 0})

    Args:
        model (~chainer.Chain): The model to export.
        args (array, ~chainer.Variable, list, tuple or dict): Its inputs.
        filename (str or file-like): Where to write the model; nothing is
            written if ``None``.
        export_params (bool): Include the parameters as initializers.
        graph_name (str): The ``name`` of the ONNX graph.
        save_text (bool): Also write a text dump to ``filename + '.txt'``.
        opset_version (int): The ONNX opset; by default the newest that the
            installed onnx and onnxruntime support (see
            :func:`default_opset_version`).
        input_names (str, list or dict): Names of the graph inputs; a dict
            is keyed like ``args``.
        output_names (str, list or dict): Names of the graph outputs; a dict
            is keyed like the model's output.
        train (bool): Trace the model with ``chainer.config.train`` set.
        return_named_inout (bool): Also return the inputs and outputs.
        external_converters (dict): Converters keyed by function name.
        external_opset_imports (dict): Opset versions keyed by the domains
            the external converters use.
        input_shapes (tuple, list or dict): Shapes of the graph inputs, one
            per input; a string dimension (``'batch'``) is dynamic. Output
            shapes are then inferred.
        no_testcase (bool): Do not warn that ``filename`` is written without
            test data (:func:`~onnx_chainer.export_testcase` writes both).

    Returns:
        onnx.ModelProto, or ``(model, inputs, outputs)`` where ``inputs``
        and ``outputs`` are ordered dicts of variables keyed by ONNX name
        when ``return_named_inout`` is ``True``.
    """
    if not no_testcase and filename is not None:
        warnings.warn(
            'Exporting ONNX without testcases is deprecated. '
            'Use export_testcase instead', DeprecationWarning)
    with chainer.using_config('train', train), \
            chainer.using_config('in_recomputing', True), \
            chainer.using_config('enable_backprop', True):
        return _export(
            model, args, filename, export_params, graph_name, save_text,
            opset_version, input_names, output_names, return_named_inout,
            external_converters, external_opset_imports, input_shapes)


def _as_input(arg, context, network_inputs):
    if isinstance(arg, chainer.get_array_types()):
        arg = chainer.Variable(arg)
    if not isinstance(arg, chainer.Variable):
        raise ValueError(
            "The 'args' argument should be a list, tuple, dict, numpy array, "
            'or Chainer Variable. But a {} object was given.'.format(
                type(arg)))
    network_inputs[context.get_name(arg)] = arg
    return arg


def _export(model, args, filename, export_params, graph_name, save_text,
            opset_version, input_names, output_names, return_named_inout,
            external_converters, external_opset_imports, input_shapes):
    if opset_version is None:
        opset_version = default_opset_version()
    elif not MINIMUM_OPSET_VERSION <= opset_version <= MAXIMUM_OPSET_VERSION:
        warnings.warn(
            'ONNX-Chainer has been tested only with opset_version {} ~ {}. '
            'The ONNX file exported with your requested opset_version ({}) '
            'may cause some problems because the converters used for the '
            'opset_version have not been tested.'.format(
                MINIMUM_OPSET_VERSION, MAXIMUM_OPSET_VERSION, opset_version))

    if input_shapes is not None:
        input_shapes = _format_input_shapes(args, input_shapes)

    with RetainInputHook(), mapping.patch_functions():
        context = Context(model)
        network_inputs = collections.OrderedDict()
        if isinstance(args, (list, tuple)):
            args = [_as_input(a, context, network_inputs) for a in args]
            outputs = model(*args)
        elif isinstance(args, dict):
            args = collections.OrderedDict(
                (k, _as_input(a, context, network_inputs))
                for k, a in args.items())
            outputs = model(**args)
        else:
            args = _as_input(args, context, network_inputs)
            outputs = model(args)
        _rename_variables(context, args, network_inputs, input_names)

        initializers = []
        input_tensors = []
        param_names = set()
        for path, param in model.namedparams():
            if param.array is None:
                warnings.warn(
                    "The parameter '{}' is not initialized, skip setting to "
                    'ONNX graph'.format(path))
                continue
            tensor = convert_parameter(param, context)
            param_names.add(tensor.name)
            initializers.append(tensor)
            input_tensors.append(helper.make_tensor_value_info(
                tensor.name, tensor.data_type, tensor.dims))
        for i, (name, var) in enumerate(network_inputs.items()):
            shape = var.shape if input_shapes is None else input_shapes[i]
            input_tensors.append(helper.make_tensor_value_info(
                name, _tensor_type(var.dtype), shape))

        if external_converters:
            chainer.utils.experimental('external_converters')
            converters = dict(mapping.converters, **external_converters)
        else:
            converters = mapping.converters

        if isinstance(outputs, (list, tuple)):
            flat_outputs = list(outputs)
        elif isinstance(outputs, dict):
            flat_outputs = list(outputs.values())
        elif isinstance(outputs, chainer.Variable):
            flat_outputs = [outputs]
        else:
            raise RuntimeError(
                'Unexpected output type from the model: {}'.format(
                    type(outputs)))
        if not all(isinstance(o, chainer.Variable) for o in flat_outputs):
            raise ValueError("The all 'outputs' must be Chainer Variable")
        network_outputs = collections.OrderedDict(
            (context.get_name(var), var) for var in flat_outputs)
        if output_names:
            _rename_variables(
                context, outputs, network_outputs, output_names)

        graph = Graph(context, converters, opset_version,
                      param_names | set(network_inputs.keys()),
                      network_outputs)
        graph.to_onnx_graph()

    for name, value in context.implicit_inputs.items():
        tensor = convert_parameter(value, context)
        initializers.append(tensor)
        input_tensors.append(helper.make_tensor_value_info(
            name, tensor.data_type, tensor.dims))
    for array in context.parameters:
        tensor = convert_parameter(array, context)
        initializers.append(tensor)
        input_tensors.append(helper.make_tensor_value_info(
            tensor.name, tensor.data_type, tensor.dims))

    output_tensors = [
        helper.make_tensor_value_info(
            name, _tensor_type(var.dtype), var.shape)
        for name, var in network_outputs.items()]

    if not export_params:
        initializers = []

    onnx_graph = helper.make_graph(
        graph.graph, graph_name, input_tensors, output_tensors,
        initializer=initializers)
    opset_imports = [helper.make_operatorsetid('', opset_version)]
    if external_opset_imports:
        chainer.utils.experimental('external_opset_imports')
        for domain, version in external_opset_imports.items():
            opset_imports.append(helper.make_operatorsetid(domain, version))
    onnx_model = helper.make_model(
        onnx_graph, producer_name='Chainer',
        producer_version=chainer.__version__, opset_imports=opset_imports)
    onnx_model.ir_version = _ir_version(opset_imports)
    _check_onnx_model(onnx_model, external_converters, external_opset_imports)

    if input_shapes is not None:
        for output in onnx_model.graph.output:
            for dim in output.type.tensor_type.shape.dim:
                dim.Clear()
        onnx_model = shape_inference.infer_shapes(onnx_model)
        _check_onnx_model(
            onnx_model, external_converters, external_opset_imports)

    if isinstance(filename, str):
        with open(filename, 'wb') as f:
            f.write(onnx_model.SerializeToString())
        if save_text:
            with open(filename + '.txt', 'w') as f:
                print(onnx_model, file=f)
    elif hasattr(filename, 'write'):
        filename.write(onnx_model.SerializeToString())

    if return_named_inout:
        chainer.utils.experimental('return_named_inout')
        return onnx_model, network_inputs, network_outputs
    return onnx_model


def _ir_version(opset_imports):
    # The oldest IR version that knows the opsets, so that runtimes older
    # than the onnx package still load the model.
    return helper.find_min_ir_version_for(opset_imports, ignore_unknown=True)


def _check_onnx_model(onnx_model, external_converters,
                      external_opset_imports):
    try:
        onnx.checker.check_model(onnx_model)
    except onnx.checker.ValidationError as e:
        if external_converters is None:
            raise
        if is_support_non_standard_domain() and external_opset_imports:
            raise
        warnings.warn(
            'ValidationError is occurred but ignored. ONNX-Chainer '
            'recommends to set `external_opset_imports` when using '
            '`external_converters` on exporting. Please take care about '
            'ONNX format check is insufficient. Error message:\n{}'.format(
                e), UserWarning)
