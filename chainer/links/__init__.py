"""Links: layers that hold parameters (``chainer.links``)."""

from chainer.links.activation.maxout import Maxout  # NOQA
from chainer.links.activation.prelu import PReLU  # NOQA
from chainer.links.activation.simplified_dropconnect import SimplifiedDropconnect  # NOQA
from chainer.links.activation.swish import Swish  # NOQA

from chainer.links.connection.bias import Bias  # NOQA
from chainer.links.connection.bilinear import Bilinear  # NOQA
from chainer.links.connection.convolution_2d import Convolution2D  # NOQA
from chainer.links.connection.convolution_nd import Convolution1D  # NOQA
from chainer.links.connection.convolution_nd import Convolution3D  # NOQA
from chainer.links.connection.convolution_nd import ConvolutionND  # NOQA
from chainer.links.connection.deconvolution_2d import Deconvolution2D  # NOQA
from chainer.links.connection.deconvolution_nd import Deconvolution1D  # NOQA
from chainer.links.connection.deconvolution_nd import Deconvolution3D  # NOQA
from chainer.links.connection.deconvolution_nd import DeconvolutionND  # NOQA
from chainer.links.connection.deformable_convolution_2d import DeformableConvolution2D  # NOQA
from chainer.links.connection.depthwise_convolution_2d import DepthwiseConvolution2D  # NOQA
from chainer.links.connection.dilated_convolution_2d import DilatedConvolution2D  # NOQA
from chainer.links.connection.embed_id import EmbedID  # NOQA
from chainer.links.connection.highway import Highway  # NOQA
from chainer.links.connection.inception import Inception  # NOQA
from chainer.links.connection.inceptionbn import InceptionBN  # NOQA
from chainer.links.connection.linear import Linear  # NOQA
from chainer.links.connection.local_convolution_2d import LocalConvolution2D  # NOQA
from chainer.links.connection.mlp_convolution_2d import MLPConvolution2D  # NOQA
from chainer.links.connection.parameter import Parameter  # NOQA
from chainer.links.connection.scale import Scale  # NOQA

from chainer.links.loss.black_out import BlackOut  # NOQA
from chainer.links.loss.crf1d import CRF1d  # NOQA
from chainer.links.loss.hierarchical_softmax import BinaryHierarchicalSoftmax  # NOQA
from chainer.links.loss.negative_sampling import NegativeSampling  # NOQA

from chainer.links.model.classifier import Classifier  # NOQA
from chainer.links.model.vision.googlenet import GoogLeNet  # NOQA
from chainer.links.model.vision.resnet import ResNet101Layers  # NOQA
from chainer.links.model.vision.resnet import ResNet152Layers  # NOQA
from chainer.links.model.vision.resnet import ResNet50Layers  # NOQA
from chainer.links.model.vision.vgg import VGG16Layers  # NOQA
from chainer.links.model.vision.vgg import VGG19Layers  # NOQA

from chainer.links.normalization.batch_normalization import BatchNormalization  # NOQA
from chainer.links.normalization.batch_renormalization import BatchRenormalization  # NOQA
from chainer.links.normalization.decorrelated_batch_normalization import DecorrelatedBatchNormalization  # NOQA
from chainer.links.normalization.group_normalization import GroupNormalization  # NOQA
from chainer.links.normalization.layer_normalization import LayerNormalization  # NOQA

from chainer.links.rnn.gru import GRU  # NOQA
from chainer.links.rnn.gru import StatefulGRU  # NOQA
from chainer.links.rnn.gru import StatelessGRU  # NOQA
from chainer.links.rnn.lstm import LSTM  # NOQA
from chainer.links.rnn.lstm import StatelessLSTM  # NOQA
from chainer.links.rnn.mgu import StatefulMGU  # NOQA
from chainer.links.rnn.mgu import StatelessMGU  # NOQA
from chainer.links.rnn.n_step_gru import NStepBiGRU  # NOQA
from chainer.links.rnn.n_step_gru import NStepGRU  # NOQA
from chainer.links.rnn.n_step_lstm import NStepBiLSTM  # NOQA
from chainer.links.rnn.n_step_lstm import NStepLSTM  # NOQA
from chainer.links.rnn.n_step_rnn import NStepBiRNNReLU  # NOQA
from chainer.links.rnn.n_step_rnn import NStepBiRNNTanh  # NOQA
from chainer.links.rnn.n_step_rnn import NStepRNNReLU  # NOQA
from chainer.links.rnn.n_step_rnn import NStepRNNTanh  # NOQA
from chainer.links.rnn.peephole import StatefulPeepholeLSTM  # NOQA
from chainer.links.rnn.tree_lstm import ChildSumTreeLSTM  # NOQA
from chainer.links.rnn.tree_lstm import NaryTreeLSTM  # NOQA
from chainer.links.rnn.zoneoutlstm import StatefulZoneoutLSTM  # NOQA
