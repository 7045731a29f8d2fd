from chainer.exporters import caffe  # NOQA
