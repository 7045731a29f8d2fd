"""ResNeXt-50 (32x4d) (Xie et al., 2017)."""
import resnet50


class ResNeXt50(resnet50.ResNet50):
    """ResNeXt-50 for 224x224 RGB images and 1000 classes.

    ResNet-50 with twice as wide bottlenecks whose 3x3 convolutions are
    split into 32 groups and carry the stride.
    """

    bottleneck_widths = (128, 256, 512, 1024)
    groups = 32
    stride_on_3x3 = True
