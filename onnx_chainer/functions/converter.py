"""The calling convention of converters."""


class FunctionConverterParams(object):
    """What the exporter gives a converter for one function.

    A converter is any callable taking this object and returning a sequence
    of ``onnx.NodeProto``.

    Attributes:
        func (~chainer.FunctionNode): The function to convert (for a function
            wrapped by ``as_funcnode``, the wrapping node).
        opset_version (int): The opset being exported.
        input_names (list of str): Names of the function's inputs.
        output_names (list of str): Names its outputs must get.
        context (~onnx_chainer.context.Context): Names shared by the graph.
    """

    def __init__(self, func=None, opset_version=None, input_names=None,
                 output_names=None, context=None):
        self.func = func
        self.opset_version = opset_version
        self.input_names = input_names
        self.output_names = output_names
        self.context = context


class FunctionConverter(object):
    """Adapts a built-in converter to the params calling convention.

    Built-in converters are plain functions
    ``converter(func, opset_version, input_names, output_names, context)``.
    """

    def __init__(self, converter):
        self.converter = converter

    def __call__(self, params):
        return self.converter(
            params.func, params.opset_version, params.input_names,
            params.output_names, params.context)
