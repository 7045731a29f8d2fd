"""Export of a computational graph to Caffe's prototxt and caffemodel."""

import os

import numpy

import chainer
from chainer.links.caffe.protobuf3 import caffe_pb2 as caffe_pb
from chainer import variable

from google.protobuf import text_format


def _node_array(node):
    # The array of a variable node: the retained one, else the one of its
    # variable while that is alive.
    if node.data is not None:
        return node.data
    var = node.get_variable_or_none()
    return None if var is None else var.array


def _add_blob(layer, shape, array):
    blob = layer.blobs.add()
    blob.shape.dim.extend(int(d) for d in shape)
    blob.data.extend(numpy.asarray(array, dtype=numpy.float32).ravel())


def _sorted_functions(outputs):
    """Returns the function nodes that compute ``outputs``, inputs first."""
    order = []
    done = set()
    for output in outputs:
        if output.creator is None:
            continue
        stack = [(output.creator, False)]
        while stack:
            func, expanded = stack.pop()
            if func in done:
                continue
            if expanded:
                done.add(func)
                order.append(func)
                continue
            stack.append((func, True))
            for input_ in reversed(func.inputs):
                if input_.creator is not None and input_.creator not in done:
                    stack.append((input_.creator, False))
    return order


def _set_fields(message, values):
    for key, value in values.items():
        setattr(message, key, value)


class _CaffeNetBuilder(object):

    """Turns function nodes into the layers of a Caffe ``NetParameter``."""

    def __init__(self, net, export_params):
        self.net = net
        self.export_params = export_params
        self._indices = {}

    def layer_name(self, func):
        # ``<label>-<rank>-<k>``: the k-th function of that label and rank.
        key = '{}-{}'.format(func.label, func.rank)
        funcs = self._indices.setdefault(key, {})
        if func not in funcs:
            funcs[func] = len(funcs) + 1
        return '{}-{}'.format(key, funcs[func])

    def blob_name(self, func):
        return 'data' if func is None else self.layer_name(func)

    def new_layer(self, layer_type, name, bottom):
        layer = self.net.layer.add()
        layer.type = layer_type
        layer.name = name
        layer.bottom.extend(bottom)
        layer.top.append(name)
        layer.phase = caffe_pb.TEST
        return layer

    def add_blob(self, layer, shape, array):
        if self.export_params:
            _add_blob(layer, shape, array)

    def add(self, func):
        name = self.layer_name(func)
        bottom = [self.blob_name(input_.creator) for input_ in func.inputs]
        label = func.label
        handler = _HANDLERS.get(label)
        if label == 'MaxPoolingND' and func.ndim != 2:
            handler = None
        if handler is None:
            raise NotImplementedError(
                'Cannot convert, name={}, rank={}, label={}, inputs={}'
                .format(name, func.rank, label, bottom))
        handler(self, func, name, bottom)


def _linear(builder, func, name, bottom):
    W = func.inputs[1]
    b = func.inputs[2] if len(func.inputs) == 3 else None
    layer = builder.new_layer('InnerProduct', name, bottom[:1])
    _set_fields(layer.inner_product_param, {
        'num_output': W.shape[0], 'bias_term': b is not None})
    builder.add_blob(layer, W.shape, _node_array(W))
    if b is not None:
        builder.add_blob(layer, b.shape, _node_array(b))


def _convolution(builder, func, name, bottom):
    W = func.inputs[1]
    b = func.inputs[2] if len(func.inputs) == 3 else None
    deconvolution = func.label == 'Deconvolution2DFunction'
    layer = builder.new_layer(
        'Deconvolution' if deconvolution else 'Convolution', name,
        bottom[:1])
    # Deconvolution filters are (in, out / groups, kh, kw).
    _set_fields(layer.convolution_param, {
        'num_output': W.shape[1] * func.groups if deconvolution
        else W.shape[0],
        'bias_term': b is not None,
        'pad_h': func.ph, 'pad_w': func.pw,
        'stride_h': func.sy, 'stride_w': func.sx,
        'kernel_h': W.shape[2], 'kernel_w': W.shape[3],
        'group': func.groups,
    })
    builder.add_blob(layer, W.shape, _node_array(W))
    if b is not None:
        builder.add_blob(layer, b.shape, _node_array(b))


def _pooling(builder, func, name, bottom):
    layer = builder.new_layer('Pooling', name, bottom)
    param = caffe_pb.PoolingParameter
    if func.label == 'AveragePooling2D':
        pool, (kh, kw), (sy, sx), (ph, pw) = (
            param.AVE, (func.kh, func.kw), (func.sy, func.sx),
            (func.ph, func.pw))
    else:
        pool, (kh, kw), (sy, sx), (ph, pw) = (
            param.MAX, func.ksize, func.stride, func.pad)
    _set_fields(layer.pooling_param, {
        'pool': pool, 'kernel_h': kh, 'kernel_w': kw,
        'stride_h': sy, 'stride_w': sx, 'pad_h': ph, 'pad_w': pw})


def _lrn(builder, func, name, bottom):
    layer = builder.new_layer('LRN', name, bottom)
    # Caffe divides alpha by the window size; Chainer does not.
    _set_fields(layer.lrn_param, {
        'norm_region': caffe_pb.LRNParameter.ACROSS_CHANNELS,
        'local_size': func.n, 'k': func.k, 'alpha': func.alpha * func.n,
        'beta': func.beta})


def _batch_normalization(builder, func, name, bottom):
    _, gamma, beta, mean, var = func.inputs
    gamma_array = _node_array(gamma)
    beta_array = _node_array(beta)
    scaled = gamma_array is not None or beta_array is not None
    # Caffe's BatchNorm only normalizes; a Scale layer applies gamma and
    # beta.
    layer = builder.new_layer(
        'BatchNorm', name + '_bn' if scaled else name, bottom[:1])
    _set_fields(layer.batch_norm_param, {
        'use_global_stats': True, 'eps': func.eps})
    mean_array = _node_array(mean)
    var_array = _node_array(var)
    builder.add_blob(layer, [mean_array.size], mean_array)
    builder.add_blob(layer, [var_array.size], var_array)
    builder.add_blob(layer, [1], numpy.ones((1,), dtype=numpy.float32))
    if not scaled:
        return
    layer = builder.new_layer('Scale', name, [name + '_bn'])
    bias_term = beta_array is not None
    _set_fields(layer.scale_param, {'axis': 1, 'bias_term': bias_term})
    if gamma_array is None:
        gamma_array = numpy.ones_like(beta_array)
    builder.add_blob(layer, [gamma_array.size], gamma_array)
    if bias_term:
        builder.add_blob(layer, [beta_array.size], beta_array)


def _relu(builder, func, name, bottom):
    builder.new_layer('ReLU', name, bottom)


def _leaky_relu(builder, func, name, bottom):
    layer = builder.new_layer('ReLU', name, bottom)
    layer.relu_param.negative_slope = func.slope


def _concat(builder, func, name, bottom):
    layer = builder.new_layer('Concat', name, bottom)
    layer.concat_param.axis = func.axis


def _softmax(builder, func, name, bottom):
    builder.new_layer('Softmax', name, bottom)


def _sigmoid(builder, func, name, bottom):
    builder.new_layer('Sigmoid', name, bottom)


def _reshape(builder, func, name, bottom):
    parent = func.inputs[0].creator
    if parent is not None and parent.label == 'Reshape':
        # Reshapes in a row: only the last one counts.
        bottom = [builder.blob_name(parent.inputs[0].creator)]
    layer = builder.new_layer('Reshape', name, bottom)
    layer.reshape_param.shape.dim.extend(func.shape)


def _add(builder, func, name, bottom):
    builder.new_layer('Eltwise', name, bottom)


_HANDLERS = {
    'LinearFunction': _linear,
    'Convolution2DFunction': _convolution,
    'Deconvolution2DFunction': _convolution,
    'AveragePooling2D': _pooling,
    'MaxPoolingND': _pooling,
    'LocalResponseNormalization': _lrn,
    'FixedBatchNormalization': _batch_normalization,
    'ReLU': _relu,
    'LeakyReLU': _leaky_relu,
    'Concat': _concat,
    'Softmax': _softmax,
    'Sigmoid': _sigmoid,
    'Reshape': _reshape,
    '_ + _': _add,
}


def _prototxt(name, net, input_shape):
    # The network definition: an Input layer named ``data``, then the
    # layers without their blobs.
    definition = caffe_pb.NetParameter()
    definition.name = name
    data = definition.layer.add()
    data.name = 'data'
    data.type = 'Input'
    data.top.append('data')
    data.input_param.shape.add().dim.extend(input_shape)
    for layer in net.layer:
        copy = definition.layer.add()
        copy.CopyFrom(layer)
        del copy.blobs[:]
    return text_format.MessageToString(definition)


def export(model, args, directory=None, export_params=True,
           graph_name='Graph'):
    """(Experimental) Exports a computational graph in Caffe's format.

    The model is run once on ``args`` in test mode (``train=False``) with
    backprop enabled, and the graph that computes its outputs is written
    as ``chainer_model.prototxt`` (the network definition) and, with
    ``export_params``, ``chainer_model.caffemodel`` (the definition with
    the parameters) under ``directory``. The input blob is named ``data``;
    each layer is named ``<label>-<rank>-<k>`` after the function it comes
    from.

    These functions are supported: :func:`~chainer.functions.linear`,
    :func:`~chainer.functions.convolution_2d`,
    :func:`~chainer.functions.deconvolution_2d`,
    :func:`~chainer.functions.max_pooling_2d`,
    :func:`~chainer.functions.average_pooling_2d`,
    :func:`~chainer.functions.batch_normalization` (in test mode),
    :func:`~chainer.functions.local_response_normalization`,
    :func:`~chainer.functions.relu`, :func:`~chainer.functions.leaky_relu`,
    :func:`~chainer.functions.concat`, :func:`~chainer.functions.softmax`,
    :func:`~chainer.functions.sigmoid`, :func:`~chainer.functions.reshape`
    and :func:`~chainer.functions.add`; that covers GoogLeNet, ResNet and
    VGG. Another function raises :class:`NotImplementedError`.

    Args:
        model (~chainer.Chain): The model to export, called as
            ``model(*args)``.
        args (list of ~chainer.Variable): The arguments of the model; exactly
            one variable (the ``data`` blob).
        directory (str): The directory of the written files. If ``None``,
            nothing is written.
        export_params (bool): If ``True``, the parameters are written to
            the caffemodel file; if ``False``, no caffemodel is written.
        graph_name (str): The ``name`` of the exported network.

    .. admonition:: Example

       >>> from chainer.exporters import caffe
       >>> model = chainer.Sequential(L.Convolution2D(3, 4, 3), F.relu)
       >>> x = chainer.Variable(np.zeros((1, 3, 8, 8), np.float32))
       >>> caffe.export(model, [x], None, True, 'test')

    """
    assert isinstance(args, (tuple, list))
    if len(args) != 1:
        raise NotImplementedError()
    for arg in args:
        assert isinstance(arg, variable.Variable)
    with chainer.force_backprop_mode(), chainer.using_config('train', False):
        outputs = model(*args)
    if isinstance(outputs, variable.Variable):
        outputs = [outputs]
    assert isinstance(outputs, (tuple, list))
    for output in outputs:
        assert isinstance(output, variable.Variable)

    net = caffe_pb.NetParameter()
    builder = _CaffeNetBuilder(net, export_params)
    for func in _sorted_functions(outputs):
        builder.add(func)

    if directory is None:
        return
    prototxt = _prototxt(graph_name, net, args[0].shape)
    with open(os.path.join(directory, 'chainer_model.prototxt'), 'w') as f:
        f.write(prototxt)
    if export_params:
        caffemodel = os.path.join(directory, 'chainer_model.caffemodel')
        with open(caffemodel, 'wb') as f:
            f.write(net.SerializeToString())
