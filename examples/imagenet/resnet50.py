"""ResNet-50 (He et al., 2015), with bottleneck blocks."""
import chainer
import chainer.functions as F
from chainer import initializers
import chainer.links as L


class BottleNeckA(chainer.Chain):
    """Bottleneck block that changes the width (and may downsample).

    The shortcut is a strided 1x1 convolution with batch normalization.

    Args:
        in_size (int): Input channels.
        ch (int): Channels of the bottleneck (the 3x3 convolution).
        out_size (int): Output channels.
        stride (int): Stride of the block.
        groups (int): Groups of the 3x3 convolution (ResNeXt's cardinality).
        stride_on_3x3 (bool): Whether the 3x3 convolution strides (ResNeXt)
            rather than the first 1x1 convolution (ResNet as in its paper).
    """

    def __init__(self, in_size, ch, out_size, stride=2, groups=1,
                 stride_on_3x3=False):
        super().__init__()
        initialW = initializers.HeNormal()
        stride_1x1, stride_3x3 = (1, stride) if stride_on_3x3 else (stride, 1)

        with self.init_scope():
            self.conv1 = L.Convolution2D(
                in_size, ch, 1, stride_1x1, 0, initialW=initialW, nobias=True)
            self.bn1 = L.BatchNormalization(ch)
            self.conv2 = L.Convolution2D(
                ch, ch, 3, stride_3x3, 1, initialW=initialW, nobias=True,
                groups=groups)
            self.bn2 = L.BatchNormalization(ch)
            self.conv3 = L.Convolution2D(
                ch, out_size, 1, 1, 0, initialW=initialW, nobias=True)
            self.bn3 = L.BatchNormalization(out_size)

            self.conv4 = L.Convolution2D(
                in_size, out_size, 1, stride, 0,
                initialW=initialW, nobias=True)
            self.bn4 = L.BatchNormalization(out_size)

    def forward(self, x):
        h1 = F.relu(self.bn1(self.conv1(x)))
        h1 = F.relu(self.bn2(self.conv2(h1)))
        h1 = self.bn3(self.conv3(h1))
        h2 = self.bn4(self.conv4(x))
        return F.relu(h1 + h2)


class BottleNeckB(chainer.Chain):
    """Bottleneck block with an identity shortcut.

    Args:
        in_size (int): Input (and output) channels.
        ch (int): Channels of the bottleneck.
        groups (int): Groups of the 3x3 convolution.
    """

    def __init__(self, in_size, ch, groups=1):
        super().__init__()
        initialW = initializers.HeNormal()

        with self.init_scope():
            self.conv1 = L.Convolution2D(
                in_size, ch, 1, 1, 0, initialW=initialW, nobias=True)
            self.bn1 = L.BatchNormalization(ch)
            self.conv2 = L.Convolution2D(
                ch, ch, 3, 1, 1, initialW=initialW, nobias=True,
                groups=groups)
            self.bn2 = L.BatchNormalization(ch)
            self.conv3 = L.Convolution2D(
                ch, in_size, 1, 1, 0, initialW=initialW, nobias=True)
            self.bn3 = L.BatchNormalization(in_size)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.relu(self.bn2(self.conv2(h)))
        h = self.bn3(self.conv3(h))
        return F.relu(h + x)


class Block(chainer.ChainList):
    """A stage of ``layer`` bottleneck blocks, the first one a BottleNeckA.

    Args:
        layer (int): Number of blocks.
        in_size (int): Input channels.
        ch (int): Bottleneck channels.
        out_size (int): Output channels.
        stride (int): Stride of the first block.
        groups (int): Groups of the 3x3 convolutions.
        stride_on_3x3 (bool): See :class:`BottleNeckA`.
    """

    def __init__(self, layer, in_size, ch, out_size, stride=2, groups=1,
                 stride_on_3x3=False):
        super().__init__()
        self.add_link(BottleNeckA(
            in_size, ch, out_size, stride, groups, stride_on_3x3))
        for _ in range(layer - 1):
            self.add_link(BottleNeckB(out_size, ch, groups))

    def forward(self, x):
        for f in self.children():
            x = f(x)
        return x


class ResNet50(chainer.Chain):
    """ResNet-50 for 224x224 RGB images and 1000 classes.

    Calling it with images ``x`` and labels ``t`` returns the softmax cross
    entropy loss and reports ``loss`` and ``accuracy``. Subclasses change
    the bottleneck widths, the groups and the stride placement through the
    class attributes below.
    """

    insize = 224
    bottleneck_widths = (64, 128, 256, 512)
    groups = 1
    stride_on_3x3 = False

    def __init__(self):
        super().__init__()
        w = self.bottleneck_widths
        options = {'groups': self.groups,
                   'stride_on_3x3': self.stride_on_3x3}
        with self.init_scope():
            self.conv1 = L.Convolution2D(
                3, 64, 7, 2, 3, initialW=initializers.HeNormal())
            self.bn1 = L.BatchNormalization(64)
            self.res2 = Block(3, 64, w[0], 256, 1, **options)
            self.res3 = Block(4, 256, w[1], 512, **options)
            self.res4 = Block(6, 512, w[2], 1024, **options)
            self.res5 = Block(3, 1024, w[3], 2048, **options)
            self.fc = L.Linear(2048, 1000)

    def forward(self, x, t):
        h = self.bn1(self.conv1(x))
        h = F.max_pooling_2d(F.relu(h), 3, stride=2)
        h = self.res2(h)
        h = self.res3(h)
        h = self.res4(h)
        h = self.res5(h)
        h = F.average_pooling_2d(h, 7, stride=1)
        h = self.fc(h)

        loss = F.softmax_cross_entropy(h, t)
        chainer.report({'loss': loss, 'accuracy': F.accuracy(h, t)}, self)
        return loss
