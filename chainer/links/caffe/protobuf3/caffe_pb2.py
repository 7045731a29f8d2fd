"""Message classes of Caffe's ``caffe.proto`` (package ``caffe``).

The messages below are the part of Caffe's public ``caffe.proto`` that
:class:`~chainer.links.caffe.CaffeFunction` and
:func:`chainer.exporters.caffe.export` read and write: the net, its layers
(new and V1 formats), blobs and the parameters of the supported layer types.
Field names, numbers, types and defaults are Caffe's, so files written by
Caffe parse here and files written here load in Caffe; fields of other layer
types survive a round trip as unknown fields.

The definitions are written in a subset of the proto2 language and turned
into descriptors at import time, so neither ``protoc`` nor generated code
is needed. Only the ``protobuf`` package is required.
"""

import re

try:
    from google.protobuf import descriptor_pb2
    from google.protobuf import descriptor_pool
    from google.protobuf import message_factory
except ImportError as e:
    raise ImportError(
        'Caffe support (chainer.links.caffe, chainer.exporters.caffe) '
        'requires the protobuf package: pip install protobuf') from e


_PACKAGE = 'caffe'

_DEFINITIONS = '''
enum Phase { TRAIN = 0; TEST = 1; }

message BlobShape {
  repeated int64 dim = 1 [packed = true];
}

message BlobProto {
  optional BlobShape shape = 7;
  repeated float data = 5 [packed = true];
  repeated float diff = 6 [packed = true];
  repeated double double_data = 8 [packed = true];
  repeated double double_diff = 9 [packed = true];
  optional int32 num = 1 [default = 0];
  optional int32 channels = 2 [default = 0];
  optional int32 height = 3 [default = 0];
  optional int32 width = 4 [default = 0];
}

message BlobProtoVector {
  repeated BlobProto blobs = 1;
}

message FillerParameter {
  enum VarianceNorm { FAN_IN = 0; FAN_OUT = 1; AVERAGE = 2; }
  optional string type = 1 [default = constant];
  optional float value = 2 [default = 0];
  optional float min = 3 [default = 0];
  optional float max = 4 [default = 1];
  optional float mean = 5 [default = 0];
  optional float std = 6 [default = 1];
  optional int32 sparse = 7 [default = -1];
  optional VarianceNorm variance_norm = 8 [default = FAN_IN];
}

message NetParameter {
  optional string name = 1;
  repeated string input = 3;
  repeated BlobShape input_shape = 8;
  repeated int32 input_dim = 4;
  optional bool force_backward = 5 [default = false];
  optional NetState state = 6;
  optional bool debug_info = 7 [default = false];
  repeated LayerParameter layer = 100;
  repeated V1LayerParameter layers = 2;
}

message NetState {
  optional Phase phase = 1 [default = TEST];
  optional int32 level = 2 [default = 0];
  repeated string stage = 3;
}

message NetStateRule {
  optional Phase phase = 1;
  optional int32 min_level = 2;
  optional int32 max_level = 3;
  repeated string stage = 4;
  repeated string not_stage = 5;
}

message ParamSpec {
  enum DimCheckMode { STRICT = 0; PERMISSIVE = 1; }
  optional string name = 1;
  optional DimCheckMode share_mode = 2;
  optional float lr_mult = 3 [default = 1];
  optional float decay_mult = 4 [default = 1];
}

message LayerParameter {
  optional string name = 1;
  optional string type = 2;
  repeated string bottom = 3;
  repeated string top = 4;
  optional Phase phase = 10;
  repeated float loss_weight = 5;
  repeated ParamSpec param = 6;
  repeated BlobProto blobs = 7;
  repeated bool propagate_down = 11;
  repeated NetStateRule include = 8;
  repeated NetStateRule exclude = 9;
  optional TransformationParameter transform_param = 100;
  optional LossParameter loss_param = 101;
  optional AccuracyParameter accuracy_param = 102;
  optional BatchNormParameter batch_norm_param = 139;
  optional BiasParameter bias_param = 141;
  optional ConcatParameter concat_param = 104;
  optional ConvolutionParameter convolution_param = 106;
  optional DataParameter data_param = 107;
  optional DropoutParameter dropout_param = 108;
  optional EltwiseParameter eltwise_param = 110;
  optional InnerProductParameter inner_product_param = 117;
  optional InputParameter input_param = 143;
  optional LRNParameter lrn_param = 118;
  optional PoolingParameter pooling_param = 121;
  optional ReLUParameter relu_param = 123;
  optional ReshapeParameter reshape_param = 133;
  optional ScaleParameter scale_param = 142;
  optional SigmoidParameter sigmoid_param = 124;
  optional SoftmaxParameter softmax_param = 125;
  optional SliceParameter slice_param = 126;
}

message TransformationParameter {
  optional float scale = 1 [default = 1];
  optional bool mirror = 2 [default = false];
  optional uint32 crop_size = 3 [default = 0];
  optional string mean_file = 4;
  repeated float mean_value = 5;
  optional bool force_color = 6 [default = false];
  optional bool force_gray = 7 [default = false];
}

message LossParameter {
  enum NormalizationMode { FULL = 0; VALID = 1; BATCH_SIZE = 2; NONE = 3; }
  optional int32 ignore_label = 1;
  optional NormalizationMode normalization = 3 [default = VALID];
  optional bool normalize = 2;
}

message AccuracyParameter {
  optional uint32 top_k = 1 [default = 1];
  optional int32 axis = 2 [default = 1];
  optional int32 ignore_label = 3;
}

message BatchNormParameter {
  optional bool use_global_stats = 1;
  optional float moving_average_fraction = 2 [default = 0.999];
  optional float eps = 3 [default = 1e-5];
}

message BiasParameter {
  optional int32 axis = 1 [default = 1];
  optional int32 num_axes = 2 [default = 1];
  optional FillerParameter filler = 3;
}

message ConcatParameter {
  optional int32 axis = 2 [default = 1];
  optional uint32 concat_dim = 1 [default = 1];
}

message ConvolutionParameter {
  enum Engine { DEFAULT = 0; CAFFE = 1; CUDNN = 2; }
  optional uint32 num_output = 1;
  optional bool bias_term = 2 [default = true];
  repeated uint32 pad = 3;
  repeated uint32 kernel_size = 4;
  repeated uint32 stride = 6;
  repeated uint32 dilation = 18;
  optional uint32 pad_h = 9 [default = 0];
  optional uint32 pad_w = 10 [default = 0];
  optional uint32 kernel_h = 11;
  optional uint32 kernel_w = 12;
  optional uint32 stride_h = 13;
  optional uint32 stride_w = 14;
  optional uint32 group = 5 [default = 1];
  optional FillerParameter weight_filler = 7;
  optional FillerParameter bias_filler = 8;
  optional Engine engine = 15 [default = DEFAULT];
  optional int32 axis = 16 [default = 1];
  optional bool force_nd_im2col = 17 [default = false];
}

message DataParameter {
  enum DB { LEVELDB = 0; LMDB = 1; }
  optional string source = 1;
  optional uint32 batch_size = 4;
  optional uint32 rand_skip = 7 [default = 0];
  optional DB backend = 8 [default = LEVELDB];
  optional float scale = 2 [default = 1];
  optional string mean_file = 3;
  optional uint32 crop_size = 5 [default = 0];
  optional bool mirror = 6 [default = false];
  optional bool force_encoded_color = 9 [default = false];
  optional uint32 prefetch = 10 [default = 4];
}

message DropoutParameter {
  optional float dropout_ratio = 1 [default = 0.5];
}

message EltwiseParameter {
  enum EltwiseOp { PROD = 0; SUM = 1; MAX = 2; }
  optional EltwiseOp operation = 1 [default = SUM];
  repeated float coeff = 2;
  optional bool stable_prod_grad = 3 [default = true];
}

message InnerProductParameter {
  optional uint32 num_output = 1;
  optional bool bias_term = 2 [default = true];
  optional FillerParameter weight_filler = 3;
  optional FillerParameter bias_filler = 4;
  optional int32 axis = 5 [default = 1];
}

message InputParameter {
  repeated BlobShape shape = 1;
}

message LRNParameter {
  enum NormRegion { ACROSS_CHANNELS = 0; WITHIN_CHANNEL = 1; }
  enum Engine { DEFAULT = 0; CAFFE = 1; CUDNN = 2; }
  optional uint32 local_size = 1 [default = 5];
  optional float alpha = 2 [default = 1];
  optional float beta = 3 [default = 0.75];
  optional NormRegion norm_region = 4 [default = ACROSS_CHANNELS];
  optional float k = 5 [default = 1];
  optional Engine engine = 6 [default = DEFAULT];
}

message PoolingParameter {
  enum PoolMethod { MAX = 0; AVE = 1; STOCHASTIC = 2; }
  enum Engine { DEFAULT = 0; CAFFE = 1; CUDNN = 2; }
  optional PoolMethod pool = 1 [default = MAX];
  optional uint32 pad = 4 [default = 0];
  optional uint32 pad_h = 9 [default = 0];
  optional uint32 pad_w = 10 [default = 0];
  optional uint32 kernel_size = 2;
  optional uint32 kernel_h = 5;
  optional uint32 kernel_w = 6;
  optional uint32 stride = 3 [default = 1];
  optional uint32 stride_h = 7;
  optional uint32 stride_w = 8;
  optional Engine engine = 11 [default = DEFAULT];
  optional bool global_pooling = 12 [default = false];
}

message ReLUParameter {
  enum Engine { DEFAULT = 0; CAFFE = 1; CUDNN = 2; }
  optional float negative_slope = 1 [default = 0];
  optional Engine engine = 2 [default = DEFAULT];
}

message ReshapeParameter {
  optional BlobShape shape = 1;
  optional int32 axis = 2 [default = 0];
  optional int32 num_axes = 3 [default = -1];
}

message ScaleParameter {
  optional int32 axis = 1 [default = 1];
  optional int32 num_axes = 2 [default = 1];
  optional FillerParameter filler = 3;
  optional bool bias_term = 4 [default = false];
  optional FillerParameter bias_filler = 5;
}

message SigmoidParameter {
  enum Engine { DEFAULT = 0; CAFFE = 1; CUDNN = 2; }
  optional Engine engine = 1 [default = DEFAULT];
}

message SliceParameter {
  optional int32 axis = 3 [default = 1];
  repeated uint32 slice_point = 2;
  optional uint32 slice_dim = 1 [default = 1];
}

message SoftmaxParameter {
  enum Engine { DEFAULT = 0; CAFFE = 1; CUDNN = 2; }
  optional Engine engine = 1 [default = DEFAULT];
  optional int32 axis = 2 [default = 1];
}

message V1LayerParameter {
  enum LayerType {
    NONE = 0; ABSVAL = 35; ACCURACY = 1; ARGMAX = 30; BNLL = 2;
    CONCAT = 3; CONTRASTIVE_LOSS = 37; CONVOLUTION = 4; DATA = 5;
    DECONVOLUTION = 39; DROPOUT = 6; DUMMY_DATA = 32; EUCLIDEAN_LOSS = 7;
    ELTWISE = 25; EXP = 38; FLATTEN = 8; HDF5_DATA = 9; HDF5_OUTPUT = 10;
    HINGE_LOSS = 28; IM2COL = 11; IMAGE_DATA = 12; INFOGAIN_LOSS = 13;
    INNER_PRODUCT = 14; LRN = 15; MEMORY_DATA = 29;
    MULTINOMIAL_LOGISTIC_LOSS = 16; MVN = 34; POOLING = 17; POWER = 26;
    RELU = 18; SIGMOID = 19; SIGMOID_CROSS_ENTROPY_LOSS = 27; SILENCE = 36;
    SOFTMAX = 20; SOFTMAX_LOSS = 21; SPLIT = 22; SLICE = 33; TANH = 23;
    WINDOW_DATA = 24; THRESHOLD = 31;
  }
  enum DimCheckMode { STRICT = 0; PERMISSIVE = 1; }
  repeated string bottom = 2;
  repeated string top = 3;
  optional string name = 4;
  repeated NetStateRule include = 32;
  repeated NetStateRule exclude = 33;
  optional LayerType type = 5;
  repeated BlobProto blobs = 6;
  repeated string param = 1001;
  repeated DimCheckMode blob_share_mode = 1002;
  repeated float blobs_lr = 7;
  repeated float weight_decay = 8;
  repeated float loss_weight = 35;
  optional AccuracyParameter accuracy_param = 27;
  optional ConcatParameter concat_param = 9;
  optional ConvolutionParameter convolution_param = 10;
  optional DataParameter data_param = 11;
  optional DropoutParameter dropout_param = 12;
  optional EltwiseParameter eltwise_param = 24;
  optional InnerProductParameter inner_product_param = 17;
  optional LRNParameter lrn_param = 18;
  optional PoolingParameter pooling_param = 19;
  optional ReLUParameter relu_param = 30;
  optional SigmoidParameter sigmoid_param = 38;
  optional SoftmaxParameter softmax_param = 39;
  optional SliceParameter slice_param = 31;
  optional TransformationParameter transform_param = 36;
  optional LossParameter loss_param = 42;
}
'''

_F = descriptor_pb2.FieldDescriptorProto
_SCALAR_TYPES = {
    'double': _F.TYPE_DOUBLE, 'float': _F.TYPE_FLOAT,
    'int32': _F.TYPE_INT32, 'int64': _F.TYPE_INT64,
    'uint32': _F.TYPE_UINT32, 'uint64': _F.TYPE_UINT64,
    'bool': _F.TYPE_BOOL, 'string': _F.TYPE_STRING, 'bytes': _F.TYPE_BYTES,
}
_LABELS = {
    'optional': _F.LABEL_OPTIONAL, 'required': _F.LABEL_REQUIRED,
    'repeated': _F.LABEL_REPEATED,
}
_TOKEN = re.compile(r'[A-Za-z_][A-Za-z0-9_]*|-?[0-9][0-9.eE+-]*|[{}=;\[\],]')


class _Tokens(object):

    def __init__(self, text):
        self._tokens = _TOKEN.findall(text)
        self._pos = 0

    def peek(self):
        return self._tokens[self._pos]

    def take(self, expected=None):
        token = self._tokens[self._pos]
        if expected is not None and token != expected:
            raise SyntaxError('expected {!r}, got {!r}'.format(
                expected, token))
        self._pos += 1
        return token

    def done(self):
        return self._pos == len(self._tokens)


def _parse_enum(tokens, enum_proto):
    enum_proto.name = tokens.take()
    tokens.take('{')
    while tokens.peek() != '}':
        value = enum_proto.value.add()
        value.name = tokens.take()
        tokens.take('=')
        value.number = int(tokens.take())
        tokens.take(';')
    tokens.take('}')


def _parse_field(tokens, field_proto, label):
    field_proto.label = _LABELS[label]
    field_type = tokens.take()
    field_proto.name = tokens.take()
    tokens.take('=')
    field_proto.number = int(tokens.take())
    if field_type in _SCALAR_TYPES:
        field_proto.type = _SCALAR_TYPES[field_type]
    else:
        # Resolved to a message or an enum once every name is known.
        field_proto.type_name = field_type
    if tokens.peek() == '[':
        tokens.take('[')
        while True:
            option = tokens.take()
            tokens.take('=')
            value = tokens.take()
            if option == 'default':
                field_proto.default_value = value
            elif option == 'packed':
                field_proto.options.packed = value == 'true'
            else:
                raise SyntaxError('unknown field option ' + option)
            if tokens.take() == ']':
                break
    tokens.take(';')


def _parse_message(tokens, message_proto):
    message_proto.name = tokens.take()
    tokens.take('{')
    while tokens.peek() != '}':
        keyword = tokens.take()
        if keyword == 'enum':
            _parse_enum(tokens, message_proto.enum_type.add())
        else:
            _parse_field(tokens, message_proto.field.add(), keyword)
    tokens.take('}')


def _resolve_types(file_proto):
    # Maps a short type name, seen from a message, to its full name and
    # whether it is an enum: nested enums first, then top-level types.
    top_level = {}
    for enum_proto in file_proto.enum_type:
        top_level[enum_proto.name] = ('.{}.{}'.format(
            _PACKAGE, enum_proto.name), True)
    for message_proto in file_proto.message_type:
        top_level[message_proto.name] = ('.{}.{}'.format(
            _PACKAGE, message_proto.name), False)
    for message_proto in file_proto.message_type:
        scope = dict(top_level)
        for enum_proto in message_proto.enum_type:
            scope[enum_proto.name] = ('.{}.{}.{}'.format(
                _PACKAGE, message_proto.name, enum_proto.name), True)
        for field_proto in message_proto.field:
            if not field_proto.type_name:
                continue
            full_name, is_enum = scope[field_proto.type_name]
            field_proto.type_name = full_name
            field_proto.type = _F.TYPE_ENUM if is_enum else _F.TYPE_MESSAGE


def _build_file_proto(text):
    file_proto = descriptor_pb2.FileDescriptorProto()
    file_proto.name = 'chainer/links/caffe/protobuf3/caffe.proto'
    file_proto.package = _PACKAGE
    file_proto.syntax = 'proto2'
    tokens = _Tokens(text)
    while not tokens.done():
        keyword = tokens.take()
        if keyword == 'enum':
            _parse_enum(tokens, file_proto.enum_type.add())
        elif keyword == 'message':
            _parse_message(tokens, file_proto.message_type.add())
        else:
            raise SyntaxError('unexpected ' + keyword)
    _resolve_types(file_proto)
    return file_proto


def _install(namespace):
    # A private pool keeps these definitions apart from any other module
    # that registers the ``caffe`` package in the default pool.
    pool = descriptor_pool.DescriptorPool()
    file_proto = _build_file_proto(_DEFINITIONS)
    pool.Add(file_proto)
    file_descriptor = pool.FindFileByName(file_proto.name)
    namespace['DESCRIPTOR'] = file_descriptor
    for enum_descriptor in file_descriptor.enum_types_by_name.values():
        for value in enum_descriptor.values:
            namespace[value.name] = value.number
    for name, message_descriptor in (
            file_descriptor.message_types_by_name.items()):
        namespace[name] = message_factory.GetMessageClass(message_descriptor)


_install(globals())
