"""Tabular datasets: tables of named columns, and lazy views of them."""

from chainer.dataset.tabular import _asmode  # NOQA
from chainer.dataset.tabular import _concat  # NOQA
from chainer.dataset.tabular import _join  # NOQA
from chainer.dataset.tabular import _slice  # NOQA
from chainer.dataset.tabular import _transform  # NOQA
from chainer.dataset.tabular import _with_converter  # NOQA

from chainer.dataset.tabular.delegate_dataset import DelegateDataset  # NOQA
from chainer.dataset.tabular.from_data import from_data  # NOQA
