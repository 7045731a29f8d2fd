import chainer
import chainer.functions as F
import numpy as np


def test_dropout_is_identity_in_the_graph(check_all_opsets):
    model = chainer.Sequential(lambda x: F.dropout(x, 0.3))
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    check_all_opsets(model, x, 'Dropout')
