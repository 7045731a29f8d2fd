from chainermn.datasets.empty_dataset import create_empty_dataset  # NOQA
from chainermn.datasets.scatter import DataSizeError  # NOQA
from chainermn.datasets.scatter import scatter_dataset  # NOQA
from chainermn.datasets.scatter import scatter_index  # NOQA
