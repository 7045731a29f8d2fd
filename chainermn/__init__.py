"""ChainerMN: multi-node training with Chainer over MPI.

Start one process per worker with ``mpiexec -n N python train.py``; each
creates a communicator (:func:`create_communicator`) and wraps its
optimizer (:func:`create_multi_node_optimizer`) so that the gradients are
averaged over the processes. ``import chainermn`` works without mpi4py;
the first call that needs MPI names the packages to install.

In a job of several processes, an uncaught exception on any rank ends the
whole job (see :mod:`chainermn.global_except_hook`).
"""

import chainer

from chainermn import communicators  # NOQA
from chainermn import datasets  # NOQA
from chainermn import extensions  # NOQA
from chainermn import functions  # NOQA
from chainermn import global_except_hook  # NOQA
from chainermn import iterators  # NOQA
from chainermn import links  # NOQA
from chainermn import optimizers  # NOQA

from chainermn.communicators import CommunicatorBase  # NOQA
from chainermn.communicators import create_communicator  # NOQA
from chainermn.datasets import DataSizeError  # NOQA
from chainermn.datasets import scatter_dataset  # NOQA
from chainermn.datasets import scatter_index  # NOQA
from chainermn.extensions import create_multi_node_checkpointer  # NOQA
from chainermn.extensions import create_multi_node_evaluator  # NOQA
from chainermn.links import MultiNodeChainList  # NOQA
from chainermn.optimizers import create_multi_node_optimizer  # NOQA

# Only if CHAINERMN_FORCE_ABORT_ON_EXCEPTION forces it, as in Chainer 7.8;
# by default, create_communicator() installs the hook in a multi-process job.
global_except_hook._add_hook_if_enabled()

__version__ = chainer.__version__
