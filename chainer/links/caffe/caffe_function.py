"""Loading of Caffe's ``.caffemodel`` files into a :class:`~chainer.Chain`."""

import functools
import warnings

import numpy

from chainer import configuration
from chainer import functions
from chainer import initializer
from chainer import link
from chainer.links.caffe.protobuf3 import caffe_pb2 as caffe_pb
from chainer.links.connection import convolution_2d
from chainer.links.connection import deconvolution_2d
from chainer.links.connection import linear
from chainer.links.connection import scale
from chainer.links.normalization import batch_normalization
from chainer.utils import argument


# Setup methods of CaffeFunction, by layer type name (``LayerParameter``)
# and by layer type number (``V1LayerParameter.LayerType``).
_setup_by_type = {}
_setup_by_v1_type = {}


def _layer(type_name, v1_type_name):
    def register(setup):
        _setup_by_type[type_name] = setup
        if v1_type_name is not None:
            v1_type = getattr(caffe_pb.V1LayerParameter, v1_type_name)
            _setup_by_v1_type[v1_type] = setup
        return setup
    return register


def _blob_values(blob, dtype):
    return numpy.fromiter(blob.data, dtype=dtype, count=len(blob.data))


class _Blob(initializer.Initializer):

    """Fills an array with the values of a Caffe blob, in C order."""

    def __init__(self, blob):
        super().__init__()
        self.blob = blob

    def __call__(self, array):
        array[...] = _blob_values(self.blob, array.dtype).reshape(array.shape)


class _ConvolutionBlob(_Blob):

    """Fills a dense filter array with the blob of a grouped convolution.

    Caffe stores one filter block per group; Chainer's filter is dense and
    block diagonal, with zeros between the groups.
    """

    def __init__(self, blob, group):
        super().__init__(blob)
        self.group = group

    def __call__(self, array):
        values = _blob_values(self.blob, array.dtype)
        group = self.group
        part_out = array.shape[0] // group
        part_in = array.shape[1] // group
        part_size = len(values) // group
        array[...] = 0
        for i in range(group):
            block = array[i * part_out:(i + 1) * part_out,
                          i * part_in:(i + 1) * part_in]
            block[...] = values[i * part_size:(i + 1) * part_size].reshape(
                block.shape)


class _Apply(object):

    """Calls ``func(x, *args, **kwargs)`` on the single bottom blob ``x``."""

    def __init__(self, func, *args, **kwargs):
        self.func = func
        self.args = args
        self.kwargs = kwargs

    def __call__(self, x):
        return self.func(x, *self.args, **self.kwargs)


class _ApplyWithConfig(_Apply):

    """:class:`_Apply` under a temporary configuration (test mode, cuDNN)."""

    def __init__(self, config, func, *args, **kwargs):
        super().__init__(func, *args, **kwargs)
        self.config = config

    def __call__(self, x):
        with configuration.using_config(*self.config):
            return super().__call__(x)


class _ApplyToAll(object):

    """Calls ``func(xs, **kwargs)`` on the tuple of all bottom blobs."""

    def __init__(self, func, **kwargs):
        self.func = func
        self.kwargs = kwargs

    def __call__(self, *xs):
        return self.func(xs, **self.kwargs)


class _CallChild(object):

    """Calls the child link of the CaffeFunction named after the layer."""

    def __init__(self, caffe_function, name):
        self.caffe_function = caffe_function
        self.name = name

    def __call__(self, *xs, **kwargs):
        return self.caffe_function[self.name](*xs, **kwargs)


class _Eltwise(object):

    """The element-wise product, (weighted) sum or maximum of the bottoms."""

    def __init__(self, operation, coeffs=None):
        self.operation = operation
        self.coeffs = coeffs

    def __call__(self, *xs):
        param = caffe_pb.EltwiseParameter
        if self.operation == param.PROD:
            return functools.reduce(lambda x, y: x * y, xs),
        if self.operation == param.SUM:
            if self.coeffs is not None:
                assert len(xs) == len(self.coeffs)
                xs = [x * coeff for x, coeff in zip(xs, self.coeffs)]
            return functools.reduce(lambda x, y: x + y, xs),
        if self.operation == param.MAX:
            return functools.reduce(functions.maximum, xs),
        raise ValueError('Invalid EltwiseParameter.EltwiseOp value.')


class CaffeFunction(link.Chain):

    """A Chain that emulates a network stored in Caffe's model format.

    It reads a binary ``.caffemodel`` (a ``NetParameter`` message, in the
    current or the V1 layer format) and builds one child link per layer
    with parameters (``Convolution``, ``Deconvolution``, ``InnerProduct``,
    ``BatchNorm``, ``Scale``), named after the layer and holding the trained
    weights, and a function for each parameterless layer (``Concat``,
    ``Dropout``, ``Eltwise``, ``LRN``, ``Pooling``, ``ReLU``, ``Reshape``,
    ``Sigmoid``, ``Slice``, ``Softmax``, ``SoftmaxWithLoss``, ``Split``).
    The reference models of BVLC load this way; ``Data`` layers are
    skipped.

    Layers of other types are skipped with a warning; at forward time, a
    layer is also skipped when it has no top blob or when some of its
    bottom blobs are neither given nor computed.

    .. admonition:: Example

       Compute the ``fc8`` blob of BVLC's reference CaffeNet from a batch of
       images given as the ``data`` blob::

          func = CaffeFunction('bvlc_reference_caffenet.caffemodel')
          x = chainer.Variable(images)  # shape (N, 3, 227, 227)
          y, = func(inputs={'data': x}, outputs=['fc8'])

       The computational graph is recorded as usual, so gradients flow
       back through the pretrained network.

    Args:
        model_path (str): Path to the binary protobuf file of the model.

    Attributes:
        forwards (dict): The function of each layer, by layer name.
        layers (list): ``(name, bottoms, tops)`` of each layer, in order.
        split_map (dict): The bottom blob each ``Split`` output stands for.

    """

    def __init__(self, model_path):
        super().__init__()
        net = caffe_pb.NetParameter()
        with open(model_path, 'rb') as model_file:
            net.MergeFromString(model_file.read())

        self.forwards = {}
        self.split_map = {}
        self.layers = []

        if net.layer:
            for layer in net.layer:
                setup = _setup_by_type.get(layer.type)
                if setup is None:
                    warnings.warn(
                        'Skip the layer "%s", since CaffeFunction does not '
                        'support %s layer' % (layer.name, layer.type))
                else:
                    setup(self, layer)
        else:
            for layer in net.layers:
                setup = _setup_by_v1_type.get(layer.type)
                if setup is None:
                    warnings.warn(
                        'Skip the layer "%s", since CaffeFunction does not '
                        'support it' % layer.name)
                else:
                    setup(self, layer)

    def forward(self, inputs, outputs, disable=(), **kwargs):
        """forward(self, inputs, outputs, disable=())

        Runs the part of the network reachable from the given blobs.

        The layers are interpreted in the order of the model file; a layer
        runs when all its bottom blobs are known, and its outputs become the
        blobs named by its tops.

        Args:
            inputs (dict): The initial blobs: blob names to
                :class:`~chainer.Variable` objects (or arrays).
            outputs (Iterable): Names of the blobs to return.
            disable (Iterable): Names of the layers to skip.

        Returns:
            tuple: The variables of the ``outputs`` blobs, in that order.

        """
        if kwargs:
            argument.check_unexpected_kwargs(
                kwargs, train='train argument is not supported anymore. '
                'Use chainer.using_config')
            argument.assert_kwargs_empty(kwargs)

        variables = dict(inputs)
        disable = set(disable)
        for name, bottom, top in self.layers:
            if (name in disable or name not in self.forwards
                    or any(blob not in variables for blob in bottom)):
                continue
            results = self.forwards[name](
                *[variables[blob] for blob in bottom])
            if not isinstance(results, (tuple, list)):
                results = results,
            for result, blob in zip(results, top):
                variables[blob] = result

        self.variables = variables
        return tuple(variables[blob] for blob in outputs)

    def _add_layer(self, layer):
        bottom = [self.split_map.get(blob, blob) for blob in layer.bottom]
        self.layers.append((layer.name, bottom, list(layer.top)))

    def _add_function(self, layer, function):
        self.forwards[layer.name] = function
        self._add_layer(layer)

    def _add_child(self, layer, child, wrap=None):
        with self.init_scope():
            setattr(self, layer.name, child)
        call = _CallChild(self, layer.name)
        self._add_function(layer, call if wrap is None else wrap(call))

    @_layer('Concat', 'CONCAT')
    def _setup_concat(self, layer):
        param = layer.concat_param
        axis = param.axis
        if axis == 1 and param.concat_dim != 1:
            axis = param.concat_dim
        self._add_function(layer, _ApplyToAll(functions.concat, axis=axis))

    @_layer('Convolution', 'CONVOLUTION')
    def _setup_convolution(self, layer):
        param = layer.convolution_param
        blobs = layer.blobs
        bias_term = param.bias_term
        child = convolution_2d.Convolution2D(
            _get_channels(blobs[0]) * param.group, _get_num(blobs[0]),
            _get_ksize(param), _get_stride(param), _get_pad(param),
            nobias=not bias_term,
            initialW=_ConvolutionBlob(blobs[0], param.group),
            initial_bias=_Blob(blobs[1]) if bias_term else None)
        self._add_child(layer, child)

    @_layer('Deconvolution', 'DECONVOLUTION')
    def _setup_deconvolution(self, layer):
        param = layer.convolution_param
        blobs = layer.blobs
        bias_term = param.bias_term
        child = deconvolution_2d.Deconvolution2D(
            _get_num(blobs[0]), _get_channels(blobs[0]) * param.group,
            _get_ksize(param), _get_stride(param), _get_pad(param),
            nobias=not bias_term,
            initialW=_ConvolutionBlob(blobs[0], param.group),
            initial_bias=_Blob(blobs[1]) if bias_term else None)
        self._add_child(layer, child)

    @_layer('Data', 'DATA')
    def _setup_data(self, layer):
        # Data layers feed Caffe's own readers: the caller gives the blobs.
        pass

    @_layer('Dropout', 'DROPOUT')
    def _setup_dropout(self, layer):
        self._add_function(layer, _Apply(
            functions.dropout, ratio=layer.dropout_param.dropout_ratio))

    @_layer('InnerProduct', 'INNER_PRODUCT')
    def _setup_inner_product(self, layer):
        param = layer.inner_product_param
        if param.axis != 1:
            raise RuntimeError(
                'Non-default axis in InnerProduct is not supported')
        blobs = layer.blobs
        bias_term = param.bias_term
        child = linear.Linear(
            _get_width(blobs[0]), _get_height(blobs[0]),
            nobias=not bias_term, initialW=_Blob(blobs[0]),
            initial_bias=_Blob(blobs[1]) if bias_term else None)
        self._add_child(layer, child)

    @_layer('LRN', 'LRN')
    def _setup_lrn(self, layer):
        param = layer.lrn_param
        if param.norm_region != param.ACROSS_CHANNELS:
            raise RuntimeError('Within-channel LRN is not supported')
        # Caffe divides alpha by the window size; Chainer does not.
        self._add_function(layer, _Apply(
            functions.local_response_normalization, n=param.local_size,
            k=param.k, alpha=param.alpha / param.local_size,
            beta=param.beta))

    @_layer('Pooling', 'POOLING')
    def _setup_pooling(self, layer):
        param = layer.pooling_param
        if param.pool == param.MAX:
            pooling = functions.max_pooling_2d
        elif param.pool == param.AVE:
            pooling = functions.average_pooling_2d
        else:
            raise RuntimeError('Stochastic pooling is not supported')
        ksize = _get_ksize(param)
        stride = _get_stride(param)
        pad = _get_pad(param)
        if param.global_pooling and not ksize:
            def global_pooling(x, stride, pad):
                return pooling(x, x.shape[2:], stride=stride, pad=pad)
            function = _Apply(global_pooling, stride=stride, pad=pad)
        else:
            function = _Apply(pooling, ksize, stride=stride, pad=pad)
        self._add_function(layer, function)

    @_layer('ReLU', 'RELU')
    def _setup_relu(self, layer):
        slope = layer.relu_param.negative_slope
        if slope != 0:
            function = _Apply(functions.leaky_relu, slope=slope)
        else:
            function = functions.relu
        self._add_function(layer, function)

    @_layer('Reshape', None)
    def _setup_reshape(self, layer):
        shape = list(layer.reshape_param.shape.dim)
        self._add_function(layer, _Apply(functions.reshape, shape=shape))

    @_layer('BatchNorm', None)
    def _setup_batchnorm(self, layer):
        param = layer.batch_norm_param
        blobs = layer.blobs
        child = batch_normalization.BatchNormalization(
            int(blobs[0].shape.dim[0]), decay=param.moving_average_fraction,
            eps=param.eps, use_gamma=False, use_beta=False)
        _Blob(blobs[0])(child.avg_mean)
        _Blob(blobs[1])(child.avg_var)
        # Caffe keeps the running sums and their scale factor apart
        # (BVLC/caffe#4885): the statistics are the sums over the factor.
        if len(blobs) >= 3:
            factor = blobs[2].data[0]
            child.avg_mean /= factor
            child.avg_var /= factor

        if param.use_global_stats:
            def wrap(call):
                return _ApplyWithConfig(('train', False), call,
                                        finetune=False)
        else:
            def wrap(call):
                return _Apply(call, finetune=False)
        self._add_child(layer, child, wrap)

    @_layer('Eltwise', 'ELTWISE')
    def _setup_eltwise(self, layer):
        param = layer.eltwise_param
        self._add_function(
            layer, _Eltwise(param.operation, list(param.coeff) or None))

    @_layer('Scale', None)
    def _setup_scale(self, layer):
        param = layer.scale_param
        blobs = layer.blobs
        bias_term = param.bias_term
        if len(layer.bottom) == 1:
            # The scale is a learnt parameter stored in the first blob.
            child = scale.Scale(
                param.axis, tuple(blobs[0].shape.dim), bias_term)
            _Blob(blobs[0])(child.W.array)
            if bias_term:
                _Blob(blobs[1])(child.bias.b.array)
        else:
            # The scale is the second bottom blob.
            bias_shape = tuple(blobs[0].shape.dim) if bias_term else None
            child = scale.Scale(
                param.axis, bias_term=bias_term, bias_shape=bias_shape)
            if bias_term:
                _Blob(blobs[0])(child.bias.b.array)
        self._add_child(layer, child)

    @_layer('Slice', 'SLICE')
    def _setup_slice(self, layer):
        param = layer.slice_param
        if param.HasField('axis'):
            axis = param.axis
        elif param.HasField('slice_dim'):
            axis = param.slice_dim
        else:
            axis = 1
        if param.slice_point:
            indices_or_sections = list(param.slice_point)
        else:
            indices_or_sections = len(layer.top)
        self._add_function(layer, _Apply(
            functions.split_axis, indices_or_sections=indices_or_sections,
            axis=axis))

    @_layer('Softmax', 'SOFTMAX')
    def _setup_softmax(self, layer):
        param = layer.softmax_param
        if param.axis != 1:
            raise RuntimeError(
                'Softmax along non-channel axis is not supported')
        self._add_function(
            layer, _with_engine(param.engine, functions.softmax))

    @_layer('Sigmoid', 'SIGMOID')
    def _setup_sigmoid(self, layer):
        self._add_function(layer, _with_engine(
            layer.sigmoid_param.engine, functions.sigmoid))

    @_layer('SoftmaxWithLoss', 'SOFTMAX_LOSS')
    def _setup_softmax_with_loss(self, layer):
        if layer.softmax_param.axis != 1:
            raise RuntimeError(
                'Softmax along non-channel axis is not supported')
        self._add_function(layer, functions.softmax_cross_entropy)

    @_layer('Split', 'SPLIT')
    def _setup_split(self, layer):
        for top in layer.top:
            self.split_map[top] = layer.bottom[0]


def _with_engine(engine, function):
    # Caffe's CAFFE and CUDNN engines say whether cuDNN may be used.
    if engine == caffe_pb.SoftmaxParameter.CAFFE:
        return _ApplyWithConfig(('use_cudnn', False), function)
    if engine == caffe_pb.SoftmaxParameter.CUDNN:
        return _ApplyWithConfig(('use_cudnn', True), function)
    return function


def _pair_or_single(param, prefix, name, default):
    # A size given per axis (``<prefix>_h``, ``<prefix>_w``) wins over the
    # common value, which is repeated in ConvolutionParameter and single in
    # PoolingParameter.
    height = getattr(param, prefix + '_h')
    if height > 0 or (prefix == 'pad' and param.pad_w > 0):
        return height, getattr(param, prefix + '_w')
    value = getattr(param, name)
    if isinstance(value, int):
        return value
    if len(value) == 0:
        return default
    if len(value) == 1:
        return value[0]
    return tuple(value)


def _get_ksize(param):
    return _pair_or_single(param, 'kernel', 'kernel_size', None)


def _get_stride(param):
    return _pair_or_single(param, 'stride', 'stride', 1)


def _get_pad(param):
    return _pair_or_single(param, 'pad', 'pad', 0)


def _get_num(blob):
    return blob.num if blob.num > 0 else blob.shape.dim[0]


def _get_channels(blob):
    return blob.channels if blob.channels > 0 else blob.shape.dim[1]


def _get_matrix_dim(blob, legacy_name, index_2d, index_4d):
    legacy = getattr(blob, legacy_name)
    if legacy > 0:
        return legacy
    dims = blob.shape.dim
    if len(dims) == 2:
        return dims[index_2d]
    if len(dims) == 4:
        return dims[index_4d]
    raise RuntimeError(
        '{}-dimensional array is not supported'.format(len(dims)))


def _get_height(blob):
    return _get_matrix_dim(blob, 'height', 0, 2)


def _get_width(blob):
    return _get_matrix_dim(blob, 'width', 1, 3)
